import { z } from "zod";
import { MAX_PREP_QUESTIONS, MIN_PREP_QUESTIONS } from "./constants.ts";
import { Currency } from "./money.ts";
import { DISPUTE_COMMANDS, DISPUTE_EVENTS } from "./disputes.ts";
import { NO_SHOW_COMMANDS, NO_SHOW_EVENTS } from "./no-shows.ts";
import { Actor, Id, Instant, PriceCents, SessionLength } from "./primitives.ts";
import { BookingRules, DateOverride, TimeOff, WeeklySchedule } from "./schedule.ts";
import { BusyInterval } from "./external-calendars.ts";
import { APPLICATION_STATUSES } from "./vetting.ts";

// Stream `calendar-{expertId}`: the expert's weekly schedule and the lifecycle of every booking
// with that expert, so that one decision sees availability and all active bookings at once.

/** `expert_no_show` and `creator_no_show`: a no-show report that stood (issue 31.1; contracts/src/no-shows.ts). */
export const BookingStatus = z.enum([
  "pending",
  "time_proposed",
  "more_info_requested",
  "confirmed",
  "completed",
  "cancelled",
  "expert_no_show",
  "creator_no_show",
]);
export type BookingStatus = z.infer<typeof BookingStatus>;

export const CancelledBy = z.enum(["creator", "expert", "admin", "system"]);

/**
 * Rule: a creator may ask to move a booking until this many hours before its current start (the
 * expert then has time to answer, and the old time is still far enough off to give to someone else).
 */
export const RESCHEDULE_NOTICE_HOURS = 24;
/** Rule: a booking's meeting link shows to both parties from this many minutes before its start. */
export const JOIN_LINK_OPENS_MINUTES_BEFORE = 15;

/**
 * What may not be in a meeting link as typed: spaces, control and format characters (zero-width,
 * bidi marks and overrides, soft hyphens), anything else that shows as nothing, and backslashes.
 * Browsers drop or reinterpret them, and each parser differently (`https://zoom.us\@evil.test` is
 * zoom.us to a browser, evil.test to others), so the link would hide where it goes.
 */
const HIDING_CHARACTERS = /[\s\p{C}\p{Default_Ignorable_Code_Point}\u2800\\]/u;

/**
 * Rule: a meeting link is an https address of a host (no user name or password in it), at most
 * 2,000 characters, with nothing in it that hides where it goes: what a video call service hands
 * out, never a script or a file on the device.
 */
export function isMeetingLink(url: string): boolean {
  if (url.length > 2000 || HIDING_CHARACTERS.test(url)) return false;
  try {
    const u = new URL(url);
    return u.protocol === "https:" && u.hostname.length > 0 && u.username === "" && u.password === "" && u.href.length <= 2000;
  } catch {
    return false;
  }
}

/**
 * The host a meeting link opens, as browsers read it: an international name in its ASCII
 * (punycode) form, so `zоom.us` with a Cyrillic о (U+043E) shows as `xn--zom-sed.us`, not as zoom.us.
 */
export function meetingLinkHost(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

/** Stored as browsers read it (WHATWG `URL.href`): host lowercased and in punycode, default port dropped. */
export const MeetingLink = z
  .string({ error: "join_link_invalid" })
  .trim()
  .refine(isMeetingLink, { error: "join_link_invalid" })
  .transform((url) => new URL(url).href);

/**
 * A generated meeting room's name: at least 128 random bits, URL-safe (base64url), chosen once by
 * the caller of a command that may confirm a booking and recorded in its `Confirmed`, so every
 * replay and rebuild gives the same room (the decider itself draws no randomness).
 */
export const MeetingRoomName = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/);

