import type { UnmatchedRefundWhy } from "@booking/contracts";

// Which refunds a payment provider reports (Stripe's refund.updated, charge.refunded) the product
// records: only one it asked for itself, under the key it issued, for the amount it asked, and never
// more than is left of what was paid. Anything else is money the product did not send back on
// purpose (a refund made in Stripe's dashboard, metadata copied onto another refund, a bug): it is
// listed for an admin, never written into the booking's money trail. Pure: the caller reads the facts.

/** A refund as the provider reports it. `claimed` is its metadata when it names a booking and a refund key. */
export type ReportedRefund = {
  refundId: string;
  amountCents: number;
  claimed: { refundKey: string; bookingId: string; expertId: string } | null;
};

/** The refund the product asked for under the claimed key (a row of `refunds`), or null when it issued no such key. */
export type AskedRefund = {
  refundKey: string;
  bookingId: string;
  expertId: string;
  amountCents: number;
  /** The provider's refund already recorded for this key, if any. */
  refundId: string | null;
};

export type RefundVerdict =
  { kind: "ours"; refundKey: string; bookingId: string; expertId: string } | { kind: "unmatched"; why: UnmatchedRefundWhy };

/**
 * `refundableCents`: what was paid for the booking less what other refunds of it already sent back
 * (this key's own is left out, so a report delivered again is judged as the first was).
 */
export function judgeReportedRefund(report: ReportedRefund, asked: AskedRefund | null, refundableCents: number): RefundVerdict {
  const { claimed } = report;
  if (!claimed || !asked) return { kind: "unmatched", why: "unknown_refund" };
  // The key is ours but names another booking, or it already went back as another refund: not the one we asked for.
  if (asked.bookingId !== claimed.bookingId || asked.expertId !== claimed.expertId) return { kind: "unmatched", why: "unknown_refund" };
  if (asked.refundId !== null && asked.refundId !== report.refundId) return { kind: "unmatched", why: "unknown_refund" };
  if (report.amountCents > asked.amountCents || report.amountCents > refundableCents) return { kind: "unmatched", why: "over_refund" };
  // Less than asked: recording it would close the key with money still owed.
  if (report.amountCents !== asked.amountCents) return { kind: "unmatched", why: "amount_differs" };
  return { kind: "ours", refundKey: asked.refundKey, bookingId: asked.bookingId, expertId: asked.expertId };
}
