import { z } from "zod";
import { Currency } from "./money.ts";
import { WeeklySlot } from "./schedule.ts";
import { SessionStatus } from "./session.ts";
import { APPLICATION_STATUSES } from "./vetting.ts";

// Replies about the catalogue, declared once (see replies.ts for the pattern): the experts,
// sessions and schedules read models' rows, the listing, profiles, sessions, schedules and
// availability the web app shows, and the console's expert and session records. Strict objects,
// on purpose: a field a reply adds without its schema fails the reply instead of going out.

/** An instant as a read model returns it (ISO 8601). */
const Time = z.string();

/** A slot as replies carry it: exactly its weekday and local times. */
const SlotReply = WeeklySlot.strict();

/** One row of the `experts` read model (projections' ExpertRow is inferred from here). */
export const ExpertRecord = z.strictObject({
  expert_id: z.string(),
  user_id: z.string(),
  slug: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  title: z.string(),
  bio: z.string().nullable(),
  tags: z.array(z.string()),
  profile_image: z.string().nullable(),
  published: z.boolean(),
  /** Approved by our team and not suspended: the check mark, and bookable (issue 30). */
  verified: z.boolean(),
  /** The admin who made the latest vetting decision. */
  vetted_by: z.string().nullable(),
  /** Where the expert's application stands (issue 30). */
  vetting_status: z.enum(APPLICATION_STATUSES),
  /** The application's revision: a review step names the one the admin had open. */
  vetting_revision: z.number(),
  /** The last decision's reason. */
  vetting_reason: z.string().nullable(),
  /** When the application waiting for a decision was submitted (the queue's order). */
  applied_at: Time.nullable(),
  updated_at: Time,
  stream_version: z.number(),
});
export type ExpertRecord = z.infer<typeof ExpertRecord>;

