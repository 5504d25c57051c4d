import type { Actor, PayoutCommand, PayoutEvent, ReleasableEarning } from "@booking/contracts";
import { payoutDecider } from "../../src/payouts/payouts.ts";
import { deciderSpec } from "./decider-spec.ts";

// Given/when/then for the payouts stream of expert "ux1".

export const NOW = "2030-03-20T12:00:00.000Z";
export const COMPLETED_AT = "2030-03-10T12:00:00.000Z";
export const EXPERT: Actor = { userId: "ux1", role: "expert" };
export const OTHER_EXPERT: Actor = { userId: "ux2", role: "expert" };
export const CREATOR: Actor = { userId: "c1", role: "creator" };
export const ADMIN: Actor = { userId: "a1", role: "admin" };
export const SYSTEM: Actor = { userId: "system", role: "system" };

export const spec = deciderSpec(payoutDecider, NOW);

type Of<T extends PayoutCommand["type"]> = Extract<PayoutCommand, { type: T }>;
const on = { expertId: "ux1" };

export const connect = (o: Partial<Of<"ConnectPayoutAccount">> = {}): PayoutCommand => ({
  type: "ConnectPayoutAccount",
  ...on,
  actor: EXPERT,
  accountId: "acct_1",
  provider: "test",
  ...o,
});
export const accountStatus = (o: Partial<Of<"RecordPayoutAccountStatus">> = {}): PayoutCommand => ({
  type: "RecordPayoutAccountStatus",
  ...on,
  actor: SYSTEM,
  accountId: "acct_1",
  payoutsEnabled: true,
  detailsSubmitted: true,
  ...o,
});
export const hold = (reason = "Disputed sessions", actor: Actor = ADMIN): PayoutCommand => ({ type: "HoldPayouts", ...on, actor, reason });
export const resume = (actor: Actor = ADMIN): PayoutCommand => ({ type: "ResumePayouts", ...on, actor });

export const earning = (o: Partial<ReleasableEarning> = {}): ReleasableEarning => ({
  bookingId: "b1",
  currency: "USD",
  paidCents: 15_000,
  refundedCents: 0,
  feeBasisPoints: 1500,
  completedAt: COMPLETED_AT,
  ...o,
});
export const release = (o: Partial<ReleasableEarning> = {}, actor: Actor = SYSTEM): PayoutCommand => ({
  type: "ReleaseEarning",
  ...on,
  actor,
  earning: earning(o),
});
export const adjust = (refundedCents: number, bookingId = "b1", actor: Actor = SYSTEM): PayoutCommand => ({
  type: "AdjustEarning",
  ...on,
  actor,
  bookingId,
  refundedCents,
});
export const recordTransfer = (o: Partial<Of<"RecordTransfer">> = {}): PayoutCommand => ({
  type: "RecordTransfer",
  ...on,
  actor: SYSTEM,
  transferKey: "transfer-b1",
  bookingId: "b1",
  transferId: "tr_b1",
  amountCents: 12_750,
  currency: "USD",
  ...o,
});
export const recordTransferFailure = (o: Partial<Of<"RecordTransferFailure">> = {}): PayoutCommand => ({
  type: "RecordTransferFailure",
  ...on,
  actor: SYSTEM,
  transferKey: "transfer-b1",
  bookingId: "b1",
  reason: "insufficient_funds",
  ...o,
});
export const recordReversalFailure = (o: Partial<Of<"RecordTransferReversalFailure">> = {}): PayoutCommand => ({
  type: "RecordTransferReversalFailure",
  ...on,
  actor: SYSTEM,
  reversalKey: "reversal-b1-5000",
  bookingId: "b1",
  reason: "balance_insufficient",
  ...o,
});
export const recordReversal = (o: Partial<Of<"RecordTransferReversal">> = {}): PayoutCommand => ({
  type: "RecordTransferReversal",
  ...on,
  actor: SYSTEM,
  reversalKey: "reversal-b1-5000",
  bookingId: "b1",
  transferId: "tr_b1",
  reversalId: "trr_1",
  amountCents: 4250,
  currency: "USD",
  ...o,
});
export const requestPayout = (o: Partial<Of<"RequestPayout">> = {}): PayoutCommand => ({
  type: "RequestPayout",
  ...on,
  actor: EXPERT,
  payoutKey: "payout-1",
  currency: "USD",
  by: "expert",
  ...o,
});
export const payoutSent = (payoutKey = "payout-1", actor: Actor = SYSTEM): PayoutCommand => ({
  type: "RecordPayoutSent",
  ...on,
  actor,
  payoutKey,
  payoutId: "po_1",
});
export const payoutPaid = (payoutKey = "payout-1", actor: Actor = SYSTEM): PayoutCommand => ({
  type: "RecordPayoutPaid",
  ...on,
  actor,
  payoutKey,
  payoutId: "po_1",
});
export const payoutFailure = (payoutKey = "payout-1", actor: Actor = SYSTEM): PayoutCommand => ({
  type: "RecordPayoutFailure",
  ...on,
  actor,
  payoutKey,
  reason: "account_closed",
});

