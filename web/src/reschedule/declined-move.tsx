import Alert from "@mui/material/Alert";
import type { Booking } from "../shared/api-types.ts";
import { browserZone, localMoment } from "../shared/local-time.ts";

type Declined = Pick<
  Booking,
  "status" | "scheduled_time" | "reschedule_to" | "reschedule_declined_to" | "reschedule_decline_reason" | "session"
>;

/**
 * The creator's last request to move a booking that is still on, which the expert declined: the
 * time asked for, the expert's reason if they gave one, and where the booking stays. The decline
 * mail says the same; nothing once another request is open or the booking has ended.
 */
export function DeclinedMove({ booking, zone = browserZone() }: { booking: Declined; zone?: string }) {
  const on = booking.status === "pending" || booking.status === "confirmed";
  if (!on || booking.reschedule_to || !booking.reschedule_declined_to) return null;
  const who = booking.session.expertFirstName ?? "Your expert";
  const why = booking.reschedule_decline_reason ? `: ${booking.reschedule_decline_reason}` : ".";
  return (
    <Alert severity="info" data-testid="declined-move">
      {who} declined your request to move this session to {localMoment(booking.reschedule_declined_to, zone)}
      {why} It stays at {localMoment(booking.scheduled_time, zone)}.
    </Alert>
  );
}