/** Facts from other streams that a booking request needs; the command handler reads them. */
export const BookedSessionFacts = z.object({
  sessionId: Id,
  expertId: Id,
  title: z.string(),
  lengthMinutes: SessionLength,
  priceCents: PriceCents,
  published: z.boolean(),
  prepQuestions: z.array(z.string()),
  /** The session is accepted on payment (instant booking) rather than a request the expert answers (absent: not). */
  instantBooking: z.boolean().optional(),
  /** The price's currency (absent: US dollars). */
  currency: Currency.optional(),
  /** The session's cut-offs when booked (issue 31.4; absent: FULL_REFUND_NOTICE_HOURS and RESCHEDULE_NOTICE_HOURS). */
  fullRefundHours: z.number().int().positive().optional(),
  rescheduleHours: z.number().int().positive().optional(),
});
export type BookedSessionFacts = z.infer<typeof BookedSessionFacts>;

/**
 * One of the creator's bookings, with any expert: the facts a booking request needs about the
 * creator, since the calendar stream sees one expert only (the route reads them; see bookings.ts).
 */
export const CreatorBookingFacts = z.object({
  bookingId: Id,
  status: BookingStatus,
  scheduledTime: z.string(),
  lengthMinutes: z.number().int().positive(),
  heldUntil: z.string(),
  priceCents: z.number().int().nonnegative(),
  paidCents: z.number().int().nonnegative(),
  /** The time an open request to move this booking holds as well (absent or null: none). */
  rescheduleTo: z.string().nullable().optional(),
});
export type CreatorBookingFacts = z.infer<typeof CreatorBookingFacts>;

const note = (code: "info_note_required" | "notes_required") =>
  z.string({ error: code }).trim().min(1, { error: code }).max(5000, { error: code });

export const PrepAnswers = z
  .array(
    z
      .string({ error: "prep_answers_required" })
      .trim()
      .min(1, { error: "prep_answers_required" })
      .max(5000, { error: "prep_answers_required" }),
    {
      error: "prep_answers_required",
    },
  )
  // One per question the booking's session asked: the calendar checks the count against the booking.
  .min(MIN_PREP_QUESTIONS, { error: "prep_answers_required" })
  .max(MAX_PREP_QUESTIONS, { error: "prep_answers_required" });

export const SessionNotes = z.object({
  summary: note("notes_required"),
  recap: z.string().trim().max(10_000).default(""),
  takeaways: z.array(z.string().trim().min(1).max(1000)).max(20).default([]),
  suggestedActions: z.array(z.string().trim().min(1).max(1000)).max(20).default([]),
});
export type SessionNotes = z.infer<typeof SessionNotes>;

/** A refund an admin gives: a whole, positive number of cents. */
export const RefundCents = z
  .number({ error: "refund_amount_invalid" })
  .int({ error: "refund_amount_invalid" })
  .positive({ error: "refund_amount_invalid" });
export const RefundReason = z
  .string({ error: "refund_reason_required" })
  .trim()
  .min(1, { error: "refund_reason_required" })
  .max(500, { error: "refund_reason_required" });
/** The id of the event that owes a refund (a `Cancelled` with refundCents > 0, or a `RefundDue`): stable across redelivery. */
const RefundKey = z.string().min(1).max(255);

const base = { expertId: Id, actor: Actor };
const onBooking = { ...base, bookingId: Id };

