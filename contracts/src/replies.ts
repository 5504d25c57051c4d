import { z } from "zod";
import { BookingStatus, SessionNotes } from "./calendar.ts";
import { Currency } from "./money.ts";
import { DisputeReply } from "./disputes.ts";
import { NoShowReply } from "./no-shows.ts";
import { Actor } from "./primitives.ts";

// Replies of /api/v1, declared once: the api sends them through these schemas (Fastify `response`,
// so a field the schema does not name fails the reply instead of vanishing), the OpenAPI document
// describes them, and web/ and admin/ infer their types from them. Strict objects, on purpose.

/**
 * A booking's payment: money never received, received, owed back, or (all that was owed) paid back:
 * all of what was paid (refunded) or only part of it, the rest still held (partially_refunded).
 */
export const PaymentState = z.enum(["unpaid", "paid", "refund_due", "partially_refunded", "refunded"]);
export type PaymentState = z.infer<typeof PaymentState>;

/** Money owed back: none, owed and not yet paid back, the provider's last attempt failed (it is retried), or all paid back. */
export const RefundState = z.enum(["none", "pending", "failed", "refunded"]);
export type RefundState = z.infer<typeof RefundState>;

/** Who ended a booking: one of its parties, an admin, or the system (an unpaid hold ran out). */
const CancelledBy = z.string().nullable();
/** An instant as a read model returns it (ISO 8601). */
const Time = z.string();

/**
 * One row of the `bookings` read model, one property per column, with JSON values (cents as
 * numbers, times as ISO strings). projections/ writes and reads exactly this shape (its Row type
 * is inferred from here); the admin console shows it as it is.
 */
export const BookingRecord = z.strictObject({
  booking_id: z.string(),
  expert_id: z.string(),
  expert_user_id: z.string(),
  creator_id: z.string(),
  session_id: z.string(),
  session_title: z.string(),
  price_cents: z.number(),
  length_minutes: z.number(),
  scheduled_time: Time,
  previous_time: Time.nullable(),
  held_until: Time,
  status: BookingStatus,
  paid_cents: z.number(),
  /** Owed back, in all (refunding cancellations and admin refunds), whether or not paid back yet. */
  refund_due_cents: z.number(),
  /** Paid back through the payment provider (RefundIssued). */
  refunded_cents: z.number(),
  refund_state: RefundState,
  payment_state: PaymentState,
  prep_questions: z.array(z.string()),
  prep_answers: z.array(z.string()).nullable(),
  info_request_note: z.string().nullable(),
  notes: SessionNotes.nullable(),
  cancelled_by: CancelledBy,
  cancel_reason: z.string().nullable(),
  /** When it was cancelled (the Cancelled event's time); null while it is not. */
  cancelled_at: Time.nullable(),
  /** When it was confirmed (the Confirmed event's time: the expert accepted, or the creator accepted a proposed time); null until then. */
  confirmed_at: Time.nullable(),
  /** The time the creator asked to move it to, held until the expert answers; null when no request is open. */
  reschedule_to: Time.nullable(),
  /** When that request was made; null with it. */
  reschedule_requested_at: Time.nullable(),
  /** The time the last request to move it asked for, when the expert declined it and none was asked since; null otherwise. */
  reschedule_declined_to: Time.nullable(),
  /** Why the expert declined it, in their words; null when they gave no reason (or nothing was declined). */
  reschedule_decline_reason: z.string().nullable(),
  /** The meeting link the expert set; null until set. Shown to the parties only from shortly before the start (BookingReply.join_link). */
  join_link: z.string().nullable(),
  /** Booked with instant booking: accepted on payment, no request for the expert to answer (issue 27.6). */
  instant_booking: z.boolean(),
  /** The currency of the price and of every amount of the booking (issue 29.8). */
  currency: Currency,
  /**
   * The expert's deadline to accept a paid request, while it waits for them (pending, more_info_requested); null otherwise.
   * Unanswered by then, the system cancels it and everything paid goes back (issue 27.6).
   */
  respond_by: Time.nullable(),
  /** The generated room its confirmation recorded (issue 27.13); null: none. Replies show the room's link, not this. */
  meeting_room: z.string().nullable(),
  /**
   * The terms the booking was made under (issue 31.4): a creator's cancellation is refunded in full until, and a move may be
   * asked until, this many hours before the start.
   */
  full_refund_hours: z.number(),
  reschedule_hours: z.number(),
  /** Disputes of its payments by the creator's bank (issue 31.2), oldest first; the console shows them. */
  disputes: z.array(DisputeReply),
  /** A no-show report on the session and how it ended (issue 31.1); null when none was made. */
  no_show: NoShowReply.nullable(),
  created_at: Time,
  updated_at: Time,
  stream_version: z.number(),
});
export type BookingRecord = z.infer<typeof BookingRecord>;

