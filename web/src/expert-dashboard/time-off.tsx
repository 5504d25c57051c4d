import { useState, type FormEvent } from "react";
import { Link as RouterLink } from "react-router-dom";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { TIME_OFF_REASON_MAX, type TimeOffAddedReply } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import type { BookingInTimeOff } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { endOptions, TIME_OPTIONS } from "./schedule-form.ts";
import { TimeSelect } from "./time-select.tsx";
import { timeOffBody, timeOffErrors, timeOffLabel, type TimeOff, type TimeOffForm, type TimeOffFormErrors } from "./time-off-form.ts";

/** Bookings still holding a time inside the expert's time off; under the schedule's key, so every change to it refreshes them. */
export const bookingsInTimeOffQuery = (expertId: string) =>
  queryOptions({
    queryKey: ["schedule", expertId, "in-time-off"],
    queryFn: ({ signal }) => api.get<BookingInTimeOff[]>(`/experts/${expertId}/time-off/affected-bookings`, { signal }),
    staleTime: 0,
  });

/** "These bookings fall in your time off: handle them", each with a link to manage it. Nothing when there are none. */
export function BookingsInTimeOff({ bookings, zone }: { bookings: BookingInTimeOff[]; zone: string }) {
  if (bookings.length === 0) return null;
  return (
    // Not an alert: it stays until each booking is handled.
    <Alert severity="warning" role="region" aria-label="Bookings in your time off" data-testid="bookings-in-time-off">
      <Typography sx={{ fontWeight: 700 }}>These bookings fall in your time off: handle them</Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        They keep their time until you move or cancel them.
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {bookings.map((b) => (
          <li key={b.booking_id}>
            {b.session_title} · {localMoment(b.scheduled_time, zone)} ·{" "}
            <Link component={RouterLink} to={`/manage-booking/${b.booking_id}`}>
              Manage this booking
            </Link>
          </li>
        ))}
      </Box>
    </Alert>
  );
}

const startForm = (zone: string, kind: TimeOffForm["kind"]): TimeOffForm => {
  const today = DateTime.now().setZone(zone).toISODate()!;
  return kind === "days"
    ? { kind, startDate: today, endDate: today, reason: "" }
    : { kind, startDate: today, startTime: "09:00", endDate: today, endTime: "17:00", reason: "" };
};

/** Time off: the periods not yet over, each removable, and a form for whole days or some hours with an optional label. */
export function TimeOffSection({ expertId, zone, timeOff }: { expertId: string; zone: string; timeOff: TimeOff[] }) {
  const queryClient = useQueryClient();
  const inTimeOff = useQuery(bookingsInTimeOffQuery(expertId));
  const [form, setForm] = useState<TimeOffForm>(() => startForm(zone, "days"));
  const [errors, setErrors] = useState<TimeOffFormErrors>({});
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);
  const today = DateTime.now().setZone(zone).toISODate()!;

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ["schedule", expertId] });
    void queryClient.invalidateQueries({ queryKey: ["availability"] });
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const found = timeOffErrors(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const reply = await api.post<TimeOffAddedReply>(`/experts/${expertId}/time-off`, timeOffBody(form));
      queryClient.setQueryData(bookingsInTimeOffQuery(expertId).queryKey, reply.affected_bookings);
      setForm(startForm(zone, form.kind));
      setNotice({ kind: "success", text: `Time off added: ${timeOffLabel(reply.time_off)}.` });
      changed();
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (t: TimeOff) => {
    setBusy(true);
    try {
      await api.delete(`/experts/${expertId}/time-off/${encodeURIComponent(t.id)}`);
      setNotice({ kind: "success", text: `Time off removed: ${timeOffLabel(t)}.` });
      changed();
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  // On the same day only the times after the start; on a later day any, midnight included.
  const endTimes = form.kind === "hours" && form.endDate === form.startDate ? endOptions(form.startTime) : TIME_OPTIONS;
  const set = (change: Partial<TimeOffForm>) => setForm((f) => ({ ...f, ...change }) as TimeOffForm);

  return (
    <Box component="section" aria-labelledby="time-off-heading" sx={{ display: "grid", gap: 2 }}>
      <Typography id="time-off-heading" variant="h6" component="h2">
        Time off
      </Typography>
      {inTimeOff.data && <BookingsInTimeOff bookings={inTimeOff.data} zone={zone} />}
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      {timeOff.length === 0 ? (
        <Typography color="text.secondary">No time off planned.</Typography>
      ) : (
        <Box component="ul" aria-label="Planned time off" sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 1 }}>
          {timeOff.map((t) => (
            <Box
              component="li"
              key={t.id}
              data-testid="time-off"
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
              <Typography sx={{ flexGrow: 1 }}>
                {timeOffLabel(t)}
                {t.reason && <Typography component="span" color="text.secondary">{` · ${t.reason}`}</Typography>}
              </Typography>
              <Button
                color="error"
                size="small"
                onClick={() => void remove(t)}
                disabled={busy}
                aria-label={`Remove time off ${timeOffLabel(t)}`}
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
        aria-label="Add time off"
        sx={{ display: "grid", gap: 2, border: 1, borderColor: "divider", borderRadius: 2, p: 2 }}
      >
        <RadioGroup
          row
          aria-label="Time off for"
          value={form.kind}
          onChange={(e) => setForm(startForm(zone, e.target.value as TimeOffForm["kind"]))}
        >
          <FormControlLabel value="days" control={<Radio />} label="Whole days" />
          <FormControlLabel value="hours" control={<Radio />} label="Some hours" />
        </RadioGroup>
        <Box
          sx={{
            display: "grid",
            gap: 2,
            gridTemplateColumns: { xs: "1fr", sm: form.kind === "days" ? "1fr 1fr" : "1fr 1fr 1fr 1fr" },
            alignItems: "start",
          }}
        >
          <TextField
            type="date"
            label={form.kind === "days" ? "First day" : "From date"}
            value={form.startDate}
            onChange={(e) =>
              set(
                form.kind === "days" && form.endDate < e.target.value
                  ? { startDate: e.target.value, endDate: e.target.value }
                  : { startDate: e.target.value },
              )
            }
            error={!!errors.startDate}
            helperText={errors.startDate}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today } }}
          />
          {form.kind === "hours" && (
            <TimeSelect label="From time" value={form.startTime} options={TIME_OPTIONS} onChange={(startTime) => set({ startTime })} />
          )}
          <TextField
            type="date"
            label={form.kind === "days" ? "Last day" : "Until date"}
            value={form.endDate}
            onChange={(e) => set({ endDate: e.target.value })}
            error={!!errors.endDate}
            helperText={errors.endDate}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: form.startDate || today } }}
          />
          {form.kind === "hours" && (
            <TimeSelect
              label="Until time"
              value={form.endTime}
              options={endTimes}
              onChange={(endTime) => set({ endTime })}
              error={errors.endTime}
            />
          )}
        </Box>
        <TextField
          label="Label (optional)"
          placeholder="Vacation"
          value={form.reason}
          onChange={(e) => set({ reason: e.target.value })}
          error={!!errors.reason}
          helperText={errors.reason ?? "Creators do not see it."}
          slotProps={{ htmlInput: { maxLength: TIME_OFF_REASON_MAX + 1 } }}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            Add time off
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
