import { FULL_REFUND_NOTICE_HOURS } from "@booking/contracts";

// The cancellation policy (issue 15), one pure rule: what a cancellation gives back. The decider
// writes its answer into `Cancelled.refundCents`; GET /bookings/{id}/cancellation shows the same
// answer before anyone confirms, so the page never restates the rule.

export type CancellingParty = "creator" | "expert" | "admin" | "system";

/** What the rule reads of a booking. */
export type RefundableBooking = {
  status: string;
  scheduledTime: string;
  /** Every cent received for the booking. */
  paidCents: number;
  /** Cents already owed back (refunds issued or still to pay). */
  owedCents: number;
  /** The booking's own cut-off (issue 31.4); absent: FULL_REFUND_NOTICE_HOURS. */
  fullRefundHours?: number;
};

/** What was paid and is not already owed back: the most any refund can give. */
export const refundableCents = (b: Pick<RefundableBooking, "paidCents" | "owedCents">): number => Math.max(0, b.paidCents - b.owedCents);

/** The last moment a creator can cancel a confirmed booking and get everything back: the booking's own cut-off before its start. */
export const fullRefundUntil = (b: Pick<RefundableBooking, "scheduledTime" | "fullRefundHours">): string =>
  new Date(Date.parse(b.scheduledTime) - (b.fullRefundHours ?? FULL_REFUND_NOTICE_HOURS) * 3_600_000).toISOString();

/**
 * Rule: the expert, an admin or the system cancelling refunds everything paid; so does a creator
 * withdrawing a request the expert has not confirmed (the expert had not committed the time yet).
 * A creator cancelling a confirmed booking gets everything back up to the booking's own cut-off
 * (its session's, when booked: 24, 48 or 72 hours; FULL_REFUND_NOTICE_HOURS before sessions set one)
 * before the start, and nothing later.
 */
export function refundOnCancel(b: RefundableBooking, by: CancellingParty, now: string): number {
  const full = refundableCents(b);
  if (by !== "creator" || b.status !== "confirmed") return full;
  return Date.parse(now) <= Date.parse(fullRefundUntil(b)) ? full : 0;
}
