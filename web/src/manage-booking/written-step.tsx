import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";

/** A step where the expert writes to the creator (a question, a reason) and sends it. */
export function WrittenStep(props: {
  title: string;
  intro: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  maxLength?: number;
  failure: ReactNode;
  action: { label: string; color: "primary" | "error"; run: () => void };
  busy: boolean;
  onBack: () => void;
}) {
  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {props.title}
      </Typography>
      <Typography sx={{ mb: 2 }}>{props.intro}</Typography>
      <TextField
        label={props.label}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        multiline
        minRows={3}
        fullWidth
        required
        {...(props.maxLength && { slotProps: { htmlInput: { maxLength: props.maxLength } } })}
        error={!!props.error}
        helperText={props.error ?? undefined}
      />
      {props.failure}
      <Box sx={{ display: "flex", gap: 2, mt: 2 }}>
        <Button variant="contained" color={props.action.color} onClick={props.action.run} disabled={props.busy}>
          {props.action.label}
        </Button>
        <Button onClick={props.onBack}>Back</Button>
      </Box>
    </Box>
  );
}
