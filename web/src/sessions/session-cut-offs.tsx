import { FULL_REFUND_HOURS_OPTIONS, RESCHEDULE_HOURS_OPTIONS, type FullRefundHours, type RescheduleHours } from "@booking/contracts";
import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import TextField from "@mui/material/TextField";
import type { SessionForm } from "./session-form.ts";

type CutOffs = Pick<SessionForm, "full_refund_hours" | "reschedule_hours">;

const HELP_ID = "session-cut-offs-help";

/**
 * The session's own cut-offs (issue 31.4), within the contract's choices: until when a creator's cancellation is
 * refunded in full, and until when they may ask to move the session. Creators see them before paying; a booking
 * keeps the ones it was made under.
 */
export function SessionCutOffFields({ form, onChange }: { form: CutOffs; onChange: (cutOffs: Partial<CutOffs>) => void }) {
  const describedBy = { htmlInput: { "aria-describedby": HELP_ID } };
  return (
    <Box>
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
        <TextField
          select
          label="Full refund if cancelled at least"
          value={String(form.full_refund_hours)}
          onChange={(e) => onChange({ full_refund_hours: Number(e.target.value) as FullRefundHours })}
          slotProps={{ select: { native: true }, ...describedBy }}
        >
          {FULL_REFUND_HOURS_OPTIONS.map((h) => (
            <option key={h} value={h}>
              {h} hours before the start
            </option>
          ))}
        </TextField>
        <TextField
          select
          label="Creators can ask to move it until"
          value={String(form.reschedule_hours)}
          onChange={(e) => onChange({ reschedule_hours: Number(e.target.value) as RescheduleHours })}
          slotProps={{ select: { native: true }, ...describedBy }}
        >
          {RESCHEDULE_HOURS_OPTIONS.map((h) => (
            <option key={h} value={h}>
              {h} hours before the start
            </option>
          ))}
        </TextField>
      </Box>
      <FormHelperText id={HELP_ID}>Applies to new bookings; bookings already made keep the terms they were made under.</FormHelperText>
    </Box>
  );
}