/** One row of the `sessions` read model, deleted sessions included. */
export const SessionRecord = z.strictObject({
  session_id: z.string(),
  expert_id: z.string(),
  title: z.string(),
  description: z.string(),
  price_cents: z.number(),
  length_minutes: z.number(),
  prep_questions: z.array(z.string()),
  session_details: z.string(),
  ideal_for: z.array(z.string()),
  /** Accepted on payment (issue 27.6). */
  instant_booking: z.boolean(),
  /** The price's currency (issue 29.8). */
  currency: Currency,
  /** Cut-offs (issue 31.4): a creator's cancellation is refunded in full until, and a move may be asked until, this many hours before the start. */
  full_refund_hours: z.number(),
  reschedule_hours: z.number(),
  status: SessionStatus,
  deleted: z.boolean(),
  created_at: Time,
  updated_at: Time,
  stream_version: z.number(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

/** A period of time off: local date-times in the expert's zone (`YYYY-MM-DDTHH:mm`, end exclusive) and its label. */
export const TimeOffReply = z.strictObject({
  id: z.string(),
  start: z.string(),
  end: z.string(),
  reason: z.string(),
  /** Midnight to midnight: whole days, the last one being the day before `end`. */
  whole_days: z.boolean(),
});
export type TimeOffReply = z.infer<typeof TimeOffReply>;

/** Extra hours on one local date, besides that weekday's slots. */
export const DateOverrideReply = z.strictObject({ id: z.string(), date: z.string(), start_local: z.string(), end_local: z.string() });
export type DateOverrideReply = z.infer<typeof DateOverrideReply>;

/** Buffers kept free before and after each session, and how long ahead a session must be booked. */
export const BookingRulesReply = z.strictObject({
  buffer_before_minutes: z.number(),
  buffer_after_minutes: z.number(),
  min_notice_hours: z.number(),
});
export type BookingRulesReply = z.infer<typeof BookingRulesReply>;

/** One row of the `schedules` read model: an expert's weekly schedule as last set, their time off, extra hours and booking rules. */
export const ScheduleRecord = z.strictObject({
  expert_id: z.string(),
  timezone: z.string(),
  slots: z.array(SlotReply),
  /** In the order added; removed ones are gone. */
  time_off: z.array(TimeOffReply),
  date_overrides: z.array(DateOverrideReply),
  ...BookingRulesReply.shape,
  /** Busy times of the expert's connected calendars by calendar (issue 32): the listing's next opening keeps clear of them; never in a reply. */
  external_busy: z.record(z.string(), z.array(z.strictObject({ start: z.string(), end: z.string() }))),
  updated_at: Time,
  stream_version: z.number(),
});
export type ScheduleRecord = z.infer<typeof ScheduleRecord>;

/** A card of the experts listing and search (spec section 3: whole-dollar starting price; the rating is the average of the visible reviews, null with none). */
export const ExpertListItem = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  slug: z.string(),
  name: z.string(),
  role: z.string(),
  startingprice: z.number().nullable(),
  /**
   * The lowest price of the expert's published sessions, exactly, in the currency most of them are
   * priced in (prices in different currencies are never compared); null: no published session.
   * `startingprice` is the same rounded to whole units, as the spec gives it.
   */
  starting_price_cents: z.number().int().nullable(),
  starting_price_currency: Currency.nullable(),
  rating: z.number().nullable(),
  /** How many visible reviews the rating averages. */
  review_count: z.number(),
  image: z.string().nullable(),
  verified: z.boolean(),
  /** The earliest start a creator can book with this expert now (any of their published session lengths); null: none in the booking window. */
  next_available: Time.nullable(),
  /** Half of the expert's answered paid requests were accepted within this many minutes; null: none answered yet. */
  median_answer_minutes: z.number().int().nullable(),
});
export type ExpertListItem = z.infer<typeof ExpertListItem>;
export const ExpertListReply = z.array(ExpertListItem);

/** The read model's columns an expert's profile carries as they are (projections' expertProfileReply copies these). */
export const expertProfileColumns = {
  user_id: true,
  slug: true,
  first_name: true,
  last_name: true,
  title: true,
  bio: true,
  tags: true,
  profile_image: true,
  verified: true,
  published: true,
} as const;

/** An expert's profile: PATCH /experts/me's answer, and the head of the public profile. */
export const ExpertProfileReply = z.strictObject({ id: z.string(), ...ExpertRecord.pick(expertProfileColumns).shape });
export type ExpertProfileReply = z.infer<typeof ExpertProfileReply>;

/** GET /experts/me: the profile, or before the first save the spec's empty default (no id, slug or user id). */
export const OwnExpertProfileReply = ExpertProfileReply.extend({
  id: z.string().nullable(),
  slug: z.string().nullable(),
  user_id: z.string().optional(),
});
export type OwnExpertProfileReply = z.infer<typeof OwnExpertProfileReply>;

/** A bookable session as the spec's calls return it: whole dollars, prep questions both ways, its expert's name. */
export const SessionReply = z.strictObject({
  id: z.string(),
  expert_id: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.number(),
  length_minutes: z.number(),
  prep_question_1: z.string().nullable(),
  prep_question_2: z.string().nullable(),
  prep_question_3: z.string().nullable(),
  prep_questions: z.array(z.string()),
  session_details: z.string(),
  ideal_for: z.array(z.string()),
  /** Booked instantly: the payment confirms the booking, with no request for the expert to accept (issue 27.6). */
  instant_booking: z.boolean(),
  /** The price's currency (issue 29.8): `price` is in its major unit. */
  currency: Currency,
  /** Cut-offs (issue 31.4): full refund until, and moves until, this many hours before the start; shown before paying. */
  full_refund_hours: z.number(),
  reschedule_hours: z.number(),
  status: SessionStatus,
  expert: z.strictObject({ id: z.string(), name: z.string(), first_name: z.string().nullable() }),
});
export type SessionReply = z.infer<typeof SessionReply>;
export const SessionListReply = z.array(SessionReply);

/** POST /sessions and PUT /sessions/{id} answer with the session as written. */
export const SessionWrittenReply = z.strictObject({ session: SessionReply });
/** DELETE /sessions/{id}: which session went. */
export const SessionDeletedReply = z.strictObject({ session: z.strictObject({ id: z.string() }) });

/**
 * A creator's review on an expert's public profile (spec section 3): stars, text, when it was
 * written, the creator shown by first name and last initial only (their full name stays private),
 * and the expert's public reply.
 */
export const ExpertReview = z.strictObject({
  id: z.string(),
  rating: z.number(),
  review: z.string(),
  created_at: Time,
  creator: z.strictObject({ first_name: z.string(), last_initial: z.string() }),
  reply: z.strictObject({ text: z.string(), created_at: Time }).nullable(),
});
export type ExpertReview = z.infer<typeof ExpertReview>;

/** A past client an expert lists (spec section 3, hidden); none are listed yet. */
export const PreviousClient = z.strictObject({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  profile_image: z.string().nullable(),
});

/** GET /experts/{slug}: the public profile with its published sessions and reviews. */
export const ExpertDetailReply = ExpertProfileReply.extend({
  sessions: z.array(SessionReply),
  reviews: z.array(ExpertReview),
  prev_clients: z.array(PreviousClient),
});
export type ExpertDetailReply = z.infer<typeof ExpertDetailReply>;

/** A period an expert's bookings hold, as the schedule shows it. */
export const BookedPeriod = z.strictObject({ scheduled_time: Time, length_minutes: z.number() });

/**
 * GET /experts/{expertId}/schedule: the weekly schedule (no zone and no slots before one is set)
 * and the booked periods; for the expert themselves and admins also the time off and extra hours
 * not yet over, earliest first, and the booking rules (others never see the expert's time off).
 */
export const ScheduleReply = z.strictObject({
  timezone: z.string().nullable(),
  slots: z.array(SlotReply),
  booked: z.array(BookedPeriod),
  time_off: z.array(TimeOffReply).optional(),
  date_overrides: z.array(DateOverrideReply).optional(),
  booking_rules: BookingRulesReply.optional(),
});
export type ScheduleReply = z.infer<typeof ScheduleReply>;

/** POST /experts/{expertId}/schedule: the schedule as set. */
export const ScheduleSetReply = ScheduleReply.pick({ slots: true }).extend({ timezone: z.string() });

/** A booking that still holds its time inside the expert's time off: theirs to move or cancel (it is never dropped). */
export const BookingInTimeOffReply = z.strictObject({
  booking_id: z.string(),
  status: z.string(),
  scheduled_time: Time,
  length_minutes: z.number(),
  session_title: z.string(),
  creator_id: z.string(),
  /** The periods of time off it falls in. */
  time_off_ids: z.array(z.string()),
});
export type BookingInTimeOffReply = z.infer<typeof BookingInTimeOffReply>;
/** GET /experts/{expertId}/time-off/affected-bookings: earliest first. */
export const BookingsInTimeOffReply = z.array(BookingInTimeOffReply);

/** POST /experts/{expertId}/time-off: the period as added, and the bookings already inside any time off. */
export const TimeOffAddedReply = z.strictObject({ time_off: TimeOffReply, affected_bookings: BookingsInTimeOffReply });
export type TimeOffAddedReply = z.infer<typeof TimeOffAddedReply>;
/** POST /experts/{expertId}/date-overrides: the extra hours as added. */
export const DateOverrideAddedReply = z.strictObject({ date_override: DateOverrideReply });

/** GET /sessions/{id}/availability: the bookable start times (UTC ISO) in the expert's zone; none before a schedule is set. */
export const AvailabilityReply = z.strictObject({
  timezone: z.string().nullable(),
  length_minutes: z.number().optional(),
  times: z.array(Time),
});
export type AvailabilityReply = z.infer<typeof AvailabilityReply>;

/** POST /experts/me/image: where the new profile image is served (with a version query). */
export const ExpertImageReply = z.strictObject({ url: z.string() });

/** GET /admin/experts: the read model's rows, with the `id` react-admin keys them by. */
export const AdminExpertReply = ExpertRecord.extend({ id: z.string() });
export type AdminExpertReply = z.infer<typeof AdminExpertReply>;

/** GET /admin/sessions: the read model's rows (deleted ones included), keyed by `id`. */
export const AdminSessionReply = SessionRecord.extend({ id: z.string() });
export type AdminSessionReply = z.infer<typeof AdminSessionReply>;
