import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { errorCatalogue, RESCHEDULE_NOTICE_HOURS } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { api } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { browserZone, shortDateTimeWithZone, zoneLabel } from "../shared/local-time.ts";
import { availabilityQuery, TimeChooser } from "../booking/time-step.tsx";
import { useBookingAction } from "./booking-action.ts";

type Movable = Pick<Booking, "id" | "status" | "paid" | "scheduled_time" | "session_id" | "reschedule_to">;

/** Rule (the calendar's, shown ahead): a paid booking not yet held at a proposed time, with no request to move it open, may be asked to move. */
export const mayAskToMove = (b: Movable) => b.paid && !b.reschedule_to && (b.status === "confirmed" || b.status === "pending" || b.status === "more_info_requested");

/** The catalogue's refusal when the start is nearer than the notice a move needs, or null. */
export function tooLateToMove(b: Pick<Booking, "scheduled_time">, now = Date.now()): string | null {
  return Date.parse(b.scheduled_time) - now < RESCHEDULE_NOTICE_HOURS * 3_600_000 ? errorCatalogue.reschedule_too_late.message.replace("{hours}", String(RESCHEDULE_NOTICE_HOURS)) : null;
}

/**
 * The creator's "Request a new time": the expert's bookable times (the booking wizard's), in the
 * creator's zone; the chosen one is sent for the expert to accept, and held meanwhile.
 */
export function RequestNewTime({ booking }: { booking: Movable }) {
  const zone = browserZone();
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [day, setDay] = useState<string | null>(null);
  const [time, setTime] = useState<string | null>(null);
  const availability = useQuery({ ...availabilityQuery(booking.session_id), enabled: open });
  const action = useBookingAction();

  const start = () => {
    const late = tooLateToMove(booking);
    setRefusal(late);
    setOpen(!late);
  };

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

  if (!open) {
    return (
      <Box sx={{ display: "grid", gap: 1 }}>
        <Box>
          <Button size="small" variant="outlined" onClick={start}>
            Request a new time
          </Button>
        </Box>
        {refusal && (
          <Alert severity="warning" role="alert">
            {refusal}
          </Alert>
        )}
      </Box>
    );
  }
  return (
    <Box component="section" aria-label="Request a new time" sx={{ display: "grid", gap: 2, borderTop: 1, borderColor: "divider", pt: 2 }}>
      <Typography component="h3" variant="h6">
        Request a new time
      </Typography>
      <Typography>
        Your session stays at <strong>{shortDateTimeWithZone(booking.scheduled_time, zone)}</strong> until your expert accepts the new time. Times are shown in your timezone: {zoneLabel(zone)}
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
          {time ? `Ask for ${shortDateTimeWithZone(time, zone)}` : "Ask for this time"}
        </Button>
        <Button onClick={close}>Keep the current time</Button>
      </Box>
    </Box>
  );
}