// Events.
export const connected: PayoutEvent = { type: "PayoutAccountConnected", data: { ...on, accountId: "acct_1", provider: "test" } };
export const enabled: PayoutEvent = {
  type: "PayoutAccountUpdated",
  data: { ...on, accountId: "acct_1", payoutsEnabled: true, detailsSubmitted: true },
};
export const held: PayoutEvent = { type: "PayoutsHeld", data: { ...on, reason: "Disputed sessions", by: "a1" } };
export const resumed: PayoutEvent = { type: "PayoutsResumed", data: { ...on, by: "a1" } };
/** $150 paid, 15 % fee: $22.50 to the platform, $127.50 to the expert. */
export const released = (bookingId = "b1", currency: "USD" | "EUR" = "USD"): PayoutEvent => ({
  type: "EarningReleased",
  data: {
    ...on,
    bookingId,
    currency,
    paidCents: 15_000,
    refundedCents: 0,
    keptCents: 15_000,
    feeBasisPoints: 1500,
    feeCents: 2250,
    shareCents: 12_750,
  },
});
export const transferred = (bookingId = "b1", currency: "USD" | "EUR" = "USD", amountCents = 12_750): PayoutEvent => ({
  type: "TransferSent",
  data: { ...on, transferKey: `transfer-${bookingId}`, bookingId, transferId: `tr_${bookingId}`, amountCents, currency },
});
export const reversed = (amountCents = 4250, bookingId = "b1", refundedCents = 5000): PayoutEvent => ({
  type: "TransferReversed",
  data: {
    ...on,
    reversalKey: `reversal-${bookingId}-${refundedCents}`,
    bookingId,
    transferId: `tr_${bookingId}`,
    reversalId: "trr_1",
    amountCents,
    currency: "USD",
  },
});
/** $50 of the $150 refunded after the release: fee 2250 -> 1500, share 12750 -> 8500. */
export const adjusted: PayoutEvent = {
  type: "EarningAdjusted",
  data: { ...on, bookingId: "b1", currency: "USD", refundedCents: 5000, feeCents: 750, shareCents: 4250 },
};
export const payoutRequested = (
  amountCents = 12_750,
  payoutKey = "payout-1",
  by: "expert" | "schedule" | "admin" = "expert",
): PayoutEvent => ({
  type: "PayoutRequested",
  data: { ...on, payoutKey, amountCents, currency: "USD", by },
});
export const sent = (payoutKey = "payout-1"): PayoutEvent => ({ type: "PayoutSent", data: { ...on, payoutKey, payoutId: "po_1" } });
export const paid = (payoutKey = "payout-1"): PayoutEvent => ({ type: "PayoutPaid", data: { ...on, payoutKey, payoutId: "po_1" } });
export const failed = (payoutKey = "payout-1"): PayoutEvent => ({
  type: "PayoutFailed",
  data: { ...on, payoutKey, reason: "account_closed" },
});
/** The bank returned a payout already paid. */
export const returned = (payoutKey = "payout-1"): PayoutEvent => ({
  type: "PayoutFailed",
  data: { ...on, payoutKey, reason: "account_closed", afterPaid: true },
});

/** An enabled account with one $150 booking released and its $127.50 transferred. */
export const readyToPay: PayoutEvent[] = [connected, enabled, released(), transferred()];
