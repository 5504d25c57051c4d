import { z } from "zod";
import { MAX_PREP_QUESTIONS, MIN_SESSION_PRICE_CENTS } from "./constants.ts";
import { Currency } from "./money.ts";
import { pageQueryFields } from "./page-query.ts";
import { Id, Instant, LocalTime, Timezone, Weekday, multiLine, oneLine } from "./primitives.ts";

// Bodies, params and queries of /api/v1, as the spec (section 7) names their fields. Objects are
// strict: an unknown field is a 400, not silently dropped. Titles and names are one line: no control
// character or line separator (text_has_control_characters); longer texts keep their line feeds.

export const ErrorReply = z.object({ code: z.string(), message: z.string() });

export const IdParams = z.strictObject({ id: Id });
export const SlugParams = z.strictObject({ slug: z.string().min(1).max(200) });
export const ExpertIdParams = z.strictObject({ expertId: Id });
export const BookingIdParams = z.strictObject({ bookingId: Id });
export const UserIdParams = z.strictObject({ userId: Id });

/** A page of a person's bookings (issue 34.5): `before` is the cursor a `Link: rel="next"` header gave; `limit` 1-500 (default 500). */
export const BookingListQuery = z.strictObject(
  pageQueryFields({
    cursorError: "bookings_cursor_invalid",
    sizeError: "bookings_page_size_invalid",
    max: 500,
    defaultSize: 500,
    items: "Bookings",
    after: "the page after it",
    first: "the first page",
  }),
);
export type BookingListQuery = z.infer<typeof BookingListQuery>;

export const AcceptTermsBody = z.strictObject({
  version_id: z
    .string({ error: "terms_version_unknown" })
    .min(1, { error: "terms_version_unknown" })
    .max(64, { error: "terms_version_unknown" }),
});

export const ExpertProfileBody = z.strictObject({
  first_name: oneLine(z.string({ error: "profile_names_required" }).trim().max(100, { error: "profile_names_required" })),
  last_name: oneLine(z.string({ error: "profile_names_required" }).trim().max(100, { error: "profile_names_required" })),
  title: oneLine(z.string({ error: "profile_title_required" }).trim().max(200, { error: "profile_title_required" })),
  bio: multiLine(z.string().max(10_000)).nullable().optional(),
  tags: z
    .array(oneLine(z.string().trim().max(50)))
    .max(20)
    .optional(),
  profile_image: z.string().max(2000).nullable().optional(),
  published: z.boolean().optional(),
});

export const ScheduleBody = z.strictObject({
  timezone: Timezone,
  slots: z.array(z.strictObject({ weekday: Weekday, start_local: LocalTime, end_local: LocalTime })).max(7 * 48),
});

/** A price in dollars: whole cents (0.001 would round to a free session), at least $1. */
const money = z
  .number({ error: "session_price_invalid" })
  .finite({ error: "session_price_invalid" })
  .min(MIN_SESSION_PRICE_CENTS / 100, { error: "session_price_invalid" })
  .max(1_000_000, { error: "session_price_invalid" })
  .refine((dollars) => Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6, { error: "session_price_invalid" });

export const SessionBody = z.strictObject({
  expert_id: Id.optional(),
  title: oneLine(z.string({ error: "session_title_required" }).trim().max(200, { error: "session_title_required" })),
  description: multiLine(z.string().max(2000)).nullable().optional(),
  price: money,
  length_minutes: z.number({ error: "session_length_invalid" }),
  prep_question_1: oneLine(z.string().trim().max(500)).nullable().optional(),
  prep_question_2: oneLine(z.string().trim().max(500)).nullable().optional(),
  prep_question_3: oneLine(z.string().trim().max(500)).nullable().optional(),
  session_details: multiLine(z.string().max(10_000)).nullable().optional(),
  ideal_for: z.union([z.array(oneLine(z.string().trim().max(200))).max(20), multiLine(z.string().max(2000))]).optional(),
  status: z.enum(["draft", "published"]).optional(),
  /** Accepted on payment instead of a request the expert answers (issue 27.6); left out on an update: unchanged. */
  instant_booking: z.boolean({ error: "invalid_request" }).optional(),
  /** The price's currency (issue 29.8); left out: US dollars on a new session, unchanged on an update. */
  currency: Currency.optional(),
  /** Cut-offs (issue 31.4): full refund until (24, 48, 72) and moves until (12, 24, 48) hours before the start; left out: 24 and 24, unchanged on an update. */
  full_refund_hours: z.number({ error: "session_cut_off_invalid" }).optional(),
  reschedule_hours: z.number({ error: "session_cut_off_invalid" }).optional(),
});
export const SessionStatusBody = z.strictObject({ status: z.enum(["draft", "published"]) });
export const SessionUpdateBody = z.union([SessionStatusBody, SessionBody]);

