import { z } from "zod";
import { Id } from "./primitives.ts";

// The expert's own calendars (issue 32): a secret iCal address or a CalDAV account. The server reads
// their busy times every EXTERNAL_CALENDAR_SYNC_MINUTES and records them on the expert's calendar
// stream (`ExternalBusyTimesSynced`), so every booking rule sees them; titles are never kept, only
// start, end and the calendar they came from. A CalDAV calendar the expert chooses receives each
// confirmed booking. Credentials and secret addresses are stored encrypted and never returned.

/** How often a connected calendar is read again. */
export const EXTERNAL_CALENDAR_SYNC_MINUTES = 5;
/** The longest wait between reads after repeated failures (back-off doubles from the sync interval). */
export const EXTERNAL_CALENDAR_MAX_BACKOFF_MINUTES = 6 * 60;
/** Connections an expert may have at once. */
export const MAX_CALENDAR_CONNECTIONS = 10;
/** Busy times kept per calendar for the booking window; a calendar with more is refused with a message. */
export const MAX_BUSY_TIMES_PER_CALENDAR = 5_000;
/** The most a calendar file or CalDAV reply may weigh. */
export const CALENDAR_FETCH_MAX_BYTES = 5 * 1024 * 1024;
/** The longest a calendar read may take, from connecting to the last byte. */
export const CALENDAR_FETCH_TIMEOUT_MS = 10_000;

/** A busy time of an external calendar: instants (UTC ISO), end exclusive. */
export const BusyInterval = z.strictObject({ start: z.string(), end: z.string() });
export type BusyInterval = z.infer<typeof BusyInterval>;

// ---- API ------------------------------------------------------------------------------------

const CalendarAddress = z
  .string({ error: "calendar_url_invalid" })
  .trim()
  .max(2_000, { error: "calendar_url_invalid" })
  // Apple and Google hand out webcal:// links: the same address over https.
  .transform((s) => s.replace(/^webcals?:\/\//i, "https://"))
  .pipe(z.url({ error: "calendar_url_invalid" }));
const AllDayBlocks = z.boolean({ error: "invalid_request" }).default(false);

/** POST /experts/{expertId}/calendars: a secret iCal address, or a CalDAV server with a user name and app password. */
export const ConnectCalendarBody = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("ics"), url: CalendarAddress, all_day_blocks: AllDayBlocks }),
    z.strictObject({
      kind: z.literal("caldav"),
      server_url: CalendarAddress,
      username: z.string({ error: "caldav_credentials_required" }).trim().min(1, { error: "caldav_credentials_required" }).max(320),
      password: z.string({ error: "caldav_credentials_required" }).min(1, { error: "caldav_credentials_required" }).max(1_000),
      all_day_blocks: AllDayBlocks,
    }),
  ],
  { error: "calendar_kind_invalid" },
);
export type ConnectCalendarBody = z.infer<typeof ConnectCalendarBody>;

/** PATCH /experts/{expertId}/calendars/{connectionId}: which calendars block, which one receives bookings, whether all-day events block. */
export const UpdateCalendarConnectionBody = z.strictObject({
  all_day_blocks: z.boolean({ error: "invalid_request" }).optional(),
  blocking_calendar_ids: z.array(Id).max(100).optional(),
  /** A CalDAV calendar of this connection, or null for none. */
  bookings_calendar_id: Id.nullable().optional(),
});
export type UpdateCalendarConnectionBody = z.infer<typeof UpdateCalendarConnectionBody>;

export const CalendarConnectionParams = z.strictObject({ expertId: Id, connectionId: Id });

export const ExternalCalendarReply = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** Its busy times block bookings. */
  blocks: z.boolean(),
  /** Confirmed bookings are written into it (CalDAV only). */
  receives_bookings: z.boolean(),
  /** Busy times in the booking window as last read. */
  busy_count: z.number(),
});
export type ExternalCalendarReply = z.infer<typeof ExternalCalendarReply>;

/** A connection as the expert sees it: never the secret address or the password. */
export const CalendarConnectionReply = z.strictObject({
  id: z.string(),
  kind: z.enum(["ics", "caldav"]),
  /** Where it reads from, without secrets: the host of an iCal address, or user@host of a CalDAV account. */
  label: z.string(),
  all_day_blocks: z.boolean(),
  created_at: z.string(),
  last_synced_at: z.string().nullable(),
  /** The last read's failure, in words; null after a good read. */
  last_error: z.string().nullable(),
  next_sync_at: z.string().nullable(),
  calendars: z.array(ExternalCalendarReply),
});
export type CalendarConnectionReply = z.infer<typeof CalendarConnectionReply>;

/** A booking that still holds its time inside an external busy time: the expert's to move or cancel (never dropped). */
export const BookingInExternalBusyReply = z.strictObject({
  booking_id: z.string(),
  status: z.string(),
  scheduled_time: z.string(),
  length_minutes: z.number(),
  session_title: z.string(),
  creator_id: z.string(),
  /** The connected calendars it clashes with. */
  calendar_ids: z.array(z.string()),
});
export type BookingInExternalBusyReply = z.infer<typeof BookingInExternalBusyReply>;

/** GET /experts/{expertId}/calendars. */
export const CalendarConnectionsReply = z.strictObject({
  connections: z.array(CalendarConnectionReply),
  affected_bookings: z.array(BookingInExternalBusyReply),
});
export type CalendarConnectionsReply = z.infer<typeof CalendarConnectionsReply>;
