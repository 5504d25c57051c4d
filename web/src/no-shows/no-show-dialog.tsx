import { useId, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { NO_SHOW_NOTE_MAX } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";

/** A step on a report, with the words its dialog shows. */
export type NoShowStep = {
  /** Where it is sent: POST /bookings/{id}/no-show or /bookings/{id}/no-show/contest. */
  path: "no-show" | "no-show/contest";
  title: string;
  /** What taking the step leads to, said before anyone confirms. */
  consequence: string;
  noteLabel: string;
  confirm: string;
};

/**
 * The dialog of a step on a report: what it leads to, an optional note (up to NO_SHOW_NOTE_MAX characters), and the step sent
 * on confirming; then every booking list and detail is read again. A refusal is shown in the API's words and the dialog stays.
 */
export function NoShowDialog({
  booking,
  step,
  open,
  onClose,
}: {
  booking: Pick<Booking, "id">;
  step: NoShowStep;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const titleId = useId();
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const close = () => {
    if (busy) return;
    setFailure(null);
    onClose();
  };
  const send = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const written = note.trim();
      await api.post<Booking>(`/bookings/${booking.id}/${step.path}`, written ? { note: written } : {});
      await queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
      setNote("");
      onClose();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{step.title}</DialogTitle>
      <DialogContent>
        <DialogContentText data-testid="no-show-consequence">{step.consequence}</DialogContentText>
        <TextField
          label={step.noteLabel}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          sx={{ mt: 2 }}
          helperText={`${note.length} / ${NO_SHOW_NOTE_MAX}`}
          slotProps={{ htmlInput: { maxLength: NO_SHOW_NOTE_MAX } }}
        />
        {failure && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          Back
        </Button>
        <Button variant="contained" color="error" onClick={() => void send()} disabled={busy}>
          {step.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