/** The read model's columns a booking's reply carries as they are (projections' bookingReply copies these). */
export const bookingReplyColumns = {
  status: true,
  scheduled_time: true,
  previous_time: true,
  length_minutes: true,
  session_id: true,
  session_title: true,
  expert_id: true,
  creator_id: true,
  info_request_note: true,
  payment_state: true,
  paid_cents: true,
  refund_due_cents: true,
  refunded_cents: true,
  refund_state: true,
  held_until: true,
  cancelled_by: true,
  cancel_reason: true,
  cancelled_at: true,
  confirmed_at: true,
  created_at: true,
  reschedule_declined_to: true,
  reschedule_decline_reason: true,
  instant_booking: true,
  currency: true,
  respond_by: true,
  no_show: true,
  full_refund_hours: true,
  reschedule_hours: true,
} as const;

/** A booking as both parties see it (spec section 3, plus what the lifecycle adds: payment, hold, cancellation). */
export const BookingReply = z.strictObject({
  ...BookingRecord.pick(bookingReplyColumns).shape,
  id: z.string(),
  session: z.strictObject({ title: z.string(), price: z.number(), expertFirstName: z.string().nullable() }),
  creator_name: z.string().nullable(),
  expert_name: z.string().nullable(),
  expert_image: z.string().nullable(),
  profile_image: z.string().nullable(),
  prep_question_1: z.string().nullable(),
  prep_question_2: z.string().nullable(),
  prep_question_3: z.string().nullable(),
  prep_response_1: z.string().nullable(),
  prep_response_2: z.string().nullable(),
  prep_response_3: z.string().nullable(),
  price: z.number(),
  paid: z.boolean(),
  has_notes: z.boolean(),
  /** The open request to move it: the time asked for (held meanwhile) and when; null when none is open (or it lapsed). */
  reschedule_to: Time.nullable(),
  reschedule_requested_at: Time.nullable(),
  /** Where to join the call: null until it shows (from `join_link_opens_at`), and for bookings that are not confirmed. */
  join_link: z.string().nullable(),
  /** When the link shows to both parties; null when the booking will have none (not confirmed, or no link set and no rooms configured). */
  join_link_opens_at: Time.nullable(),
  /** The expert set the link, or a room is generated for the booking; null with no link. */
  join_link_source: z.enum(["expert", "generated"]).nullable(),
});
export type BookingReply = z.infer<typeof BookingReply>;

/** POST /bookings answers with the booking it requested. */
export const BookingRequestedReply = z.strictObject({ booking: BookingReply });

