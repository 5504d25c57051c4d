import { calendarText, type Addressee, type CalendarMethod } from "../calendar-invites/index.ts";
import type { MailAttachment } from "./outbox.ts";
import { bookingUrl, type BookingMailInput } from "./templates/booking.ts";

/** What the booking's change is to a calendar: an invitation (confirmed) or its withdrawal (cancelled). */
export type InviteChange = {
  method: Extract<CalendarMethod, "REQUEST" | "CANCEL">;
  /** The owing event's version in the calendar stream: later changes carry a higher SEQUENCE. */
  sequence: number;
  /** The owing event's time (DTSTAMP). */
  at: string;
};

const nameOf = (p: { firstName: string | null; lastName: string | null } | null, fallback: string) =>
  [p?.firstName, p?.lastName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(" ") || fallback;

/**
 * The invitation's organizer: the product, at a no-reply address of its own host. Neither party's
 * sign-in address goes to the other (the JSON replies keep them apart too); the product arranged
 * the booking, so a calendar's reply goes nowhere rather than to a person.
 */
export const inviteOrganizer = (publicUrl: string): Addressee => ({
  name: "Expert Sessions",
  email: `no-reply@${new URL(publicUrl).hostname}`,
});

/**
 * The calendar invite (.ics) a booking mail carries to its reader: the same UID as "Add to
 * calendar" and the feed (api/src/calendar-invites), so a calendar that has the entry updates or
 * removes it instead of adding another. The reader is its one attendee, by their own address.
 */
export function calendarInviteFor(i: BookingMailInput, change: InviteChange): MailAttachment[] {
  const expert = i.side === "expert" ? i.to : i.other;
  const creator = i.side === "creator" ? i.to : i.other;
  const start = i.booking.startsAt;
  const text = calendarText({
    method: change.method,
    host: new URL(i.publicUrl).host,
    organizer: inviteOrganizer(i.publicUrl),
    attendee: { name: nameOf(i.to, i.side === "expert" ? "Expert" : "Creator"), email: i.to.email },
    invites: [
      {
        bookingId: i.booking.bookingId,
        sequence: change.sequence,
        status: change.method === "CANCEL" ? "cancelled" : "confirmed",
        start,
        end: new Date(Date.parse(start) + i.booking.lengthMinutes * 60_000).toISOString(),
        title: i.booking.title,
        expert: { name: nameOf(expert, "Your expert") },
        creator: { name: nameOf(creator, "Creator") },
        // The expert's mails are in their schedule's zone (see the reactor's people table).
        expertTimezone: expert?.zone ?? null,
        url: bookingUrl(i.publicUrl, i.side, i.booking.bookingId),
        joinLink: i.meetingLink,
        updatedAt: change.at,
      },
    ],
  });
  return [
    {
      filename: change.method === "CANCEL" ? "cancelled.ics" : "invite.ics",
      contentType: `text/calendar; charset=utf-8; method=${change.method}`,
      content: text,
    },
  ];
}
