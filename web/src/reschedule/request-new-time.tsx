import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { movableUntil, moveRefusal, tooLateToMoveMessage } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { api } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { browserZone, localMoment, zoneLabel } from "../shared/local-time.ts";
import { availabilityQuery, TimeChooser } from "../book-session/time-step.tsx";
import { useBookingAction } from "./booking-action.ts";

type Movable = Pick<Booking, "id" | "status" | "paid" | "scheduled_time" | "session_id" | "reschedule_to" | "session" | "reschedule_hours">;

/**
 * Rule (the calendar's, from contracts): moving applies to this booking, whatever the time: paid,
 * on (a time the expert proposed included), with no request to move it open. Too near its start,
 * RequestNewTime says so instead of offering it.
 */
export const mayAskToMove = (b: Movable) => moveRefusal(b, Number.NEGATIVE_INFINITY) === null;

/**
 * The catalogue's refusal when the start is nearer than the notice a move needs, or null: the booking's own notice,
 * the terms it was made under (issue 31.4).
 */
export function tooLateToMove(b: Pick<Booking, "scheduled_time" | "reschedule_hours">, now = Date.now()): string | null {
  return now > movableUntil(b.scheduled_time, b.reschedule_hours) ? tooLateToMoveMessage(b.reschedule_hours) : null;
}

/**
 * The creator's "Request a new time": the expert's bookable times (the booking wizard's), in the
 * creator's zone; the chosen one is sent for the expert to accept, and held meanwhile. It answers
 * a time the expert proposed too. Inside the notice it is not offered, and says why (issue 27.11).
 */
export function RequestNewTime({ booking }: { booking: Movable }) {
  const zone = browserZone();
  const [open, setOpen] = useState(false);
  const [day, setDay] = useState<string | null>(null);
  const [time, setTime] = useState<string | null>(null);
  const availability = useQuery({ ...availabilityQuery(booking.session_id), enabled: open });
  const action = useBookingAction();

  const close = () => {
    setOpen(false);
    setDay(null);
    setTime(null);
    action.setFailure(null);
  };

  const ask = async () => {
    if (!time) return;
    const sent = await action.run(() => api.post<Booking>(`/bookings/${booking.id}/reschedule`, { scheduled_time: time }));
    if (sent) close();
    else {
      setTime(null);
      void availability.refetch();
    }
  };

  const late = tooLateToMove(booking);
  if (late) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="move-unavailable">
        {late}
      </Typography>
    );
  }
  if (!open) {
    return (
      <Box>
        <Button size="small" variant="outlined" onClick={() => setOpen(true)}>
          Request a new time
        </Button>
      </Box>
    );
  }
  const expert = booking.session.expertFirstName ?? "Your expert";
  return (
    <Box component="section" aria-label="Request a new time" sx={{ display: "grid", gap: 2, borderTop: 1, borderColor: "divider", pt: 2 }}>
      <Typography component="h3" variant="h6">
        Request a new time
      </Typography>
      <Typography>
        {booking.status === "time_proposed" ? (
          <>
            {expert} proposed <strong>{localMoment(booking.scheduled_time, zone)}</strong>. Ask for another of their times instead: it is
            held until they answer.
          </>
        ) : (
          <>
            Your session stays at <strong>{localMoment(booking.scheduled_time, zone)}</strong> until your expert accepts the new time.
          </>
        )}{" "}
        Times are shown in your timezone: {zoneLabel(zone)}
      </Typography>
      <TimeChooser
        availability={availability}
        zone={zone}
        day={day}
        time={time}
        onDay={(d) => {
          setDay(d);
          setTime(null);
        }}
        onTime={setTime}
        label="Choose the new date"
      />
      {action.failure && (
        <Alert severity="error" role="alert">
          {action.failure}
        </Alert>
      )}
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        <Button variant="contained" onClick={() => void ask()} disabled={!time || action.busy}>
          {time ? `Ask for ${localMoment(time, zone)}` : "Ask for this time"}
        </Button>
        <Button onClick={close}>Keep the current time</Button>
      </Box>
    </Box>
  );
}
