import { Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from "@mui/material";
import { useId, useState } from "react";
import { Button } from "react-admin";

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  /** What confirming does, in a sentence. */
  explanation: string;
  confirmLabel: string;
  /** Ask for a reason (kept with the decision); Confirm stays disabled until one is typed. */
  askReason?: boolean;
  busy?: boolean;
  color?: "primary" | "warning" | "error";
  onCancel: () => void;
  onConfirm: (reason: string) => void;
};

/**
 * A console action that changes something for others (vetting, a rebuild) waits for a second,
 * deliberate click here, rather than acting on the first one (issue 27.20).
 */
export function ConfirmDialog({
  open,
  title,
  explanation,
  confirmLabel,
  askReason = false,
  busy = false,
  color = "primary",
  onCancel,
  onConfirm,
}: ConfirmDialogProps) {
  const [reason, setReason] = useState("");
  const titleId = useId();
  const close = () => {
    setReason("");
    onCancel();
  };
  const confirm = () => {
    onConfirm(reason.trim());
    setReason("");
  };
  return (
    // Inside a list row, clicks in the dialog must not also open the row's record.
    <Dialog open={open} onClose={close} onClick={(e) => e.stopPropagation()} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: askReason ? 2 : 0 }}>
          {explanation}
        </Typography>
        {askReason && (
          <TextField
            autoFocus
            fullWidth
            required
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button label="Cancel" onClick={close} />
        <Button label={confirmLabel} onClick={confirm} disabled={busy || (askReason && !reason.trim())} variant="contained" color={color} />
      </DialogActions>
    </Dialog>
  );
}
