import { earningSplit, type Currency, type DomainEvent, type EventOf } from "@booking/contracts";

// Money events as the deciders record them, for the ledger's tests: a booking's payment and
// refunds (the expert's calendar stream) and its release, transfer and payouts (payouts stream).

export const bookingRequested = (bookingId: string, expertId: string, currency?: Currency): EventOf<"BookingRequested"> => ({
  type: "BookingRequested",
  data: {
    bookingId,
    expertId,
    expertUserId: expertId,
    creatorId: "creator-1",
    sessionId: "session-1",
    sessionTitle: "Channel review",
    lengthMinutes: 30,
    priceCents: 15000,
    prepQuestions: [],
    scheduledTime: "2026-03-05T14:00:00.000Z",
    heldUntil: "2026-03-02T08:15:00.000Z",
    ...(currency && { currency }),
  },
});

export const paymentSucceeded = (bookingId: string, amountCents: number, currency?: Currency): EventOf<"PaymentSucceeded"> => ({
  type: "PaymentSucceeded",
  data: { bookingId, paymentId: `pi_${bookingId}`, amountCents, provider: "test", ...(currency && { currency, feeBasisPoints: 1500 }) },
});

export const cancelled = (bookingId: string, refundCents: number): EventOf<"Cancelled"> => ({
  type: "Cancelled",
  data: { bookingId, by: "creator", reason: "", refundCents },
});

export const refundDue = (bookingId: string, amountCents: number): EventOf<"RefundDue"> => ({
  type: "RefundDue",
  data: { bookingId, paymentId: `pi_${bookingId}`, amountCents, reason: "admin" },
});

export const refundIssued = (bookingId: string, amountCents: number, refundKey = "owed-1"): EventOf<"RefundIssued"> => ({
  type: "RefundIssued",
  data: { bookingId, refundKey, refundId: `re_${bookingId}_${refundKey}`, amountCents, provider: "test" },
});

export const completed = (bookingId: string): EventOf<"Completed"> => ({ type: "Completed", data: { bookingId } });

/** The release of a booking's share: kept, fee and share as earningSplit splits them. */
export function earningReleased(
  expertId: string,
  bookingId: string,
  currency: Currency,
  paidCents: number,
  refundedCents: number,
  feeBasisPoints = 1500,
): EventOf<"EarningReleased"> {
  const split = earningSplit(paidCents, refundedCents, feeBasisPoints);
  return { type: "EarningReleased", data: { expertId, bookingId, currency, paidCents, refundedCents, feeBasisPoints, ...split } };
}

export const earningAdjusted = (
  expertId: string,
  bookingId: string,
  currency: Currency,
  given: { refundedCents: number; feeCents: number; shareCents: number },
): EventOf<"EarningAdjusted"> => ({ type: "EarningAdjusted", data: { expertId, bookingId, currency, ...given } });

export const transferSent = (expertId: string, bookingId: string, currency: Currency, amountCents: number): EventOf<"TransferSent"> => ({
  type: "TransferSent",
  data: { expertId, bookingId, currency, amountCents, transferKey: `transfer-${bookingId}`, transferId: `tr_${bookingId}` },
});

export const transferFailed = (expertId: string, bookingId: string): EventOf<"TransferFailed"> => ({
  type: "TransferFailed",
  data: { expertId, bookingId, transferKey: `transfer-${bookingId}`, reason: "insufficient_funds" },
});

export const transferReversed = (
  expertId: string,
  bookingId: string,
  currency: Currency,
  amountCents: number,
  refundedCents: number,
): EventOf<"TransferReversed"> => ({
  type: "TransferReversed",
  data: {
    expertId,
    bookingId,
    currency,
    amountCents,
    reversalKey: `reversal-${bookingId}-${refundedCents}`,
    transferId: `tr_${bookingId}`,
    reversalId: `trr_${bookingId}_${refundedCents}`,
  },
});

export const payoutRequested = (
  expertId: string,
  payoutKey: string,
  currency: Currency,
  amountCents: number,
): EventOf<"PayoutRequested"> => ({
  type: "PayoutRequested",
  data: { expertId, payoutKey, currency, amountCents, by: "expert" },
});
export const payoutSent = (expertId: string, payoutKey: string): EventOf<"PayoutSent"> => ({
  type: "PayoutSent",
  data: { expertId, payoutKey, payoutId: `po_${payoutKey}` },
});
export const payoutPaid = (expertId: string, payoutKey: string): EventOf<"PayoutPaid"> => ({
  type: "PayoutPaid",
  data: { expertId, payoutKey, payoutId: `po_${payoutKey}` },
});
export const payoutFailed = (expertId: string, payoutKey: string, afterPaid = false): EventOf<"PayoutFailed"> => ({
  type: "PayoutFailed",
  data: { expertId, payoutKey, reason: "account_closed", ...(afterPaid && { afterPaid: true as const }) },
});

export const transferReversalFailed = (expertId: string, bookingId: string, refundedCents: number): EventOf<"TransferReversalFailed"> => ({
  type: "TransferReversalFailed",
  data: { expertId, bookingId, reversalKey: `reversal-${bookingId}-${refundedCents}`, reason: "balance_insufficient" },
});

/** Every event parses as the log would read it back. */
export type MoneyEvent = DomainEvent;
