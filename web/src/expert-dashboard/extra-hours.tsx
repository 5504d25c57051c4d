import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { DateTime } from "luxon";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { END_BEFORE_START, endOptions, TIME_OPTIONS } from "./schedule-form.ts";
import { TimeSelect } from "./time-select.tsx";
import { extraHoursBody, extraHoursError, extraHoursLabel, type DateOverride, type ExtraHoursForm } from "./time-off-form.ts";

/** Extra hours on a date, besides that weekday's slots: the ones not yet over, each removable, and a form to add more. */
export function ExtraHoursSection({ expertId, zone, overrides }: { expertId: string; zone: string; overrides: DateOverride[] }) {
  const queryClient = useQueryClient();
  const today = DateTime.now().setZone(zone).toISODate()!;
  const [form, setForm] = useState<ExtraHoursForm>({ date: today, start: "18:00", end: "20:00" });
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);
  const ends = endOptions(form.start);

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ["schedule", expertId] });
    void queryClient.invalidateQueries({ queryKey: ["availability"] });
  };

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      setNotice({ kind: "success", text: done });
      changed();
    } catch (e) {
      setNotice({ kind: "error", text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  const add = (e: FormEvent) => {
    e.preventDefault();
    const found = extraHoursError(form);
    setError(found);
    if (!found)
      void run(
        () => api.post(`/experts/${expertId}/date-overrides`, extraHoursBody(form)),
        `Extra hours added: ${extraHoursLabel({ date: form.date, start_local: form.start, end_local: form.end })}.`,
      );
  };

  return (
    <Box component="section" aria-labelledby="extra-hours-heading" sx={{ display: "grid", gap: 2 }}>
      <Typography id="extra-hours-heading" variant="h6" component="h2">
        Extra hours
      </Typography>
      <Typography color="text.secondary">Open more hours on one date, besides your weekly availability.</Typography>
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      {overrides.length > 0 && (
        <Box component="ul" aria-label="Planned extra hours" sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 1 }}>
          {overrides.map((o) => (
            <Box
              component="li"
              key={o.id}
              data-testid="extra-hours"
              sx={{
                display: "flex",
                alignItems: "center",
                gap: 2,
                flexWrap: "wrap",
                border: 1,
                borderColor: "divider",
                borderRadius: 2,
                px: 2,
                py: 1,
              }}
            >
              <Typography sx={{ flexGrow: 1 }}>{extraHoursLabel(o)}</Typography>
              <Button
                color="error"
                size="small"
                disabled={busy}
                onClick={() =>
                  void run(
                    () => api.delete(`/experts/${expertId}/date-overrides/${encodeURIComponent(o.id)}`),
                    `Extra hours removed: ${extraHoursLabel(o)}.`,
                  )
                }
                aria-label={`Remove extra hours ${extraHoursLabel(o)}`}
              >
                Remove
              </Button>
            </Box>
          ))}
        </Box>
      )}
      <Box
        component="form"
        noValidate
        onSubmit={add}
        aria-label="Add extra hours"
        sx={{
          display: "grid",
          gap: 2,
          gridTemplateColumns: { xs: "1fr", sm: "1.3fr 1fr 1fr auto" },
          alignItems: "start",
          border: 1,
          borderColor: "divider",
          borderRadius: 2,
          p: 2,
        }}
      >
        <TextField
          type="date"
          label="Date"
          value={form.date}
          onChange={(e) => setForm((f) => ({ ...f, date: e.target.value }))}
          error={!!error && !form.date}
          helperText={!form.date ? error : undefined}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today } }}
        />
        <TimeSelect label="From" value={form.start} options={TIME_OPTIONS} onChange={(start) => setForm((f) => ({ ...f, start }))} />
        <TimeSelect
          label="Until"
          value={form.end}
          options={ends}
          onChange={(end) => setForm((f) => ({ ...f, end }))}
          error={ends.includes(form.end) ? null : END_BEFORE_START}
        />
        <Button type="submit" variant="outlined" disabled={busy || !ends.includes(form.end)} sx={{ mt: 1 }}>
          Add extra hours
        </Button>
      </Box>
    </Box>
  );
}