/** One entry of a booking's history, as the event store holds it (upcast to the current schema). */
export const TimelineEntry = z.strictObject({
  event_id: z.string(),
  type: z.string(),
  time: Time,
  actor: Actor.nullable(),
  version: z.number(),
  position: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

/** GET /admin/bookings: the read model's rows, with the `id` react-admin keys them by. */
export const AdminBookingReply = BookingRecord.extend({ id: z.string() });
export type AdminBookingReply = z.infer<typeof AdminBookingReply>;
/** GET /admin/bookings/{id}: the row and its full history (newest last). */
export const AdminBookingShowReply = AdminBookingReply.extend({ timeline: z.array(TimelineEntry) });
export type AdminBookingShowReply = z.infer<typeof AdminBookingShowReply>;

/** One refund the log owes, as the refund reactor pays it: owed and not yet paid back, its last attempt failed (retried), or issued. */
export const RefundStatus = z.enum(["pending", "failed", "issued"]);
export type RefundStatus = z.infer<typeof RefundStatus>;

/** One row of the refund reactor's `refunds` table: one refund owed, keyed by the id of the event that owed it. */
export const RefundRecord = z.strictObject({
  refund_key: z.string(),
  booking_id: z.string(),
  expert_id: z.string(),
  /** The payment it goes back to; null when none is known (it cannot be paid, and says so). */
  payment_id: z.string().nullable(),
  amount_cents: z.number(),
  /** Why it is owed: the cancellation, or the admin's reason. */
  reason: z.string(),
  owed_at: Time,
  status: RefundStatus,
  /** Failed attempts so far. */
  attempts: z.number(),
  /** When the reactor tries (again), while it is not issued. */
  next_attempt_at: Time,
  last_error: z.string().nullable(),
  /** The provider's id of the refund, once issued. */
  refund_id: z.string().nullable(),
  provider: z.string().nullable(),
  issued_at: Time.nullable(),
  updated_at: Time,
});
export type RefundRecord = z.infer<typeof RefundRecord>;

/** GET /admin/refunds and /admin/refunds/{id}: the console's refunds, keyed by refund_key. */
export const AdminRefundReply = RefundRecord.extend({ id: z.string() });
export type AdminRefundReply = z.infer<typeof AdminRefundReply>;

/**
 * Why a refund the payment provider reported was not recorded: not one the product asked for (no
 * key of ours, or another booking's), more than it asked for or than is left of what was paid, or
 * less than it asked for.
 */
export const UnmatchedRefundWhy = z.enum(["unknown_refund", "over_refund", "amount_differs"]);
export type UnmatchedRefundWhy = z.infer<typeof UnmatchedRefundWhy>;

/** GET /admin/unmatched-refunds: refunds the provider reported and the product did not record, keyed by the provider's refund id. */
export const AdminUnmatchedRefundReply = z.strictObject({
  id: z.string(),
  refund_id: z.string(),
  provider: z.string(),
  amount_cents: z.number(),
  /** The provider's word on it (Stripe: succeeded, pending, failed, canceled, ...). */
  provider_status: z.string().nullable(),
  /** The booking and refund key its metadata claims, if it names them. */
  booking_id: z.string().nullable(),
  refund_key: z.string().nullable(),
  why: UnmatchedRefundWhy,
  /** The provider's event that last reported it. */
  event_id: z.string(),
  /** How often it was reported (each delivery counts). */
  reports: z.number(),
  first_seen_at: Time,
  last_seen_at: Time,
});
export type AdminUnmatchedRefundReply = z.infer<typeof AdminUnmatchedRefundReply>;

/** A booking's session notes, the expert's write-up after the session (GET and POST /bookings/{id}/notes). */
export const SessionNotesReply = z.strictObject({
  booking_id: z.string(),
  summary: z.string(),
  recap: z.string(),
  takeaways: z.array(z.string()),
  suggested_actions: z.array(z.string()),
});
export type SessionNotesReply = z.infer<typeof SessionNotesReply>;

/** GET /terms/latest: the version a user accepts now. */
export const TermsLatestReply = z.strictObject({ version_id: z.string() });
export type TermsLatestReply = z.infer<typeof TermsLatestReply>;
/** GET /terms/status: has the caller accepted the current version. */
export const TermsStatusReply = z.strictObject({ accepted: z.boolean() });
export type TermsStatusReply = z.infer<typeof TermsStatusReply>;
/** POST /terms/accept: the version now accepted. */
export const TermsAcceptedReply = z.strictObject({ accepted: z.literal(true), version_id: z.string() });
export type TermsAcceptedReply = z.infer<typeof TermsAcceptedReply>;

/** POST /stripe/test-intent: what the payment form needs to charge the booking's price. */
export const PaymentIntentReply = z.strictObject({
  clientSecret: z.string(),
  paymentId: z.string(),
  /** Cents: always the booking's price. */
  amount: z.number(),
  /** Stripe's publishable key; null with the test provider. */
  publishableKey: z.string().nullable(),
});
export type PaymentIntentReply = z.infer<typeof PaymentIntentReply>;
/** POST /payments/test/confirm: the test card was charged (a decline is a refusal). */
export const PaymentConfirmedReply = z.strictObject({ status: z.literal("succeeded") });
export type PaymentConfirmedReply = z.infer<typeof PaymentConfirmedReply>;
/** POST /stripe/webhook: the event was taken (recorded, or deliberately ignored). */
export const WebhookReceivedReply = z.strictObject({ received: z.literal(true) });

/** GET /healthz: the process answers. */
export const LivenessReply = z.strictObject({ status: z.literal("ok") });
/** GET /readyz (200 ready, 503 not): each check "ok" or what failed, and how far the read models are behind the log. */
export const ReadinessReply = z.strictObject({
  status: z.enum(["ready", "not_ready"]),
  checks: z.record(z.string(), z.string()),
  /** Events the slowest live read model has yet to apply, counted up to the limit plus one; null when it could not be read. */
  lagEvents: z.number().nullable(),
});
export type ReadinessReply = z.infer<typeof ReadinessReply>;

/** PUT /bookings/{id}/join-link: the link the expert set, and when both parties see it. */
export const JoinLinkReply = z.strictObject({ booking_id: z.string(), url: z.string(), opens_at: Time });
export type JoinLinkReply = z.infer<typeof JoinLinkReply>;

/** A 204's reply: no body (the OpenAPI document says so). */
export const NoContent = z.null();
