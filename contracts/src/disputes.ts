import { z } from "zod";
import { Actor, Id } from "./primitives.ts";

// Disputes and chargebacks (issue 31.2): a creator's bank reverses a charge. The provider tells us (Stripe's
// charge.dispute.created, .updated, .closed); each becomes an event on the booking, on the expert's calendar, so
// the booking's history holds it. A lost dispute takes the money back from the platform as a refund would: the
// expert's share of it is reversed like a refund's (the payouts' owed-back rule), the platform keeps the loss of its fee.

/** Stripe's dispute statuses, as they are; `won`, `lost` and `warning_closed` end a dispute. */
export const DISPUTE_STATUSES = [
  "warning_needs_response",
  "warning_under_review",
  "warning_closed",
  "needs_response",
  "under_review",
  "won",
  "lost",
] as const;
export const DisputeStatus = z.enum(DISPUTE_STATUSES);
export type DisputeStatus = z.infer<typeof DisputeStatus>;
export const CLOSED_DISPUTE_STATUSES: readonly DisputeStatus[] = ["won", "lost", "warning_closed"];
export const disputeClosed = (status: DisputeStatus): boolean => CLOSED_DISPUTE_STATUSES.includes(status);

export const DISPUTE_STATUS_LABELS: Record<DisputeStatus, string> = {
  warning_needs_response: "Inquiry: needs a response",
  warning_under_review: "Inquiry: under review",
  warning_closed: "Inquiry closed",
  needs_response: "Needs a response",
  under_review: "Under review",
  won: "Won",
  lost: "Lost",
};

/** What the provider says of a dispute, each time it says it (amount in minor units of the booking's currency). */
export const DisputeReport = z.object({
  disputeId: z.string().min(1).max(255),
  paymentId: z.string().min(1).max(255),
  amountCents: z.number().int().nonnegative(),
  reason: z.string().max(100),
  status: DisputeStatus,
  /** The provider's deadline for evidence; null when none (closed, or not given). */
  evidenceDueBy: z.string().nullable(),
});
export type DisputeReport = z.infer<typeof DisputeReport>;

/** The calendar's dispute command (contracts' CalendarCommand includes it): the system records what the provider reported. */
export const DISPUTE_COMMANDS = [
  z.object({ type: z.literal("RecordDispute"), expertId: Id, actor: Actor, bookingId: Id, report: DisputeReport }),
] as const;

const booking = { bookingId: Id };

/** The calendar's dispute events (contracts' CalendarEvent includes them). */
export const DISPUTE_EVENTS = [
  /** `refundedCents`: what the booking had already owed back when the dispute opened (a dispute over refunded money is flagged). */
  z.object({ type: z.literal("DisputeOpened"), data: z.object({ ...booking, ...DisputeReport.shape, refundedCents: z.number().int() }) }),
  z.object({
    type: z.literal("DisputeUpdated"),
    data: z.object({ ...booking, disputeId: z.string(), status: DisputeStatus, evidenceDueBy: z.string().nullable() }),
  }),
  /** `lostCents`: what a lost dispute took back (at most what was paid and not already owed back); 0 when won or an inquiry closed. */
  z.object({
    type: z.literal("DisputeClosed"),
    data: z.object({ ...booking, disputeId: z.string(), status: DisputeStatus, lostCents: z.number().int().nonnegative() }),
  }),
] as const;

/** A booking's dispute as the console shows it. */
export const DisputeReply = z.strictObject({
  dispute_id: z.string(),
  payment_id: z.string(),
  amount_cents: z.number().int(),
  reason: z.string(),
  status: DisputeStatus,
  evidence_due_by: z.string().nullable(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
  lost_cents: z.number().int(),
  /** Owed back already when it opened: the creator's bank reversed money that had been refunded. */
  refunded_before_cents: z.number().int(),
});
export type DisputeReply = z.infer<typeof DisputeReply>;

/** GET /admin/disputes: one row per dispute, keyed by the dispute's id. */
export const AdminDisputeReply = DisputeReply.extend({
  id: z.string(),
  booking_id: z.string(),
  expert_id: z.string(),
  creator_id: z.string(),
  session_title: z.string(),
  scheduled_time: z.string(),
  currency: z.string(),
  paid_cents: z.number().int(),
});
export type AdminDisputeReply = z.infer<typeof AdminDisputeReply>;

/** POST /admin/payments/{paymentId}/test-dispute (test payment provider only): open a dispute the way a bank would. */
export const TestDisputeBody = z.strictObject({
  amount_cents: z.number({ error: "invalid_request" }).int({ error: "invalid_request" }).positive({ error: "invalid_request" }).optional(),
  reason: z.enum(["fraudulent", "product_not_received", "duplicate", "general"], { error: "invalid_request" }).default("general"),
  status: DisputeStatus.default("needs_response"),
});
