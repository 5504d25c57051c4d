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

/** Cancel Session, after 'Are you sure you want to cancel this booking?'. */
export function CancelBookingButton({ booking }: { booking: Pick<Booking, "id" | "session_title"> }) {
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
      <Button color="error" size="small" onClick={() => setOpen(true)} aria-label={`Cancel Session: ${booking.session_title}`}>
        Cancel Session
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={`cancel-${booking.id}`}>
        <DialogTitle id={`cancel-${booking.id}`}>Cancel this booking?</DialogTitle>
        <DialogContent>
          <DialogContentText>Are you sure you want to cancel this booking?</DialogContentText>
          {error && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Keep Booking</Button>
          <Button color="error" variant="contained" onClick={cancel} disabled={busy}>
            Yes, Cancel
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
