import { useMemo, type Dispatch, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { BOOKING_WINDOW_DAYS, type ProposableTimesReply } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { clockTime, localMoment, longDate, zoneLabel } from "../shared/local-time.ts";
import { MonthCalendar } from "../shared/month-calendar.tsx";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import type { ManageAction, ManageState } from "./manage-steps.ts";

/**
 * The times the expert may propose on one day (in their zone): their bookable times, as the creator's
 * picker offers them, which the engine's ProposeTime decision checks by the same rule (issue 27.12).
 */
export const proposableTimesQuery = (bookingId: string, day: string) => ({
  queryKey: [...BOOKINGS_KEY, "proposable-times", bookingId, day],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get<ProposableTimesReply>(`/bookings/${bookingId}/proposable-times?date=${day}`, { signal }),
  staleTime: 0,
  retry: false,
});

/** The expert proposes another time for the creator to accept. */
type ProposeProps = {
  booking: Booking;
  zone: string;
  state: ManageState;
  dispatch: Dispatch<ManageAction>;
  failure: ReactNode;
  onPropose: () => void;
};

export function ProposeTimeStep(props: ProposeProps) {
  const { booking, zone, state, dispatch } = props;
  const { day, time } = state;
  const today = DateTime.now().setZone(zone).toISODate()!;
  const lastDay = DateTime.now().setZone(zone).plus({ days: BOOKING_WINDOW_DAYS }).toISODate()!;
  const proposable = useQuery(proposableTimesQuery(booking.id, day));
  // The booking's own time is bookable for it, but proposing it would change nothing.
  const times = useMemo(
    () => (proposable.data?.times ?? []).filter((t) => Date.parse(t) !== Date.parse(booking.scheduled_time)),
    [booking, proposable.data],
  );
  return (
    <Box>
      <Typography variant="h4" component="h1" gutterBottom>
        Propose another time
      </Typography>
      <Typography sx={{ mb: 1 }}>
        {booking.creator_name ?? "The creator"} asked for <strong>{localMoment(booking.scheduled_time, zone)}</strong>. Choose one of your
        free times for them to accept instead.
      </Typography>
      <Typography sx={{ mb: 2 }}>Times are shown in your timezone: {zoneLabel(zone)}</Typography>
      <Box sx={{ display: "grid", gap: 4, gridTemplateColumns: { xs: "1fr", md: "380px 1fr" } }}>
        <MonthCalendar
          today={today}
          lastDay={lastDay}
          selected={day}
          onSelect={(d) => dispatch({ type: "day", day: d })}
          isSelectable={(d) => d >= today && d <= lastDay}
          label="Choose the session date"
        />
        <Box>
          <Typography component="h2" sx={{ fontWeight: 700, mb: 1 }}>
            {longDate(`${day}T12:00:00`, zone)}
          </Typography>
          {proposable.isError && (
            <Alert severity="error" sx={{ mb: 1 }}>
              Error loading times: {errorMessage(proposable.error)}
            </Alert>
          )}
          {proposable.isPending ? (
            <Typography role="status">Loading times…</Typography>
          ) : times.length === 0 ? (
            <Typography>No free times on this day.</Typography>
          ) : (
            <Box
              role="group"
              aria-label="Times"
              sx={{ display: "grid", gap: 1, gridTemplateColumns: "repeat(auto-fill, minmax(120px, 1fr))" }}
            >
              {times.map((t) => (
                <Button
                  key={t}
                  variant={time === t ? "contained" : "outlined"}
                  aria-pressed={time === t}
                  data-time={t}
                  onClick={() => dispatch({ type: "time", time: t })}
                >
                  {clockTime(t, zone)}
                </Button>
              ))}
            </Box>
          )}
        </Box>
      </Box>
      {time && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {localMoment(time, zone)} will be sent to {booking.creator_name ?? "the creator"} as a proposal to accept.
        </Alert>
      )}
      {props.failure}
      <Box sx={{ display: "flex", gap: 2, mt: 3, alignItems: "center", flexWrap: "wrap" }}>
        <Button variant="contained" size="large" onClick={props.onPropose} disabled={state.busy || !time}>
          Propose this time
        </Button>
        <Button onClick={() => dispatch({ type: "go", step: "detail" })}>Back</Button>
      </Box>
    </Box>
  );
}
