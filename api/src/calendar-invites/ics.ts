// iCalendar (RFC 5545) text for bookings: one event per booking, the same UID for its whole life,
// SEQUENCE rising with every change, so a calendar that imported it once updates or removes the
// same entry instead of adding another. Pure: the caller says what the booking looks like now.

export type InviteParty = { name: string; email: string | null };

export type BookingInvite = {
  bookingId: string;
  /** Rises with every change of the booking (the calendar stream version of its latest event). */
  sequence: number;
  status: "confirmed" | "cancelled" | "tentative";
  /** UTC instants (ISO 8601). */
  start: string;
  end: string;
  title: string;
  expert: InviteParty;
  creator: InviteParty;
  /** The expert's zone: named for the reader; the times themselves are UTC. */
  expertTimezone: string | null;
  /** Where to join (the meeting link), or where the booking is seen in the product. */
  url: string | null;
  joinLink: string | null;
  /** When this version of the booking was recorded (DTSTAMP). */
  updatedAt: string;
};

export type CalendarMethod = "REQUEST" | "CANCEL" | "PUBLISH";

/** The host part of booking UIDs: a UID must be globally unique, so it names where it came from. */
export function inviteUid(bookingId: string, host: string): string {
  return `booking-${bookingId}@${host}`;
}

/** A calendar of `invites`: METHOD REQUEST (an invitation), CANCEL (withdrawn) or PUBLISH (a subscribed feed). */
export function calendarText(options: { method: CalendarMethod; host: string; name?: string; invites: readonly BookingInvite[] }): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Expert Sessions//Bookings//EN", "CALSCALE:GREGORIAN", `METHOD:${options.method}`];
  if (options.name) lines.push(`X-WR-CALNAME:${escapeText(options.name)}`);
  for (const invite of options.invites) lines.push(...eventLines(invite, options.host, options.method));
  lines.push("END:VCALENDAR");
  return lines.map(fold).join("\r\n") + "\r\n";
}

function eventLines(b: BookingInvite, host: string, method: CalendarMethod): string[] {
  const cancelled = method === "CANCEL" || b.status === "cancelled";
  const zone = b.expertTimezone ? ` (times in the expert's zone: ${b.expertTimezone})` : "";
  const description = [
    `${b.title} with ${b.expert.name} (expert) and ${b.creator.name} (creator)${zone}.`,
    b.joinLink ? `Join: ${b.joinLink}` : "The meeting link is shown in the booking 15 minutes before the start.",
    b.url ? `Booking: ${b.url}` : null,
  ]
    .filter((l): l is string => l !== null)
    .join("\n");
  const lines = [
    "BEGIN:VEVENT",
    `UID:${inviteUid(b.bookingId, host)}`,
    `SEQUENCE:${b.sequence}`,
    `DTSTAMP:${utc(b.updatedAt)}`,
    `DTSTART:${utc(b.start)}`,
    `DTEND:${utc(b.end)}`,
    `SUMMARY:${escapeText(`${b.title}: ${b.expert.name} and ${b.creator.name}`)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `STATUS:${cancelled ? "CANCELLED" : b.status === "tentative" ? "TENTATIVE" : "CONFIRMED"}`,
  ];
  if (b.joinLink) lines.push(`LOCATION:${escapeText(b.joinLink)}`);
  if (b.url) lines.push(`URL:${b.url}`);
  if (b.expertTimezone) lines.push(`X-EXPERT-TIMEZONE:${escapeText(b.expertTimezone)}`);
  if (b.expert.email) lines.push(`ORGANIZER;CN=${param(b.expert.name)}:mailto:${b.expert.email}`);
  if (b.creator.email) lines.push(`ATTENDEE;CN=${param(b.creator.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=${cancelled ? "DECLINED" : "ACCEPTED"}:mailto:${b.creator.email}`);
  lines.push("END:VEVENT");
  return lines;
}

/** 20261201T090000Z */
function utc(instant: string): string {
  return new Date(instant).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 3.3.11). */
function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** A parameter value is quoted, and may not hold a double quote (RFC 5545 3.2). */
function param(value: string): string {
  return `"${value.replace(/"/g, "'").replace(/[\r\n]/g, " ")}"`;
}

/** Lines longer than 75 octets are folded: CRLF and a space, never splitting a UTF-8 character. */
function fold(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    // The first line holds 75 octets; continuation lines 74 after their leading space.
    if (size + n > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join("\r\n ");
}
