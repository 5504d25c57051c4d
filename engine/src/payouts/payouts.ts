import {
  earningSplit,
  ok,
  PAYOUT_MINIMUM_CENTS,
  refused,
  releasableAt,
  type Actor,
  type Currency,
  type PayoutCommand,
  type PayoutEvent,
  type PayoutProviderName,
  type Result,
} from "@booking/contracts";
import type { Decider, DecisionContext } from "../decider.ts";
import { ShardedMap } from "./sharded-map.ts";

// Stream `payouts-{expertId}` (issue 29): an expert's payout account, an admin's hold, each booking's
// share released after the clearing period (and adjusted by later refunds), the transfers of those
// shares to the expert's account, their reversals, and the expert's payouts. The booking's facts
// come in the command (read by the caller from the bookings read model); this decider decides.

export type PayoutAccount = {
  accountId: string;
  provider: PayoutProviderName;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** When the provider said what the account's status is (null: not said, or said before reports were ordered). */
  statusReportedAt: string | null;
};

/** A released booking as it stands now: `refundedCents`, `feeCents` and `shareCents` follow every adjustment. */
export type ReleasedEarning = {
  bookingId: string;
  currency: Currency;
  paidCents: number;
  refundedCents: number;
  feeBasisPoints: number;
  feeCents: number;
  shareCents: number;
  /** Sent to the expert's account for this booking, and taken back by reversals. */
  transferredCents: number;
  reversedCents: number;
  transferFailures: number;
};

export type PayoutStatus = "requested" | "in_transit" | "paid" | "failed";
export type Payout = {
  payoutKey: string;
  amountCents: number;
  currency: Currency;
  by: "expert" | "schedule" | "admin";
  status: PayoutStatus;
  payoutId: string | null;
  failureReason: string | null;
};

export type PayoutState = {
  account: PayoutAccount | null;
  held: { reason: string; by: string } | null;
  /** By booking id. */
  earnings: ShardedMap<ReleasedEarning>;
  /** Transfer and reversal keys already recorded (the provider moved the money under them), to their booking id. */
  transferKeys: ShardedMap<string>;
  reversalKeys: ShardedMap<string>;
  /** By payout key, in the order asked. */
  payouts: ReadonlyMap<string, Payout>;
};

export const initialPayoutState = (): PayoutState => ({
  account: null,
  held: null,
  earnings: ShardedMap.empty(),
  transferKeys: ShardedMap.empty(),
  reversalKeys: ShardedMap.empty(),
  payouts: new Map(),
});

/**
 * Folds events into a new state; the given state is never changed. Earnings and keys are sharded maps
 * (an event copies a shard, not all of them); payouts, a few a month, are copied once per call.
 */
