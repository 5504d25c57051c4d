import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import { api, ApiError } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { PREP_SUBMIT_FAILED, prepBody, validatePrepAnswers, type PrepErrors } from "./prep-answers.ts";

/** One required answer per question the session asked, sent as PATCH /bookings/{id}/prep. */
export function PrepAnswersForm(props: {
  bookingId: string | null;
  questions: readonly string[];
  initial?: (string | null)[];
  submitLabel?: string;
  onSubmitted: (booking: Booking) => void;
}) {
  const [answers, setAnswers] = useState<string[]>(() => props.questions.map((_, i) => props.initial?.[i] ?? ""));
  const [errors, setErrors] = useState<PrepErrors>({ fields: [], summary: null });
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validatePrepAnswers(answers, props.questions.length);
    setErrors(found);
    setFailure(null);
    if (found.summary) return;
    if (!props.bookingId) {
      setFailure("No booking found");
      return;
    }
    setBusy(true);
    try {
      const booking = await api.patch<Booking>(`/bookings/${props.bookingId}/prep`, prepBody(answers));
      props.onSubmitted(booking);
    } catch (error) {
      setFailure(error instanceof ApiError && error.code === "booking_not_found" ? "No booking found" : PREP_SUBMIT_FAILED);
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Preparation questions" sx={{ display: "grid", gap: 2 }}>
      {errors.summary && (
        <Alert severity="error" role="alert">
          {errors.summary}
        </Alert>
      )}
      {props.questions.map((q, i) => (
        <TextField
          key={i}
          label={q}
          value={answers[i]}
          onChange={(e) => setAnswers((all) => all.map((a, j) => (j === i ? e.target.value : a)))}
          multiline
          minRows={3}
          required
          error={!!errors.fields[i]}
          helperText={errors.fields[i] ?? undefined}
        />
      ))}
      <Box>
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {props.submitLabel ?? "Submit"}
        </Button>
      </Box>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
    </Box>
  );
}
