import type { MailAttachment } from "./outbox.ts";
import type { BookingView, MailPerson } from "./templates/booking.ts";

/**
 * The calendar invite (.ics) a confirmed-booking mail carries to `to`. None yet: the calendar
 * issue fills this in, and every confirmed-booking mail queued from then on carries it.
 */
export function calendarInviteFor(_booking: BookingView, _to: MailPerson): MailAttachment[] {
  return [];
}