export function evolvePayouts(state: PayoutState, events: readonly PayoutEvent[]): PayoutState {
  let { account, held, earnings, transferKeys, reversalKeys } = state;
  const payouts = new Map(state.payouts);
  const onEarning = (bookingId: string, change: (e: ReleasedEarning) => Partial<ReleasedEarning>) => {
    const e = earnings.get(bookingId);
    if (e) earnings = earnings.with(bookingId, { ...e, ...change(e) });
  };
  const onPayout = (payoutKey: string, change: Partial<Payout>) => {
    const p = payouts.get(payoutKey);
    if (p) payouts.set(payoutKey, { ...p, ...change });
  };
  for (const e of events) {
    switch (e.type) {
      case "PayoutAccountConnected":
        account = {
          accountId: e.data.accountId,
          provider: e.data.provider,
          payoutsEnabled: false,
          detailsSubmitted: false,
          statusReportedAt: null,
        };
        break;
      case "PayoutAccountUpdated":
        if (account?.accountId === e.data.accountId)
          account = {
            ...account,
            payoutsEnabled: e.data.payoutsEnabled,
            detailsSubmitted: e.data.detailsSubmitted,
            statusReportedAt: e.data.reportedAt ?? account.statusReportedAt,
          };
        break;
      case "PayoutsHeld":
        held = { reason: e.data.reason, by: e.data.by };
        break;
      case "PayoutsResumed":
        held = null;
        break;
      case "EarningReleased": {
        const d = e.data;
        earnings = earnings.with(d.bookingId, {
          bookingId: d.bookingId,
          currency: d.currency,
          paidCents: d.paidCents,
          refundedCents: d.refundedCents,
          feeBasisPoints: d.feeBasisPoints,
          feeCents: d.feeCents,
          shareCents: d.shareCents,
          transferredCents: 0,
          reversedCents: 0,
          transferFailures: 0,
        });
        break;
      }
      case "EarningAdjusted":
        onEarning(e.data.bookingId, (x) => ({
          refundedCents: e.data.refundedCents,
          feeCents: x.feeCents - e.data.feeCents,
          shareCents: x.shareCents - e.data.shareCents,
        }));
        break;
      case "TransferSent":
        transferKeys = transferKeys.with(e.data.transferKey, e.data.bookingId);
        onEarning(e.data.bookingId, (x) => ({ transferredCents: x.transferredCents + e.data.amountCents }));
        break;
      case "TransferFailed":
        onEarning(e.data.bookingId, (x) => ({ transferFailures: x.transferFailures + 1 }));
        break;
      case "TransferReversalFailed":
        break; // the reversal stays due: reversalsDue asks again
      case "TransferReversed":
        reversalKeys = reversalKeys.with(e.data.reversalKey, e.data.bookingId);
        onEarning(e.data.bookingId, (x) => ({ reversedCents: x.reversedCents + e.data.amountCents }));
        break;
      case "PayoutRequested":
        payouts.set(e.data.payoutKey, {
          payoutKey: e.data.payoutKey,
          amountCents: e.data.amountCents,
          currency: e.data.currency,
          by: e.data.by,
          status: "requested",
          payoutId: null,
          failureReason: null,
        });
        break;
      case "PayoutSent":
        onPayout(e.data.payoutKey, { status: "in_transit", payoutId: e.data.payoutId });
        break;
      case "PayoutPaid":
        onPayout(e.data.payoutKey, { status: "paid", payoutId: e.data.payoutId });
        break;
      case "PayoutFailed":
        onPayout(e.data.payoutKey, { status: "failed", failureReason: e.data.reason });
        break;
    }
  }
  return { account, held, earnings, transferKeys, reversalKeys, payouts };
}

/**
 * What of a booking's transfer a payout may take: what is on the expert's account for it, but never more than their share.
 * A refund after the transfer shrinks the share at once, and the reversal of the difference follows; until it does, that
 * difference is the platform's and no payout may take it.
 */
export const payableOfEarning = (e: ReleasedEarning): number => Math.min(e.transferredCents - e.reversedCents, e.shareCents);

/** Rule: what a payout may take in a currency: each booking's payable part (payableOfEarning), less payouts not failed. */
export function payableCents(s: PayoutState, currency: Currency): number {
  let total = 0;
  for (const e of s.earnings.values()) if (e.currency === currency) total += payableOfEarning(e);
  for (const p of s.payouts.values()) if (p.currency === currency && p.status !== "failed") total -= p.amountCents;
  return total;
}

const isSystemOrAdmin = (a: Actor) => a.role === "system" || a.role === "admin";
const isTheExpert = (a: Actor, expertId: string) => a.role === "expert" && a.userId === expertId;
const formatMinimum = (currency: Currency) => `${(PAYOUT_MINIMUM_CENTS[currency] / 100).toFixed(2)} ${currency}`;

