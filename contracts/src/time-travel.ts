import { z } from "zod";
import { BookingStatus, SessionNotes } from "./calendar.ts";
import { SESSION_LENGTHS_MINUTES } from "./constants.ts";
import { TimelineEntry } from "./replies.ts";

// The console's time travel: a booking as it was after any event of its history, and an expert's
// calendar as it stood at an instant, both folded from the calendar stream by the engine (never a
// read model). Admins only.

const Time = z.string();

/** An instant in a query: ISO 8601 with an offset, answered back in UTC. */
const QueryInstant = z
  .string({ error: "invalid_request" })
  .max(40, { error: "invalid_request" })
  .pipe(z.iso.datetime({ offset: true, error: "invalid_request" }))
  .transform((s) => new Date(s).toISOString());

/**
 * GET /admin/bookings/{id}/as-of: exactly one of an event of the booking's history, by its log
 * position as the timeline shows it (`commit:prepare`) or its id, or an instant (the booking as of
 * its last event recorded at or before it).
 */
export const BookingAsOfQuery = z
  .strictObject({
    position: z
      .string({ error: "invalid_request" })
      .regex(/^\d{1,20}:\d{1,20}$/, { error: "invalid_request" })
      .optional(),
    event_id: z.string({ error: "invalid_request" }).min(1, { error: "invalid_request" }).max(255, { error: "invalid_request" }).optional(),
    at: QueryInstant.optional(),
  })
  .refine((q) => [q.position, q.event_id, q.at].filter((v) => v !== undefined).length === 1, { error: "as_of_point_required" });
export type BookingAsOfQuery = z.infer<typeof BookingAsOfQuery>;

/** A booking as of one moment: the calendar's own state of it, what the console reads besides, and whether it held its time then. */
export const BookingAsOfState = z.strictObject({
  booking_id: z.string(),
  status: BookingStatus,
  creator_id: z.string(),
  expert_user_id: z.string(),
  session_id: z.string(),
  session_title: z.string(),
  scheduled_time: Time,
  /** The time it had before the expert proposed another or it moved; null when it never did. */
  previous_time: Time.nullable(),
  length_minutes: z.number(),
  price_cents: z.number(),
  held_until: Time,
  /** It kept its time from other bookings at that moment (an unpaid hold stops at held_until). */
  holds_time: z.boolean(),
  /** The time the creator asked to move it to, until answered; null when none was asked. */
  reschedule_to: Time.nullable(),
  reschedule_requested_at: Time.nullable(),
  /** The time that request held at that moment (null once it lapsed or when none). */
  reschedule_held: Time.nullable(),
  join_link: z.string().nullable(),
  /** Every cent received (never lowered by a refund). */
  paid_cents: z.number(),
  payment_ids: z.array(z.string()),
  payment_failures: z.array(z.strictObject({ payment_id: z.string(), reason: z.string() })),
  /** Owed back, whether or not paid back yet. */
  owed_cents: z.number(),
  refunded_cents: z.number(),
  /** The owing events whose refund reached the creator. */
  refund_keys: z.array(z.string()),
  refund_failures: z.array(z.strictObject({ refund_key: z.string(), reason: z.string() })),
  prep_questions: z.array(z.string()),
  prep_answers: z.array(z.string()).nullable(),
  info_request_note: z.string().nullable(),
  has_notes: z.boolean(),
  notes: SessionNotes.nullable(),
  cancelled_by: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  confirmed_at: Time.nullable(),
  cancelled_at: Time.nullable(),
});
export type BookingAsOfState = z.infer<typeof BookingAsOfState>;

/** One field an event changed: its value just before and just after (null: none). */
export const FieldChange = z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type FieldChange = z.infer<typeof FieldChange>;

export const BookingAsOfReply = z.strictObject({
  booking_id: z.string(),
  expert_id: z.string(),
  /** The instant asked for, when the point was an instant; null otherwise. */
  at: Time.nullable(),
  /** The event the booking is shown after. */
  event: TimelineEntry,
  /** Its place in the booking's history (1 = the request) and the history's length. */
  step: z.number(),
  steps: z.number(),
  /** The booking's events either side, to step through its history; null at either end. */
  previous_event_id: z.string().nullable(),
  next_event_id: z.string().nullable(),
  booking: BookingAsOfState,
  /** Just before the event (null for the request). */
  before: BookingAsOfState.nullable(),
  changes: z.array(FieldChange),
});
export type BookingAsOfReply = z.infer<typeof BookingAsOfReply>;

/**
 * GET /admin/experts/{id}/calendar/as-of: the calendar as it stood at `at`, for one local date in
 * the expert's timezone (default: the date of `at` there) and a session length (default 60).
 */
export const CalendarAsOfQuery = z.strictObject({
  at: QueryInstant,
  date: z.iso.date({ error: "invalid_request" }).optional(),
  length_minutes: z
    .enum(SESSION_LENGTHS_MINUTES.map(String) as [string, ...string[]], { error: "invalid_request" })
    .transform(Number)
    .optional(),
});
export type CalendarAsOfQuery = z.infer<typeof CalendarAsOfQuery>;

/** A time a booking held at that instant, with the expert's buffers kept free either side. */
export const HeldTimeReply = z.strictObject({
  booking_id: z.string(),
  creator_id: z.string(),
  status: BookingStatus,
  /** "booking": its own time; "reschedule": the new time an open request to move it held beside it. */
  holds: z.enum(["booking", "reschedule"]),
  start: Time,
  end: Time,
  length_minutes: z.number(),
  buffer_before_minutes: z.number(),
  buffer_after_minutes: z.number(),
});
export type HeldTimeReply = z.infer<typeof HeldTimeReply>;

export const CalendarAsOfReply = z.strictObject({
  expert_id: z.string(),
  at: Time,
  /** The local date shown, in the expert's timezone. */
  date: z.string(),
  /** Null while the expert had no schedule yet (nothing was bookable). */
  timezone: z.string().nullable(),
  length_minutes: z.number(),
  /** The last event folded: the calendar is as it stood after it; null when none was recorded by then. */
  last_event: z.strictObject({ event_id: z.string(), type: z.string(), version: z.number(), position: z.string(), time: Time }).nullable(),
  events_folded: z.number(),
  rules: z.strictObject({ buffer_before_minutes: z.number(), buffer_after_minutes: z.number(), min_notice_hours: z.number() }),
  /** Time off touching the date, on the expert's wall clock (YYYY-MM-DDTHH:mm). */
  time_off: z.array(z.strictObject({ time_off_id: z.string(), start: z.string(), end: z.string(), reason: z.string() })),
  /** Busy times of the expert's connected calendars that touched the date, as the decision saw them (issue 32). */
  external_busy: z.array(z.strictObject({ calendar_id: z.string(), start: z.string(), end: z.string() })),
  /** Starts a session of length_minutes could be booked at then, on that date (UTC instants, earliest first). */
  bookable: z.array(Time),
  held: z.array(HeldTimeReply),
});
export type CalendarAsOfReply = z.infer<typeof CalendarAsOfReply>;

/** GET /admin/applications/{id}/as-of: an expert's application as it stood at an instant (issue 30), its history up to then. */
export const ApplicationAsOfQuery = z.strictObject({ at: QueryInstant });
export type ApplicationAsOfQuery = z.infer<typeof ApplicationAsOfQuery>;
