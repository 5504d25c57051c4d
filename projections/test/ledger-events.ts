import { earningSplit, type Currency, type DomainEvent } from "@booking/contracts";
import type { GivenEvent } from "./read-model-spec.ts";

// A few bookings' money, as the calendar and payouts streams record it, for the ledger's tests:
// b1 (EUR) paid, completed, released, transferred, refunded in part after the transfer (adjusted,
// reversed) and paid out; b2 from before issue 29 (no currency: US dollars) cancelled with a full
// refund; b3 (GBP, another expert) cancelled with half refunded, and a payout that failed.

export const X1 = "expert-1";
export const X2 = "expert-2";
const calendar = (expert: string, event: DomainEvent): GivenEvent => ({ stream: `calendar-${expert}`, event });
const payouts = (expert: string, event: DomainEvent): GivenEvent => ({ stream: `payouts-${expert}`, event });

const requested = (bookingId: string, expertId: string, currency?: Currency): DomainEvent => ({
  type: "BookingRequested",
  data: {
    bookingId,
    expertId,
    expertUserId: expertId,
    creatorId: "c1",
    sessionId: "s1",
    sessionTitle: "Pricing review",
    lengthMinutes: 60,
    priceCents: 15_000,
    prepQuestions: [],
    scheduledTime: "2030-01-20T10:00:00.000Z",
    heldUntil: "2030-01-06T09:15:00.000Z",
    ...(currency && { currency }),
  },
});
const paid = (bookingId: string, amountCents: number, currency?: Currency): DomainEvent => ({
  type: "PaymentSucceeded",
  data: { bookingId, paymentId: `pi-${bookingId}`, amountCents, provider: "test", ...(currency && { currency, feeBasisPoints: 1500 }) },
});
const cancelled = (bookingId: string, refundCents: number): DomainEvent => ({
  type: "Cancelled",
  data: { bookingId, by: "creator", reason: "", refundCents },
});
const issued = (bookingId: string, amountCents: number, refundKey: string): DomainEvent => ({
  type: "RefundIssued",
  data: { bookingId, refundKey, refundId: `re-${refundKey}`, amountCents, provider: "test" },
});

const release = earningSplit(15_000, 0, 1500); // kept 15000, fee 2250, share 12750
const after = earningSplit(15_000, 5_000, 1500); // kept 10000, fee 1500, share 8500
export const B1_GIVEN_BACK = { feeCents: release.feeCents - after.feeCents, shareCents: release.shareCents - after.shareCents };

export const moneyStory: GivenEvent[] = [
  calendar(X1, requested("b1", X1, "EUR")),
  calendar(X1, paid("b1", 15_000, "EUR")),
  calendar(X1, { type: "Confirmed", data: { bookingId: "b1", by: "expert" } }),
  calendar(X1, requested("b2", X1)),
  calendar(X1, paid("b2", 9_900)),
  calendar(X2, requested("b3", X2, "GBP")),
  calendar(X2, paid("b3", 20_000, "GBP")),
  calendar(X1, cancelled("b2", 9_900)),
  calendar(X1, { type: "Completed", data: { bookingId: "b1" } }),
  calendar(X2, cancelled("b3", 10_000)),
  payouts(X1, {
    type: "EarningReleased",
    data: { expertId: X1, bookingId: "b1", currency: "EUR", paidCents: 15_000, refundedCents: 0, feeBasisPoints: 1500, ...release },
  }),
  calendar(X1, issued("b2", 9_900, "owed-b2")),
  payouts(X1, {
    type: "TransferSent",
    data: { expertId: X1, bookingId: "b1", currency: "EUR", amountCents: 12_750, transferKey: "transfer-b1", transferId: "tr-b1" },
  }),
  calendar(X2, issued("b3", 10_000, "owed-b3")),
  calendar(X1, { type: "RefundDue", data: { bookingId: "b1", paymentId: "pi-b1", amountCents: 5_000, reason: "admin" } }),
  payouts(X1, {
    type: "EarningAdjusted",
    data: { expertId: X1, bookingId: "b1", currency: "EUR", refundedCents: 5_000, ...B1_GIVEN_BACK },
  }),
  payouts(X1, {
    type: "TransferReversed",
    data: {
      expertId: X1,
      bookingId: "b1",
      currency: "EUR",
      amountCents: B1_GIVEN_BACK.shareCents,
      reversalKey: "reversal-b1-5000",
      transferId: "tr-b1",
      reversalId: "trr-b1",
    },
  }),
  calendar(X1, issued("b1", 5_000, "owed-b1")),
  payouts(X1, { type: "PayoutRequested", data: { expertId: X1, payoutKey: "po-1", currency: "EUR", amountCents: 8_500, by: "expert" } }),
  payouts(X1, { type: "PayoutSent", data: { expertId: X1, payoutKey: "po-1", payoutId: "po_1" } }),
  payouts(X1, { type: "PayoutPaid", data: { expertId: X1, payoutKey: "po-1", payoutId: "po_1" } }),
  payouts(X2, { type: "PayoutRequested", data: { expertId: X2, payoutKey: "po-1", currency: "GBP", amountCents: 3_000, by: "schedule" } }),
  payouts(X2, { type: "PayoutFailed", data: { expertId: X2, payoutKey: "po-1", reason: "account_closed" } }),
];

/** b4: requested, its hold expired unpaid; b5 requested and cancelled before any payment: no money moved. */
export const unpaidStory: GivenEvent[] = [
  calendar(X1, requested("b4", X1, "EUR")),
  calendar(X1, { type: "Cancelled", data: { bookingId: "b4", by: "system", reason: "payment_timeout", refundCents: 0 } }),
  calendar(X1, requested("b5", X1, "EUR")),
  calendar(X1, cancelled("b5", 0)),
];
