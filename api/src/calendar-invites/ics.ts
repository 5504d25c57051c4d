import { localTime, zoneOrUtc } from "../mail/index.ts";

// iCalendar (RFC 5545) text for bookings: one event per booking, the same UID for its whole life,
// SEQUENCE rising with every change, so a calendar that imported it once updates or removes the
// same entry instead of adding another. Pure: the caller says what the booking looks like now.
//
// Titles and names are people's text: every character some parser takes for a line end is
// escaped (or, in a parameter, made a space), and other control characters are dropped, so no
// title can add a property or an event in the other party's calendar.

/** A party as the entry names them: the name only (an address is for invitations, see `Addressee`). */
export type InviteParty = { name: string };

/** Someone an invitation by mail names with an address: the product as organizer, the mail's reader as attendee. */
export type Addressee = { name: string; email: string };

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
  /** The expert's zone: the description gives the time in it; the times themselves are UTC. */
  expertTimezone: string | null;
  /** Where to join (the meeting link), or where the booking is seen in the product. */
  url: string | null;
  joinLink: string | null;
  /** When this version of the booking was recorded (DTSTAMP). */
  updatedAt: string;
};

export type CalendarMethod = "REQUEST" | "CANCEL" | "PUBLISH";

/**
 * PUBLISH: a download or a subscribed feed, naming nobody's address. REQUEST / CANCEL: an
 * invitation mailed to one party, or its withdrawal; iTIP needs an organizer and an attendee,
 * and they are the product's own address and the reader's, never the other party's.
 */
export type CalendarOptions = { host: string; name?: string; invites: readonly BookingInvite[] } & (
  | { method: "PUBLISH" }
  | { method: "REQUEST" | "CANCEL"; organizer: Addressee; attendee: Addressee }
  /** A calendar object stored on a CalDAV server (issue 32): RFC 4791 forbids a METHOD there. */
  | { method: null }
);

/** The host part of booking UIDs: a UID must be globally unique, so it names where it came from. */
export function inviteUid(bookingId: string, host: string): string {
  return `booking-${bookingId}@${host}`;
}

export function calendarText(options: CalendarOptions): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Expert Sessions//Bookings//EN", "CALSCALE:GREGORIAN"];
  if (options.method) lines.push(`METHOD:${options.method}`);
  if (options.name) lines.push(`X-WR-CALNAME:${escapeText(options.name)}`);
  for (const invite of options.invites) {
    lines.push(...eventLines(invite, options.host, options.method ?? "PUBLISH"));
    if (options.method === "REQUEST" || options.method === "CANCEL")
      lines.push(...addressLines(options.organizer, options.attendee, options.method));
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map((line) => fold(withoutLineBreaks(line))).join("\r\n") + "\r\n";
}

/** The event's lines up to (not including) END:VEVENT. */
function eventLines(b: BookingInvite, host: string, method: CalendarMethod): string[] {
  const cancelled = method === "CANCEL" || b.status === "cancelled";
  // A reader in another zone sees the UTC times in their own; the expert's local time is named for both.
  const when = b.expertTimezone
    ? `In the expert's zone: ${localTime(b.start, zoneOrUtc(b.expertTimezone))}.`
    : `At ${localTime(b.start, "UTC")}.`;
  const description = [
    `${b.title} with ${b.expert.name} (expert) and ${b.creator.name} (creator).`,
    when,
    b.joinLink ? `Join: ${b.joinLink}` : "The meeting link is shown in the booking 15 minutes before the start.",
    b.url ? `Booking: ${b.url}` : null,
  ]
    .filter((l): l is string => l !== null)
    .join("\n");
  const lines = [
    "BEGIN:VEVENT",
    `UID:${uriValue(inviteUid(b.bookingId, host))}`,
    `SEQUENCE:${Math.trunc(b.sequence)}`,
    `DTSTAMP:${utc(b.updatedAt)}`,
    `DTSTART:${utc(b.start)}`,
    `DTEND:${utc(b.end)}`,
    `SUMMARY:${escapeText(`${b.title}: ${b.expert.name} and ${b.creator.name}`)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `STATUS:${cancelled ? "CANCELLED" : b.status === "tentative" ? "TENTATIVE" : "CONFIRMED"}`,
  ];
  if (b.joinLink) lines.push(`LOCATION:${escapeText(b.joinLink)}`);
  if (b.url) lines.push(`URL:${uriValue(b.url)}`);
  if (b.expertTimezone) lines.push(`X-EXPERT-TIMEZONE:${escapeText(b.expertTimezone)}`);
  return lines;
}

function addressLines(organizer: Addressee, attendee: Addressee, method: "REQUEST" | "CANCEL"): string[] {
  return [
    `ORGANIZER;CN=${param(organizer.name)}:mailto:${uriValue(organizer.email)}`,
    `ATTENDEE;CN=${param(attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=${method === "CANCEL" ? "DECLINED" : "ACCEPTED"}:mailto:${uriValue(attendee.email)}`,
  ];
}

/** 20261201T090000Z */
function utc(instant: string): string {
  return new Date(instant)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/**
 * Every character a parser might end a line at: CRLF, CR, LF, VT, FF, the file/group/record
 * separators, NEL, and the Unicode line and paragraph separators (Python's splitlines() honours all).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/g;
/** The other control characters (C0 but tab, DEL, C1): RFC 5545 allows none in a value. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const CONTROL = /[\x00-\x08\x0e-\x1b\x1f\x7f-\x9f]/g;

/** TEXT values escape backslash, semicolon, comma and every line break (RFC 5545 3.3.11). */
function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(LINE_BREAK, "\\n").replace(CONTROL, "");
}

/** A parameter value is quoted and may hold no double quote and no control character (RFC 5545 3.2). */
function param(value: string): string {
  return `"${value.replace(/"/g, "'").replace(LINE_BREAK, " ").replace(CONTROL, "").replace(/\t/g, " ")}"`;
}

/** A URI value (URL, mailto): anything that is not a plain URI character is percent-encoded. */
function uriValue(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
  return value.replace(/[\x00-\x20"<>\\^`{|}\x7f-\x9f\u2028\u2029]/g, (c) => encodeURIComponent(c));
}

/** The last guard: a content line never carries a line break of its own, whatever its value's type. */
function withoutLineBreaks(line: string): string {
  return line.replace(LINE_BREAK, " ").replace(CONTROL, "");
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
