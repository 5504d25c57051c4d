import CurrencyExchangeIcon from "@mui/icons-material/CurrencyExchange";
import { Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { Button, useCreate, useNotify, useRecordContext, useRefresh } from "react-admin";
import type { AdminBookingReply } from "@booking/contracts";
import { formatCents } from "../fields/money-field.tsx";

/** What may still be given back: paid, less what is already owed back (the calendar checks it again). */
export const refundableCents = (b: Pick<AdminBookingReply, "paid_cents" | "refund_due_cents">) =>
  Math.max(0, b.paid_cents - b.refund_due_cents);

/** Dollars as typed ("40", "40.5", "$40.50") to whole cents; null when it is not an amount. */
export function centsFromDollars(text: string): number | null {
  const m = /^\s*\$?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}

/**
 * An admin refunds part or all of a paid booking with a reason: sent as RefundBooking
 * (POST /admin/refunds); the refund reactor pays it and the booking's money trail shows it.
 */
export function RefundBookingButton() {
  const booking = useRecordContext<AdminBookingReply>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [create, { isPending }] = useCreate();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  if (!booking || booking.paid_cents === 0) return null;
  const most = refundableCents(booking);
  const cents = centsFromDollars(amount);
  const refund = () =>
    void create(
      "refunds",
      { data: { booking_id: booking.booking_id, amount_cents: cents, reason } },
      {
        onSuccess: () => {
          setOpen(false);
          setAmount("");
          setReason("");
          notify(`A refund of ${formatCents(cents ?? 0)} is owed; it is being paid back.`, { type: "success" });
          refresh();
        },
        // The API's catalogue message (say, "You can refund at most …") is what the admin reads.
        onError: (error) => notify(error instanceof Error ? error.message : "The refund was not recorded.", { type: "error" }),
      },
    );
  return (
    <>
      <Button label="Refund" onClick={() => setOpen(true)} disabled={most === 0}>
        <CurrencyExchangeIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="refund-booking-title">
        <DialogTitle id="refund-booking-title">Refund this booking</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            Paid {formatCents(booking.paid_cents)}; at most {formatCents(most)} can still be refunded. The reason is kept in the booking's
            history.
          </Typography>
          <TextField
            autoFocus
            fullWidth
            label="Amount (USD)"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            sx={{ mb: 2 }}
            error={amount !== "" && cents === null}
          />
          <TextField
            fullWidth
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button label="Cancel" onClick={() => setOpen(false)} />
          <Button
            label="Refund"
            onClick={refund}
            disabled={isPending || cents === null || cents <= 0 || !reason.trim()}
            variant="contained"
          />
        </DialogActions>
      </Dialog>
    </>
  );
}