export const CalendarCommand = z.discriminatedUnion("type", [
  z.object({ type: z.literal("SetSchedule"), ...base, schedule: WeeklySchedule }),
  /** Time off, extra hours on a date and booking rules: the expert's own, in their timezone. */
  z.object({ type: z.literal("AddTimeOff"), ...base, timeOff: TimeOff }),
  z.object({ type: z.literal("RemoveTimeOff"), ...base, timeOffId: Id }),
  z.object({ type: z.literal("AddDateOverride"), ...base, override: DateOverride }),
  z.object({ type: z.literal("RemoveDateOverride"), ...base, overrideId: Id }),
  z.object({ type: z.literal("SetBookingRules"), ...base, rules: BookingRules }),
  /** The busy times one connected calendar (`sourceId`) has in the window read, replacing its previous set (issue 32). */
  z.object({
    type: z.literal("SyncExternalBusyTimes"),
    ...base,
    sourceId: Id,
    from: Instant,
    to: Instant,
    busy: z.array(BusyInterval),
  }),
  /** A calendar disconnected or no longer blocking: its busy times go. */
  z.object({ type: z.literal("RemoveExternalBusyTimes"), ...base, sourceId: Id }),
  z.object({
    type: z.literal("RequestBooking"),
    ...onBooking,
    scheduledTime: Instant,
    session: BookedSessionFacts,
    expertUserId: Id,
    /** Where the expert's application stands on their own stream: only an approved expert is bookable (issue 30). */
    expertVetting: z.enum(APPLICATION_STATUSES),
    creatorAcceptedTerms: z.boolean(),
    /** The creator's bookings with every expert, for the rules no single calendar can see (holds cap, no double-booked creator). */
    creatorBookings: z.array(CreatorBookingFacts),
    holdMinutes: z.number().int().positive(),
  }),
  /** `meetingRoom`: the room the booking meets in should this payment confirm it (instant booking), chosen by the caller (see MeetingRoomName). */
  z.object({
    type: z.literal("RecordPayment"),
    ...onBooking,
    paymentId: z.string().min(1).max(255),
    amountCents: z.number().int().nonnegative(),
    provider: z.string(),
    meetingRoom: MeetingRoomName.optional(),
  }),
  z.object({ type: z.literal("RecordPaymentFailure"), ...onBooking, paymentId: z.string().min(1).max(255), reason: z.string().max(500) }),
  z.object({ type: z.literal("SubmitPrep"), ...onBooking, answers: PrepAnswers }),
  z.object({ type: z.literal("RequestInfo"), ...onBooking, note: note("info_note_required") }),
  z.object({ type: z.literal("ProposeTime"), ...onBooking, scheduledTime: Instant }),
  z.object({ type: z.literal("ConfirmBooking"), ...onBooking, meetingRoom: MeetingRoomName.optional() }),
  z.object({ type: z.literal("CancelBooking"), ...onBooking, reason: z.string().trim().max(500).default("") }),
  z.object({ type: z.literal("ExpireHold"), ...onBooking }),
  z.object({ type: z.literal("CompleteBooking"), ...onBooking }),
  z.object({ type: z.literal("AddNotes"), ...onBooking, notes: SessionNotes }),
  /** An admin gives money back, any part of what was paid and is not already owed back, with a reason. */
  z.object({ type: z.literal("RefundBooking"), ...onBooking, amountCents: RefundCents, reason: RefundReason }),
  /** The payment provider refunded what `refundKey` (the owing event's id) owed. */
  z.object({
    type: z.literal("RecordRefund"),
    ...onBooking,
    refundKey: RefundKey,
    refundId: z.string().min(1).max(255),
    amountCents: z.number().int().positive(),
    provider: z.string(),
  }),
  z.object({ type: z.literal("RecordRefundFailure"), ...onBooking, refundKey: RefundKey, reason: z.string().max(500) }),
  /**
   * The creator asks to move the booking to `scheduledTime`; the expert accepts or declines, the
   * creator may withdraw. `creatorBookings`: the creator's bookings with every expert, as for a booking request.
   */
  z.object({ type: z.literal("RequestReschedule"), ...onBooking, scheduledTime: Instant, creatorBookings: z.array(CreatorBookingFacts) }),
  /** `meetingRoom`: the room should accepting confirm the booking (the creator's answer to a proposed time), chosen by the caller. */
  z.object({ type: z.literal("AcceptReschedule"), ...onBooking, meetingRoom: MeetingRoomName.optional() }),
  z.object({ type: z.literal("DeclineReschedule"), ...onBooking, reason: z.string().trim().max(500).default("") }),
  z.object({ type: z.literal("WithdrawReschedule"), ...onBooking }),
  /** The expert's video meeting link for a confirmed booking. */
  z.object({ type: z.literal("SetJoinLink"), ...onBooking, url: MeetingLink }),
  /**
   * An expert's suspension, on the calendar where bookings are decided (issue 30): a booking request is
   * accepted before it or refused after it, never both. Resumed when the expert is reinstated.
   */
  z.object({ type: z.literal("PauseBookings"), ...base, reason: z.string().trim().min(1).max(500) }),
  z.object({ type: z.literal("ResumeBookings"), ...base }),
  ...NO_SHOW_COMMANDS,
  ...DISPUTE_COMMANDS,
]);
export type CalendarCommand = z.infer<typeof CalendarCommand>;
export type CalendarCommandType = CalendarCommand["type"];

