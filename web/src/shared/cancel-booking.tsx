import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { api, errorMessage } from "./api-client.ts";
import type { Booking } from "./api-types.ts";
import { BOOKINGS_KEY } from "./query-client.ts";

type Wording = { label: string; title: string; question: string; keep: string; confirm: string };

const CANCEL: Wording = { label: "Cancel Session", title: "Cancel this booking?", question: "Are you sure you want to cancel this booking?", keep: "Keep Booking", confirm: "Yes, Cancel" };

/** An unpaid booking only holds a time: cancelling it gives the time back. */
export const RELEASE: Wording = { label: "Release this time", title: "Release this time?", question: "The time will be offered to others again and this booking will be cancelled. Nothing has been charged.", keep: "Keep Holding", confirm: "Yes, Release" };

/** Cancel Session, after 'Are you sure you want to cancel this booking?'. */
export function CancelBookingButton({ booking, wording = CANCEL }: { booking: Pick<Booking, "id" | "session_title">; wording?: Wording }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
          {error && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{wording.keep}</Button>
          <Button color="error" variant="contained" onClick={cancel} disabled={busy}>
            {wording.confirm}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
