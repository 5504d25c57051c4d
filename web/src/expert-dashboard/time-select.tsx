import TextField from "@mui/material/TextField";
import { timeLabel } from "./schedule-form.ts";

/**
 * A half-hour time of day ("09:30", shown "9:30 AM") from `options`. A value no longer among them
 * (an end before a start just moved) stays shown, unselectable, beside `error`.
 */
export function TimeSelect({
  label,
  value,
  options,
  onChange,
  error,
}: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  error?: string | null;
}) {
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={error ?? undefined}
      slotProps={{ select: { native: true } }}
    >
      {!options.includes(value) && (
        <option value={value} disabled>
          {timeLabel(value)}
        </option>
      )}
      {options.map((t) => (
        <option key={t} value={t}>
          {timeLabel(t)}
        </option>
      ))}
    </TextField>
  );
}
