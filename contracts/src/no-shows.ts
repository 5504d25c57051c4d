import { z } from "zod";
import { Actor, Id, multiLine } from "./primitives.ts";

// No-shows (issue 31.1): either party of a confirmed session may report that the other did not show, from
// the session's start until NO_SHOW_REPORT_HOURS_AFTER_END after its end. The reported party has
// NO_SHOW_CONTEST_HOURS to contest; uncontested, the report stands (an absent expert: everything paid goes
// back to the creator; an absent creator: the expert keeps the payment). A contested report waits for an
// admin, who refunds all, part or nothing, with a reason. The rules are in engine/src/calendar/no-shows.ts.

/** Rule: a no-show may be reported until this many hours after the session's end. */
export const NO_SHOW_REPORT_HOURS_AFTER_END = 48;
/** Rule: the reported party may contest within this many hours of the report. */
export const NO_SHOW_CONTEST_HOURS = 48;
/** The longest note a report, a contest or an admin's reason may carry. */
export const NO_SHOW_NOTE_MAX = 1000;

/** The party a report says did not show. */
export const NoShowParty = z.enum(["creator", "expert"]);
export type NoShowParty = z.infer<typeof NoShowParty>;

/** How a settled report ends the booking: the reported party's no-show, or (an admin finding it held) completed. */
export const NoShowOutcome = z.enum(["expert_no_show", "creator_no_show", "completed"]);
export type NoShowOutcome = z.infer<typeof NoShowOutcome>;

/** The status a report upheld gives the booking. */
export const noShowStatusOf = (absent: NoShowParty): NoShowOutcome => (absent === "expert" ? "expert_no_show" : "creator_no_show");

const NoShowNote = multiLine(z.string({ error: "no_show_note_invalid" }).trim().max(NO_SHOW_NOTE_MAX, { error: "no_show_note_invalid" }));
const DecisionReason = multiLine(
  z
    .string({ error: "no_show_reason_required" })
    .trim()
    .min(1, { error: "no_show_reason_required" })
    .max(NO_SHOW_NOTE_MAX, { error: "no_show_reason_required" }),
);

const onBooking = { expertId: Id, actor: Actor, bookingId: Id };

/** The calendar's no-show commands (contracts' CalendarCommand includes them). */
export const NO_SHOW_COMMANDS = [
  /** A party reports the other absent; which party is absent follows from who reports. */
  z.object({ type: z.literal("ReportNoShow"), ...onBooking, note: NoShowNote.default("") }),
  /** The reported party says they were there. */
  z.object({ type: z.literal("ContestNoShow"), ...onBooking, note: NoShowNote.default("") }),
  /** The system lets an uncontested report stand once its contest window has passed (the no-show sweeper). */
  z.object({ type: z.literal("SettleNoShow"), ...onBooking }),
  /** An admin decides a report: upheld (the reported party's no-show) or not (completed), with a refund of any part of what was paid. */
  z.object({
    type: z.literal("DecideNoShow"),
    ...onBooking,
    upheld: z.boolean(),
    refundCents: z
      .number({ error: "refund_amount_invalid" })
      .int({ error: "refund_amount_invalid" })
      .min(0, { error: "refund_amount_invalid" }),
    reason: DecisionReason,
  }),
] as const;

const booking = { bookingId: Id };

/** The calendar's no-show events (contracts' CalendarEvent includes them). */
export const NO_SHOW_EVENTS = [
  /** `by`: the reporting user; `contestBy`: the end of the reported party's window to contest. */
  z.object({
    type: z.literal("NoShowReported"),
    data: z.object({ ...booking, absent: NoShowParty, by: z.string(), note: z.string(), contestBy: z.string() }),
  }),
  z.object({ type: z.literal("NoShowContested"), data: z.object({ ...booking, by: z.string(), note: z.string() }) }),
  /**
   * The report's end: `by` the system (uncontested) or the deciding admin's id; `refundCents` owed back with it (a
   * `RefundDue` in the same decision carries the money); `reason` shown to both parties.
   */
  z.object({
    type: z.literal("NoShowSettled"),
    data: z.object({
      ...booking,
      absent: NoShowParty,
      outcome: NoShowOutcome,
      refundCents: z.number().int().nonnegative(),
      by: z.string(),
      reason: z.string(),
    }),
  }),
] as const;

/** A booking's no-show report as both parties and the console see it; null on a booking with none. */
export const NoShowReply = z.strictObject({
  absent: NoShowParty,
  note: z.string(),
  reported_at: z.string(),
  contest_by: z.string(),
  contested: z.boolean(),
  contest_note: z.string().nullable(),
  contested_at: z.string().nullable(),
  /** Null while the report is open. */
  outcome: NoShowOutcome.nullable(),
  refund_cents: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** "system" (uncontested) or the deciding admin's id; null while open. */
  decided_by: z.string().nullable(),
  settled_at: z.string().nullable(),
});
export type NoShowReply = z.infer<typeof NoShowReply>;

/** POST /bookings/{id}/no-show and POST /bookings/{id}/no-show/contest. */
export const NoShowReportBody = z.strictObject({ note: NoShowNote.optional() });
/** POST /admin/bookings/{id}/no-show/decision: refund in minor units of the booking's currency. */
export const NoShowDecisionBody = z.strictObject({
  upheld: z.boolean({ error: "invalid_request" }),
  refund_cents: z
    .number({ error: "refund_amount_invalid" })
    .int({ error: "refund_amount_invalid" })
    .min(0, { error: "refund_amount_invalid" }),
  reason: DecisionReason,
});

/** Where a report stands in the console's list: open to contest, contested (an admin decides), or settled. */
export const NO_SHOW_STATES = ["open", "contested", "settled"] as const;
export const NoShowState = z.enum(NO_SHOW_STATES, { error: "invalid_request" });

/** GET /admin/no-shows: one row per booking with a report, keyed by the booking's id. */
export const AdminNoShowReply = z.strictObject({
  id: z.string(),
  booking_id: z.string(),
  expert_id: z.string(),
  expert_user_id: z.string(),
  creator_id: z.string(),
  session_title: z.string(),
  scheduled_time: z.string(),
  length_minutes: z.number().int(),
  status: z.string(),
  state: NoShowState,
  paid_cents: z.number().int(),
  refund_due_cents: z.number().int(),
  currency: z.string(),
  no_show: NoShowReply,
});
export type AdminNoShowReply = z.infer<typeof AdminNoShowReply>;