export const AvailabilityQuery = z.strictObject({
  from: z.iso.date({ error: "invalid_request" }).optional(),
  to: z.iso.date({ error: "invalid_request" }).optional(),
});

/** Times an expert may propose for a booking: one day (`date`, in the expert's timezone) or, without it, the whole booking window. */
export const ProposableTimesQuery = z.strictObject({ date: z.iso.date({ error: "invalid_request" }).optional() });
/** `timezone` is the expert's (null while they have no schedule, when nothing can be proposed); `times` are UTC instants, earliest first. */
export const ProposableTimesReply = z.strictObject({ timezone: z.string().nullable(), times: z.array(z.iso.datetime()) });
export type ProposableTimesReply = z.infer<typeof ProposableTimesReply>;

export const CreateBookingBody = z.strictObject({ session_id: Id, scheduled_time: Instant });
export const BookingStatusBody = z.strictObject({
  status: z.enum(["confirmed", "cancelled", "more_info_requested", "completed"], { error: "invalid_request" }),
  info_request_note: multiLine(z.string().max(5000)).nullable().optional(),
  reason: multiLine(z.string().max(500)).optional(),
});
export const BookingScheduleBody = z.strictObject({ scheduled_time: Instant });
const prepResponse = multiLine(z.string({ error: "prep_answers_required" }).max(5000));
/** One answer per question the session asked (1 to 3): `prep_response_2` and `_3` only when it asked that many. */
export const BookingPrepBody = z
  .strictObject({
    prep_response_1: prepResponse,
    prep_response_2: prepResponse.optional(),
    prep_response_3: prepResponse.optional(),
  })
  .refine((b) => b.prep_response_3 === undefined || b.prep_response_2 !== undefined, { error: "prep_answers_required" });
/** The answers in the order of the questions they answer. */
export const prepAnswersOf = (b: z.infer<typeof BookingPrepBody>): string[] =>
  [b.prep_response_1, b.prep_response_2, b.prep_response_3].filter((a): a is string => a !== undefined);
export const BookingNotesBody = z.strictObject({
  summary: multiLine(z.string({ error: "notes_required" }).max(5000)),
  recap: multiLine(z.string().max(10_000)).optional(),
  takeaways: z
    .array(multiLine(z.string().max(1000)))
    .max(20)
    .optional(),
  suggested_actions: z
    .array(multiLine(z.string().max(1000)))
    .max(20)
    .optional(),
});

export const API_LIMITS = { prepQuestions: MAX_PREP_QUESTIONS, prepAnswers: MAX_PREP_QUESTIONS } as const;

/** GET /me/export and GET /admin/users/{id}/export (issue 33.3): everything the product holds about one person, as a file. */
export const PersonalExportReply = z.strictObject({
  format: z.literal("expert-sessions-export/1"),
  user_id: z.string(),
  exported_at: z.string(),
  /** Each read model's rows about the person, as it holds them, with what the section is. */
  sections: z.record(z.string(), z.strictObject({ about: z.string(), rows: z.array(z.record(z.string(), z.unknown())) })),
  /** The events of the person's own streams (user, terms, expert profile), oldest first. */
  events: z.array(
    z.strictObject({ stream: z.string(), version: z.number(), type: z.string(), recorded_at: z.string(), data: z.unknown() }),
  ),
});
export type PersonalExportReply = z.infer<typeof PersonalExportReply>;
