import { CURRENCIES, reversalKeyOf, transferKeyOf, type Currency } from "@booking/contracts";
import { payableOfEarning, type PayoutState } from "./payouts.ts";

// What an expert's payouts stream says they are owed and where that money is, per currency (amounts
// of different currencies are never added). Pending money (paid, not yet released) is not on this
// stream: the bookings read model knows it.

export type PayoutBalance = {
  currency: Currency;
  /** Released shares less what later refunds took back: the expert's money. */
  owedCents: number;
  /** Sent to the expert's account, less reversals. */
  transferredCents: number;
  /** Payouts asked for or sent, not yet paid (nor failed). */
  inTransitCents: number;
  paidOutCents: number;
  /** Shown to the expert: owed, less what is on its way or paid out. */
  availableCents: number;
  /** What a payout may take now: transferred (never more than the share: payableOfEarning), less what is on its way or paid out. */
  payableCents: number;
  /** Owed and not yet transferred (negative: more was transferred than is owed, a reversal is due). */
  transferableCents: number;
};

/** Balances per currency the expert has money in, in the order of CURRENCIES. */
export function payoutBalances(state: PayoutState): PayoutBalance[] {
  const byCurrency = new Map<Currency, PayoutBalance>();
  const of = (currency: Currency): PayoutBalance => {
    let b = byCurrency.get(currency);
    if (!b) {
      b = {
        currency,
        owedCents: 0,
        transferredCents: 0,
        inTransitCents: 0,
        paidOutCents: 0,
        availableCents: 0,
        payableCents: 0,
        transferableCents: 0,
      };
      byCurrency.set(currency, b);
    }
    return b;
  };
  for (const e of state.earnings.values()) {
    const b = of(e.currency);
    b.owedCents += e.shareCents;
    b.transferredCents += e.transferredCents - e.reversedCents;
    b.payableCents += payableOfEarning(e);
  }
  for (const p of state.payouts.values()) {
    const b = of(p.currency);
    if (p.status === "requested" || p.status === "in_transit") b.inTransitCents += p.amountCents;
    if (p.status === "paid") b.paidOutCents += p.amountCents;
  }
  for (const b of byCurrency.values()) {
    b.availableCents = b.owedCents - b.inTransitCents - b.paidOutCents;
    b.payableCents -= b.inTransitCents + b.paidOutCents;
    b.transferableCents = b.owedCents - b.transferredCents;
  }
  return CURRENCIES.flatMap((currency) => byCurrency.get(currency) ?? []);
}

export type TransferDue = { bookingId: string; transferKey: string; amountCents: number; currency: Currency };
export type ReversalDue = { bookingId: string; reversalKey: string; amountCents: number; currency: Currency };

const byBooking = (a: { bookingId: string }, b: { bookingId: string }) => a.bookingId.localeCompare(b.bookingId);

/** Rule: one transfer per released booking with a share, under its booking's key, once (never a second one); by booking id. */
export function transfersDue(state: PayoutState): TransferDue[] {
  const due: TransferDue[] = [];
  for (const e of state.earnings.values()) {
    const transferKey = transferKeyOf(e.bookingId);
    if (e.shareCents > 0 && !state.transferKeys.has(transferKey))
      due.push({ bookingId: e.bookingId, transferKey, amountCents: e.shareCents, currency: e.currency });
  }
  return due.sort(byBooking);
}

/** Rule: when a booking's share shrank below what was transferred for it, the difference is reversed, keyed by the refunded total; by booking id. */
export function reversalsDue(state: PayoutState): ReversalDue[] {
  const due: ReversalDue[] = [];
  for (const e of state.earnings.values()) {
    const over = e.transferredCents - e.reversedCents - e.shareCents;
    const reversalKey = reversalKeyOf(e.bookingId, e.refundedCents);
    if (e.transferredCents > 0 && over > 0 && !state.reversalKeys.has(reversalKey))
      due.push({ bookingId: e.bookingId, reversalKey, amountCents: over, currency: e.currency });
  }
  return due.sort(byBooking);
}