const booking = { bookingId: Id };
/** Who asked or answered: a party of the booking, or an admin acting for one. */
const RescheduleParty = z.enum(["creator", "expert", "admin"]);

export const CalendarEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("BookingsPaused"), data: z.object({ expertId: Id, by: Id, reason: z.string() }) }),
  z.object({ type: z.literal("BookingsResumed"), data: z.object({ expertId: Id, by: Id }) }),
  z.object({ type: z.literal("ScheduleSet"), data: z.object({ expertId: Id, timezone: z.string(), slots: WeeklySchedule.shape.slots }) }),
  z.object({
    type: z.literal("TimeOffAdded"),
    data: z.object({ expertId: Id, timeOffId: z.string(), start: z.string(), end: z.string(), reason: z.string() }),
  }),
  z.object({ type: z.literal("TimeOffRemoved"), data: z.object({ expertId: Id, timeOffId: z.string() }) }),
  z.object({
    type: z.literal("DateOverrideAdded"),
    data: z.object({ expertId: Id, overrideId: z.string(), date: z.string(), start_local: z.string(), end_local: z.string() }),
  }),
  z.object({ type: z.literal("DateOverrideRemoved"), data: z.object({ expertId: Id, overrideId: z.string() }) }),
  z.object({
    type: z.literal("BookingRulesSet"),
    data: z.object({ expertId: Id, ...BookingRules.shape }),
  }),
  /** One connected calendar's busy times over [from, to), replacing that calendar's previous set; titles are never recorded. */
  z.object({
    type: z.literal("ExternalBusyTimesSynced"),
    data: z.object({ expertId: Id, sourceId: z.string(), from: z.string(), to: z.string(), busy: z.array(BusyInterval) }),
  }),
  z.object({ type: z.literal("ExternalBusyTimesRemoved"), data: z.object({ expertId: Id, sourceId: z.string() }) }),
  z.object({
    type: z.literal("BookingRequested"),
    data: z.object({
      ...booking,
      expertId: Id,
      expertUserId: Id,
      creatorId: Id,
      sessionId: Id,
      sessionTitle: z.string(),
      lengthMinutes: z.number().int(),
      priceCents: z.number().int(),
      prepQuestions: z.array(z.string()),
      scheduledTime: z.string(),
      heldUntil: z.string(),
      /** Accepted on payment (the session's instant booking when requested); absent before issue 27.6: false. */
      instantBooking: z.boolean().optional(),
      /** The price's currency (issue 29.8); absent before it: US dollars. */
      currency: Currency.optional(),
      /** The session's cut-offs, kept with the booking so a later change of the session never changes its terms (issue 31.4). */
      fullRefundHours: z.number().int().positive().optional(),
      rescheduleHours: z.number().int().positive().optional(),
    }),
  }),
  /** `respondBy`: the paid request's deadline for the expert to accept (see `respondByOf`); absent when none was set. */
  z.object({
    type: z.literal("PaymentSucceeded"),
    data: z.object({
      ...booking,
      paymentId: z.string(),
      amountCents: z.number().int(),
      provider: z.string(),
      respondBy: z.string().optional(),
      /** The amount's currency; absent before issue 29: US dollars. */
      currency: Currency.optional(),
      /** The platform fee this booking is paid under (basis points), fixed at payment; absent before issue 29: no fee was kept. */
      feeBasisPoints: z.number().int().min(0).max(10_000).optional(),
    }),
  }),
  z.object({ type: z.literal("PaymentFailed"), data: z.object({ ...booking, paymentId: z.string(), reason: z.string() }) }),
  z.object({ type: z.literal("PrepSubmitted"), data: z.object({ ...booking, answers: z.array(z.string()) }) }),
  z.object({ type: z.literal("InfoRequested"), data: z.object({ ...booking, note: z.string() }) }),
  z.object({ type: z.literal("TimeProposed"), data: z.object({ ...booking, scheduledTime: z.string(), previousTime: z.string() }) }),
  /** `instant`: confirmed by the payment itself (instant booking, `by` system); `meetingRoom`: the generated room's name (absent: none chosen). */
  z.object({
    type: z.literal("Confirmed"),
    data: z.object({ ...booking, by: CancelledBy, instant: z.boolean().optional(), meetingRoom: z.string().optional() }),
  }),
  z.object({
    type: z.literal("Cancelled"),
    data: z.object({ ...booking, by: CancelledBy, reason: z.string(), refundCents: z.number().int().nonnegative() }),
  }),
  /** A payment that arrived for a booking that could no longer keep its time: it is owed back. */
  z.object({
    type: z.literal("RefundDue"),
    data: z.object({ ...booking, paymentId: z.string(), amountCents: z.number().int(), reason: z.string() }),
  }),
  /** Money owed back reached the creator; `refundKey` is the id of the event that owed it. */
  z.object({
    type: z.literal("RefundIssued"),
    data: z.object({ ...booking, refundKey: z.string(), refundId: z.string(), amountCents: z.number().int(), provider: z.string() }),
  }),
  /** The provider refused or failed a refund; it stays owed (and is retried). */
  z.object({ type: z.literal("RefundFailed"), data: z.object({ ...booking, refundKey: z.string(), reason: z.string() }) }),
  z.object({ type: z.literal("Completed"), data: z.object({ ...booking }) }),
  z.object({ type: z.literal("NotesAdded"), data: z.object({ ...booking, notes: SessionNotes }) }),
  /** A request to move the booking from `from` (its time then) to `to`, which it holds until answered. */
  z.object({
    type: z.literal("RescheduleRequested"),
    data: z.object({ ...booking, from: z.string(), to: z.string(), by: RescheduleParty }),
  }),
  /** The booking moved from `from` to `to`; its status is unchanged. */
  z.object({
    type: z.literal("RescheduleAccepted"),
    data: z.object({ ...booking, from: z.string(), to: z.string(), by: RescheduleParty }),
  }),
  /** The request was declined: the booking stays at `from`, `to` is free again. */
  z.object({
    type: z.literal("RescheduleDeclined"),
    data: z.object({ ...booking, from: z.string(), to: z.string(), by: RescheduleParty, reason: z.string() }),
  }),
  /** The creator took the request back: the booking stays at `from`, `to` is free again. */
  z.object({
    type: z.literal("RescheduleWithdrawn"),
    data: z.object({ ...booking, from: z.string(), to: z.string(), by: RescheduleParty }),
  }),
  z.object({ type: z.literal("JoinLinkSet"), data: z.object({ ...booking, url: z.string(), by: RescheduleParty }) }),
  ...NO_SHOW_EVENTS,
  ...DISPUTE_EVENTS,
]);
export type CalendarEvent = z.infer<typeof CalendarEvent>;

/** POST /bookings/{id}/reschedule: the time the creator asks to move to. */
export const RescheduleBody = z.strictObject({ scheduled_time: Instant });
/** POST /bookings/{id}/reschedule/decline: why, optionally (the creator reads it). */
export const RescheduleDeclineBody = z.strictObject({ reason: z.string().max(500).optional() });
/** PUT /bookings/{id}/join-link. */
export const JoinLinkBody = z.strictObject({ url: MeetingLink });
