import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import { CalendarsSection } from "../external-calendars/calendars-section.tsx";
import { ApiError, api } from "../shared/api-client.ts";
import type { Schedule, WeeklySlot } from "../shared/api-types.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { browserZone, zoneLabel } from "../shared/local-time.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { TimezoneField } from "../shared/timezone-field.tsx";
import { useSchedule } from "./dashboard-queries.ts";
import { copyToWeekdays, END_BEFORE_START, endOptions, newSlot, slotErrors, TIME_OPTIONS, WEEKDAY_OPTIONS } from "./schedule-form.ts";
import { TimeSelect } from "./time-select.tsx";
import { BookingRulesSection } from "./booking-rules.tsx";
import { ExtraHoursSection } from "./extra-hours.tsx";
import { TimeOffSection } from "./time-off.tsx";
import { rulesOf } from "./time-off-form.ts";

export function ScheduleTab({ expertId }: { expertId: string | null }) {
  const schedule = useSchedule(expertId);
  if (!expertId) return <Typography>Complete your Expert Profile to unlock schedule creation.</Typography>;
  if (schedule.isPending) return <LoadingScreen />;
  if (schedule.isError) return <Alert severity="error">Failed to load schedule</Alert>;
  return (
    <Box sx={{ display: "grid", gap: 5 }}>
      <ScheduleEditor expertId={expertId} schedule={schedule.data} />
      <ExpertTime expertId={expertId} schedule={schedule.data} />
      {/* The expert's own calendars (issue 32): connecting needs no zone; their times are shown in the schedule's. */}
      <CalendarsSection expertId={expertId} zone={schedule.data.timezone ?? browserZone()} />
    </Box>
  );
}

/** Time off, extra hours, buffers and notice: all on the expert's wall clock, so only once the weekly schedule names the zone. */
export function ExpertTime({ expertId, schedule }: { expertId: string; schedule: Schedule }) {
  const zone = schedule.timezone;
  if (!zone)
    return <Alert severity="info">Save your weekly availability first; then you can add time off, extra hours, buffers and notice.</Alert>;
  return (
    <Box sx={{ display: "grid", gap: 4, maxWidth: 760 }}>
      <Typography data-testid="expert-zone">
        Time off and extra hours are in your timezone: <strong>{zoneLabel(zone)}</strong>
      </Typography>
      <TimeOffSection expertId={expertId} zone={zone} timeOff={schedule.time_off ?? []} />
      <ExtraHoursSection expertId={expertId} zone={zone} overrides={schedule.date_overrides ?? []} />
      <BookingRulesSection expertId={expertId} rules={rulesOf(schedule)} />
    </Box>
  );
}

export function ScheduleEditor({ expertId, schedule }: { expertId: string; schedule: Schedule }) {
  const queryClient = useQueryClient();
  const [timezone, setTimezone] = useState(schedule.timezone ?? browserZone());
  const [slots, setSlots] = useState<WeeklySlot[]>(schedule.slots.length ? schedule.slots : [newSlot()]);
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);
  const errors = slotErrors(slots);
  const invalid = errors.some(Boolean) || !timezone;

  const update = (i: number, change: Partial<WeeklySlot>) => setSlots((all) => all.map((s, j) => (j === i ? { ...s, ...change } : s)));

  const save = async () => {
    setBusy(true);
    try {
      await api.post(`/experts/${expertId}/schedule`, { timezone, slots });
      setNotice({ kind: "success", text: "Schedule saved successfully!" });
      void queryClient.invalidateQueries({ queryKey: ["schedule", expertId] });
      void queryClient.invalidateQueries({ queryKey: ["availability"] });
    } catch (error) {
      setNotice({ kind: "error", text: error instanceof ApiError && error.status > 0 ? error.message : "Failed to save schedule" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: "grid", gap: 2, maxWidth: 760 }}>
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <TimezoneField value={timezone} onChange={setTimezone} label="Timezone" maxWidth={480} />
      <Typography variant="h6" component="h2">
        Weekly availability
      </Typography>
      {slots.map((slot, i) => (
        <Box
          component="fieldset"
          key={i}
          data-testid="schedule-slot"
          sx={{ border: 1, borderColor: errors[i] ? "error.main" : "divider", borderRadius: 2, p: 2, m: 0 }}
        >
          <legend className="visually-hidden">Slot {i + 1}</legend>
          <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1.3fr 1fr 1fr auto" }, alignItems: "start" }}>
            <TextField
              select
              label="Day"
              value={slot.weekday}
              onChange={(e) => update(i, { weekday: e.target.value as WeeklySlot["weekday"] })}
              slotProps={{ select: { native: true } }}
            >
              {WEEKDAY_OPTIONS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </TextField>
            <TimeSelect
              label="Start"
              value={slot.start_local}
              options={TIME_OPTIONS}
              onChange={(start_local) => update(i, { start_local })}
            />
            <TimeSelect
              label="End"
              value={slot.end_local}
              options={endOptions(slot.start_local)}
              onChange={(end_local) => update(i, { end_local })}
              error={errors[i] === END_BEFORE_START ? errors[i] : null}
            />
            {slots.length > 1 && (
              <Button
                color="error"
                onClick={() => setSlots((all) => all.filter((_, j) => j !== i))}
                aria-label={`Remove slot ${i + 1}`}
                sx={{ mt: 1 }}
              >
                Remove
              </Button>
            )}
            {/* Monday to Friday in one click, rather than a row and a day pick per weekday (issue 27.18). */}
            <Button
              onClick={() => setSlots((all) => copyToWeekdays(all, slot))}
              disabled={errors[i] === END_BEFORE_START}
              sx={{ gridColumn: { sm: "1 / -1" }, justifySelf: "start" }}
            >
              Copy to weekdays
            </Button>
          </Box>
          {errors[i] && errors[i] !== END_BEFORE_START && (
            <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
              {errors[i]}
            </Typography>
          )}
        </Box>
      ))}
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setSlots((all) => [...all, newSlot()])}>
          Add New Slot
        </Button>
        <Button variant="contained" onClick={save} disabled={invalid || busy}>
          Save all
        </Button>
      </Box>
    </Box>
  );
}
