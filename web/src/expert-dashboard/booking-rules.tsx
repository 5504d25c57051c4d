import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { MAX_NOTICE_HOURS, type BookingRulesBody, type BookingRulesReply, type BufferMinutes } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { BUFFER_OPTIONS, bufferOf, NOTICE_RULE, noticeHours, type BookingRules } from "./time-off-form.ts";

/** Buffers kept free before and after each session, and how many hours ahead a session must be booked (PUT /experts/{id}/booking-rules). */
export function BookingRulesSection({ expertId, rules }: { expertId: string; rules: BookingRules }) {
  const queryClient = useQueryClient();
  const [before, setBefore] = useState(() => bufferOf(rules.buffer_before_minutes));
  const [after, setAfter] = useState(() => bufferOf(rules.buffer_after_minutes));
  const [notice, setNotice] = useState(String(rules.min_notice_hours));
  const [noticeError, setNoticeError] = useState<string | null>(null);
  const [saved, setSaved] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const hours = noticeHours(notice);
    setNoticeError(hours === null ? NOTICE_RULE : null);
    if (hours === null) return;
    setBusy(true);
    try {
      const body: BookingRulesBody = { buffer_before_minutes: before, buffer_after_minutes: after, min_notice_hours: hours };
      await api.put<BookingRulesReply>(`/experts/${expertId}/booking-rules`, body);
      setSaved({ kind: "success", text: "Buffers and notice saved." });
      void queryClient.invalidateQueries({ queryKey: ["schedule", expertId] });
      void queryClient.invalidateQueries({ queryKey: ["availability"] });
    } catch (error) {
      setSaved({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const bufferField = (label: string, value: BufferMinutes, onChange: (v: BufferMinutes) => void) => (
    <TextField
      select
      label={label}
      value={value}
      onChange={(e) => onChange(bufferOf(Number(e.target.value)))}
      slotProps={{ select: { native: true } }}
    >
      {BUFFER_OPTIONS.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </TextField>
  );

  return (
    <Box component="section" aria-labelledby="booking-rules-heading" sx={{ display: "grid", gap: 2 }}>
      <Typography id="booking-rules-heading" variant="h6" component="h2">
        Buffers and notice
      </Typography>
      <Typography color="text.secondary">Keep time free around each session, and stop last-minute bookings.</Typography>
      {saved && (
        <Alert severity={saved.kind} role={saved.kind === "error" ? "alert" : "status"}>
          {saved.text}
        </Alert>
      )}
      <Box
        component="form"
        noValidate
        onSubmit={save}
        aria-label="Buffers and notice"
        sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr 1fr" }, alignItems: "start" }}
      >
        {bufferField("Buffer before each session", before, setBefore)}
        {bufferField("Buffer after each session", after, setAfter)}
        <TextField
          label="Minimum notice (hours)"
          type="number"
          value={notice}
          onChange={(e) => setNotice(e.target.value)}
          error={!!noticeError}
          helperText={noticeError ?? "How long before a session it can be booked."}
          slotProps={{ htmlInput: { min: 0, max: MAX_NOTICE_HOURS, step: 1, inputMode: "numeric" } }}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            Save buffers and notice
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