export function decidePayouts(c: PayoutCommand, s: PayoutState, ctx: DecisionContext): Result<PayoutEvent[]> {
  const expertId = c.expertId;
  switch (c.type) {
    case "ConnectPayoutAccount": {
      // Rule: the expert connects their own account (or an admin for them); an enabled account is not replaced.
      if (!isTheExpert(c.actor, expertId) && c.actor.role !== "admin") return refused("forbidden");
      if (s.account?.payoutsEnabled) return refused("payout_account_exists");
      if (s.account?.accountId === c.accountId) return ok([]);
      return ok([{ type: "PayoutAccountConnected", data: { expertId, accountId: c.accountId, provider: c.provider } }]);
    }
    case "RecordPayoutAccountStatus": {
      if (!isSystemOrAdmin(c.actor)) return refused("forbidden");
      // An update about an account that is not (or no longer) the expert's changes nothing.
      const a = s.account;
      if (!a || a.accountId !== c.accountId) return ok([]);
      // Rule: reports arrive out of order; one older than the last recorded is stale. A newer one is recorded even when it says
      // the same, so that a report older than it (and newer than the last change) cannot undo it.
      const reportedAt = c.reportedAt;
      if (reportedAt && a.statusReportedAt && Date.parse(reportedAt) < Date.parse(a.statusReportedAt)) return ok([]);
      const same = a.payoutsEnabled === c.payoutsEnabled && a.detailsSubmitted === c.detailsSubmitted;
      if (same && (!reportedAt || reportedAt === a.statusReportedAt)) return ok([]);
      const data = { expertId, accountId: c.accountId, payoutsEnabled: c.payoutsEnabled, detailsSubmitted: c.detailsSubmitted };
      return ok([{ type: "PayoutAccountUpdated", data: { ...data, ...(reportedAt && { reportedAt }) } }]);
    }
    case "HoldPayouts": {
      // Rule: an admin holds an expert's payouts with a reason (the expert is told); holding again records nothing.
      if (c.actor.role !== "admin") return refused("forbidden");
      const reason = c.reason.trim();
      if (!reason) return refused("payouts_hold_reason_required");
      if (s.held) return ok([]);
      return ok([{ type: "PayoutsHeld", data: { expertId, reason, by: c.actor.userId } }]);
    }
    case "ResumePayouts": {
      if (c.actor.role !== "admin") return refused("forbidden");
      if (!s.held) return ok([]);
      return ok([{ type: "PayoutsResumed", data: { expertId, by: c.actor.userId } }]);
    }
    case "ReleaseEarning": {
      if (!isSystemOrAdmin(c.actor)) return refused("forbidden");
      const e = c.earning;
      // Rule: released once per booking, once its clearing period after completion is over; nothing kept, nothing released.
      if (s.earnings.has(e.bookingId)) return ok([]);
      if (Date.parse(ctx.now) < Date.parse(releasableAt(e.completedAt))) return refused("earning_clearing");
      const split = earningSplit(e.paidCents, e.refundedCents, e.feeBasisPoints);
      if (split.keptCents === 0) return ok([]);
      const { bookingId, currency, paidCents, refundedCents, feeBasisPoints } = e;
      return ok([{ type: "EarningReleased", data: { expertId, bookingId, currency, paidCents, refundedCents, feeBasisPoints, ...split } }]);
    }
    case "AdjustEarning": {
      if (!isSystemOrAdmin(c.actor)) return refused("forbidden");
      // Rule: a refund after the release gives back the fee and the share on the refunded part; before it, the release counts it.
      const e = s.earnings.get(c.bookingId);
      if (!e || c.refundedCents <= e.refundedCents) return ok([]);
      const before = earningSplit(e.paidCents, e.refundedCents, e.feeBasisPoints);
      const after = earningSplit(e.paidCents, c.refundedCents, e.feeBasisPoints);
      const feeCents = Math.max(0, before.feeCents - after.feeCents);
      const shareCents = Math.max(0, before.shareCents - after.shareCents);
      if (feeCents === 0 && shareCents === 0) return ok([]);
      const data = { expertId, bookingId: c.bookingId, currency: e.currency, refundedCents: c.refundedCents, feeCents, shareCents };
      return ok([{ type: "EarningAdjusted", data }]);
    }
    case "RecordTransfer": {
      if (!isSystemOrAdmin(c.actor)) return refused("forbidden");
      if (s.transferKeys.has(c.transferKey)) return ok([]);
      const e = s.earnings.get(c.bookingId);
      if (!e) return refused("earning_not_completed");
      if (c.currency !== e.currency) return refused("currency_mismatch");
      const { transferKey, bookingId, transferId, amountCents, currency } = c;
      return ok([{ type: "TransferSent", data: { expertId, transferKey, bookingId, transferId, amountCents, currency } }]);
    }
    case "RecordTransferFailure": {
      if (!isSystemOrAdmin(c.actor)) return refused("forbidden");
      // A failure reported after the transfer went through is stale: the money moved.
      if (s.transferKeys.has(c.transferKey)) return ok([]);
      return ok([{ type: "TransferFailed", data: { expertId, transferKey: c.transferKey, bookingId: c.bookingId, reason: c.reason } }]);
    }
    case "RecordTransferReversalFailure": {
      if (!isSystemOrAdmin(c.actor)) return refused("forbidden");
      // A failure reported after the reversal went through is stale: the money came back.
      if (s.reversalKeys.has(c.reversalKey)) return ok([]);
      const data = { expertId, reversalKey: c.reversalKey, bookingId: c.bookingId, reason: c.reason };
      return ok([{ type: "TransferReversalFailed", data }]);
    }
    case "RecordTransferReversal": {
      if (!isSystemOrAdmin(c.actor)) return refused("forbidden");
      if (s.reversalKeys.has(c.reversalKey)) return ok([]);
      const e = s.earnings.get(c.bookingId);
      if (!e) return refused("earning_not_completed");
      if (c.currency !== e.currency) return refused("currency_mismatch");
      const { reversalKey, bookingId, transferId, reversalId, amountCents, currency } = c;
      return ok([{ type: "TransferReversed", data: { expertId, reversalKey, bookingId, transferId, reversalId, amountCents, currency } }]);
    }
    case "RequestPayout":
      return decideRequestPayout(c, s);
    case "RecordPayoutSent":
    case "RecordPayoutPaid":
    case "RecordPayoutFailure": {
      if (!isSystemOrAdmin(c.actor)) return refused("forbidden");
      const p = s.payouts.get(c.payoutKey);
      if (!p) return refused("payout_not_found");
      // Rule: each news about a payout is recorded once; a failed payout is settled and stays so. A paid one can still fail:
      // the bank returns it (Stripe says payout.failed after payout.paid), and its money is back on the expert's account.
      if (p.status === "failed") return ok([]);
      if (p.status === "paid") {
        if (c.type !== "RecordPayoutFailure") return ok([]);
        return ok([{ type: "PayoutFailed", data: { expertId, payoutKey: c.payoutKey, reason: c.reason, afterPaid: true } }]);
      }
      if (c.type === "RecordPayoutSent") {
        if (p.status === "in_transit") return ok([]);
        return ok([{ type: "PayoutSent", data: { expertId, payoutKey: c.payoutKey, payoutId: c.payoutId } }]);
      }
      if (c.type === "RecordPayoutPaid")
        return ok([{ type: "PayoutPaid", data: { expertId, payoutKey: c.payoutKey, payoutId: c.payoutId } }]);
      return ok([{ type: "PayoutFailed", data: { expertId, payoutKey: c.payoutKey, reason: c.reason } }]);
    }
  }
}

