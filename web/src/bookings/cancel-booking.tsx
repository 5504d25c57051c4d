import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FULL_REFUND_NOTICE_HOURS, type CancellationReply, type Currency } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { currencyOf, moneyText } from "../shared/money.ts";

/** `refund`: whether the dialog says what cancelling gives back (a booking that holds a time unpaid has nothing to give back). */
type Wording = { label: string; title: string; question: string; keep: string; confirm: string; refund: boolean };

const CANCEL: Wording = {
  label: "Cancel Session",
  title: "Cancel this booking?",
  question: "Are you sure you want to cancel this booking?",
  keep: "Keep Booking",
  confirm: "Yes, Cancel",
  refund: true,
};

/** An unpaid booking only holds a time: cancelling it gives the time back. */
export const RELEASE: Wording = {
  label: "Release this time",
  title: "Release this time?",
  question: "The time will be offered to others again and this booking will be cancelled. Nothing has been charged.",
  keep: "Keep Holding",
  confirm: "Yes, Release",
  refund: false,
};

/** What cancelling a booking now would refund the one asking: the API asks the calendar's cancellation policy, so no page restates it. */
export const cancellationQuery = (bookingId: string) => ({
  queryKey: [...BOOKINGS_KEY, "cancellation", bookingId],
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<CancellationReply>(`/bookings/${bookingId}/cancellation`, { signal }),
  staleTime: 0,
  retry: false,
});

/**
 * The refund sentence of the cancel dialog, in the booking's currency, or null when nothing was paid; `fullRefundHours`:
 * the booking's own cut-off, the terms it was made under (issue 31.4).
 */
export function refundSentence(
  reply: CancellationReply,
  askerIsCreator: boolean,
  currency: Currency,
  fullRefundHours: number = FULL_REFUND_NOTICE_HOURS,
): string | null {
  if (reply.paid_cents === 0) return null;
  const amount = moneyText(reply.refund_cents, currency, { short: true });
  if (reply.refund_cents > 0) return askerIsCreator ? `You will get ${amount} back.` : `The creator will get ${amount} back.`;
  return `It is less than ${fullRefundHours} hours before the session, so this cancellation is not refunded.`;
}

type Cancellable = Pick<Booking, "id" | "session_title" | "full_refund_hours">;

/** Cancel Session, after 'Are you sure you want to cancel this booking?' and what the creator gets back. */
export function CancelBookingButton({ booking, wording = CANCEL }: { booking: Cancellable; wording?: Wording }) {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Asked each time the dialog opens: the answer changes as the session draws near.
  const policy = useQuery({ ...cancellationQuery(booking.id), enabled: open && wording.refund });
  const asker = auth.user?.role === "creator";
  const refund = policy.data ? refundSentence(policy.data, asker, currencyOf(booking), booking.full_refund_hours) : null;
  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.patch(`/bookings/${booking.id}/status`, { status: "cancelled" });
      await queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
      void queryClient.invalidateQueries({ queryKey: ["availability"] });
      setOpen(false);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button color="error" size="small" onClick={() => setOpen(true)} aria-label={`${wording.label}: ${booking.session_title}`}>
        {wording.label}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={`cancel-${booking.id}`}>
        <DialogTitle id={`cancel-${booking.id}`}>{wording.title}</DialogTitle>
        <DialogContent>
          <DialogContentText>{wording.question}</DialogContentText>
          {wording.refund && policy.isPending && (
            <Typography role="status" sx={{ mt: 2 }}>
              Checking what the cancellation refunds…
            </Typography>
          )}
          {refund && (
            <Typography sx={{ mt: 2, fontWeight: 700 }} data-testid="cancel-refund">
              {refund}
            </Typography>
          )}
          {policy.isError && (
            <Alert severity="warning" sx={{ mt: 2 }}>
              Could not check what the cancellation refunds: {errorMessage(policy.error)}
            </Alert>
          )}
          {error && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{wording.keep}</Button>
          {/* Not before the refund is known: the creator confirms knowing what they get back. */}
          <Button color="error" variant="contained" onClick={cancel} disabled={busy || (wording.refund && policy.isPending)}>
            {wording.confirm}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
