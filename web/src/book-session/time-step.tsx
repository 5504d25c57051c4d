import { useMemo, useState } from "react";
import { useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { BOOKING_WINDOW_DAYS } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { Theme } from "@mui/material/styles";
import { api, ApiError, errorMessage } from "../shared/api-client.ts";
import type { Availability, Booking, Session } from "../shared/api-types.ts";
import { browserZone, clockTime, dayOf, longDate, localMoment, zoneLabel } from "../shared/local-time.ts";
import { MonthCalendar } from "../shared/month-calendar.tsx";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { releaseHold } from "./hold-panel.tsx";

export const availabilityQuery = (sessionId: string) => ({
  queryKey: ["availability", sessionId],
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Availability>(`/sessions/${sessionId}/availability`, { signal }),
  staleTime: 0,
});

/** Bookable starts grouped by the calendar day they fall on in `zone`. */
export function timesByDay(times: string[], zone: string): Map<string, string[]> {
  const days = new Map<string, string[]>();
  for (const t of times) {
    const day = dayOf(t, zone);
    days.set(day, [...(days.get(day) ?? []), t]);
  }
  return days;
}

type TimeStepProps = {
  session: Session;
  preview: boolean;
  onBooked: (booking: Booking) => void;
  /** The unpaid booking this flow already holds a time with, when the creator came back from payment. */
  held?: Booking | null;
  /** The held booking was cancelled: its time is free again. */
  onReleased?: () => void;
  /** Back to paying for the held time. */
  onKeep?: () => void;
};

/**
 * Select Time: a Monday-first month (dates from today to 28 days ahead) and the bookable times of
 * the chosen day, shown in the creator's own timezone. Continue creates the booking, which holds the time.
 * With a time already held, Continue first cancels that booking, so one creator never holds two times.
 */
export function TimeStep({ session, preview, onBooked, held = null, onReleased, onKeep }: TimeStepProps) {
  const zone = browserZone();
  const queryClient = useQueryClient();
  const availability = useQuery(availabilityQuery(session.id));
  const [day, setDay] = useState<string | null>(null);
  const [time, setTime] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const book = async () => {
    setMessage(null);
    if (!day || !time) {
      setMessage("Please choose a date and time.");
      return;
    }
    setBusy(true);
    if (held) {
      const failed = await releaseHold(held.id);
      if (failed) {
        setMessage(failed);
        setBusy(false);
        return;
      }
      onReleased?.();
    }
    try {
      const reply = await api.post<{ booking: Booking }>("/bookings", { session_id: session.id, scheduled_time: time });
      void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
      onBooked(reply.booking);
    } catch (error) {
      if (error instanceof ApiError && error.code === "slot_unavailable") {
        setTime(null);
        void availability.refetch();
      }
      setMessage(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <Box>
      <Typography variant="h5" component="h2" gutterBottom>
        Select a time
      </Typography>
      {held && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            onKeep && (
              <Button color="inherit" size="small" onClick={onKeep}>
                Keep this time
              </Button>
            )
          }
        >
          You are holding {localMoment(held.scheduled_time)}. Choosing another time releases it.
        </Alert>
      )}
      <Typography sx={{ mb: 2 }} data-testid="creator-zone">
        Times are shown in your timezone: <strong>{zoneLabel(zone)}</strong>
      </Typography>
      <TimeChooser
        availability={availability}
        zone={zone}
        day={day}
        time={time}
        onDay={(d) => {
          setDay(d);
          setTime(null);
          setMessage(null);
        }}
        onTime={setTime}
      />
      {message && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {message}
        </Alert>
      )}
      <Box sx={{ mt: 3 }}>
        <Button variant="contained" size="large" onClick={book} disabled={busy || preview}>
          Continue
        </Button>
      </Box>
    </Box>
  );
}

/** A keyboard user sees which time has focus: MUI's focus ripple alone is faint on an outlined button (issue 27.21). */
const slotFocus = (theme: Theme) => ({ "&:focus-visible": { outline: `3px solid ${theme.palette.primary.dark}`, outlineOffset: "2px" } });

/**
 * The session's bookable times as a Monday-first month (today to BOOKING_WINDOW_DAYS ahead, only
 * days with a time selectable) and the chosen day's times, all in `zone`: the wizard's Select Time,
 * and the creator's new time for a booking.
 */
export function TimeChooser(props: {
  availability: UseQueryResult<Availability>;
  zone: string;
  day: string | null;
  time: string | null;
  onDay: (day: string) => void;
  onTime: (time: string) => void;
  label?: string;
}) {
  const { availability } = props;
  if (availability.isPending) return <Typography role="status">Loading available times...</Typography>;
  if (availability.isError) return <Alert severity="error">{errorMessage(availability.error)}</Alert>;
  return <DaysAndTimes {...props} times={availability.data.times} />;
}

function DaysAndTimes({
  times,
  zone,
  day,
  time,
  onDay,
  onTime,
  label,
}: {
  times: string[];
  zone: string;
  day: string | null;
  time: string | null;
  onDay: (day: string) => void;
  onTime: (time: string) => void;
  label?: string;
}) {
  const today = DateTime.now().setZone(zone).toISODate()!;
  const lastDay = DateTime.now().setZone(zone).plus({ days: BOOKING_WINDOW_DAYS }).toISODate()!;
  const byDay = useMemo(() => timesByDay(times, zone), [times, zone]);
  const dayTimes = day ? (byDay.get(day) ?? []) : [];
  return (
    <Box sx={{ display: "grid", gap: 4, gridTemplateColumns: { xs: "1fr", md: "380px 1fr" } }}>
      <MonthCalendar
        today={today}
        lastDay={lastDay}
        selected={day}
        label={label}
        onSelect={onDay}
        isSelectable={(d) => d >= today && d <= lastDay && byDay.has(d)}
      />
      <Box>
        {!day ? (
          <Typography>
            {byDay.size ? "Choose a date to see the available times." : "No times are available in the next 28 days."}
          </Typography>
        ) : (
          <>
            <Typography component="h3" sx={{ fontWeight: 700, mb: 1 }}>
              {longDate(`${day}T12:00:00`, zone)}
            </Typography>
            <Box
              role="group"
              aria-label="Available times"
              sx={{ display: "grid", gap: 1, gridTemplateColumns: "repeat(auto-fill, minmax(110px, 1fr))" }}
            >
              {dayTimes.map((t) => (
                <Button
                  key={t}
                  variant={time === t ? "contained" : "outlined"}
                  aria-pressed={time === t}
                  data-time={t}
                  onClick={() => onTime(t)}
                  sx={slotFocus}
                >
                  {clockTime(t, zone)}
                </Button>
              ))}
            </Box>
          </>
        )}
      </Box>
    </Box>
  );
}