function decideRequestPayout(c: Extract<PayoutCommand, { type: "RequestPayout" }>, s: PayoutState): Result<PayoutEvent[]> {
  // The expert asks for their own payouts (as "expert": the minimum applies); the schedule and admins for anyone's.
  const asTheExpert = isTheExpert(c.actor, c.expertId) && c.by === "expert";
  if (!asTheExpert && !isSystemOrAdmin(c.actor)) return refused("forbidden");
  if (s.payouts.has(c.payoutKey)) return ok([]);
  // Rule: paid only to an enabled account, not on hold, from money already on that account.
  if (!s.account) return refused("payout_account_required");
  if (!s.account.payoutsEnabled) return refused("payout_account_incomplete");
  if (s.held) return refused("payouts_held");
  const available = payableCents(s, c.currency);
  if (available <= 0) return refused("payout_nothing_available");
  const amountCents = c.amountCents ?? available;
  // Rule: an expert asks for at least the minimum; the weekly schedule (and an admin) pays any amount.
  if (c.by === "expert" && amountCents < PAYOUT_MINIMUM_CENTS[c.currency])
    return refused("payout_below_minimum", { minimum: formatMinimum(c.currency) });
  if (amountCents > available) return refused("payout_exceeds_available");
  return ok([
    { type: "PayoutRequested", data: { expertId: c.expertId, payoutKey: c.payoutKey, amountCents, currency: c.currency, by: c.by } },
  ]);
}

export const payoutDecider: Decider<PayoutCommand, PayoutEvent, PayoutState> = {
  initialState: initialPayoutState,
  evolve: evolvePayouts,
  decide: decidePayouts,
};
