import type { DomainEvent } from "./events.ts";
import {
  BOOKINGS_HELD,
  PLATFORM_CASH,
  PLATFORM_FEE_REVENUE,
  REFUNDS_PAYABLE,
  expertConnected,
  expertPayable,
  type LedgerEntry,
} from "./ledger.ts";
import { DEFAULT_CURRENCY } from "./currencies.ts";
import type { Currency, Money } from "./money.ts";

// The ledger's rule (issue 29.5, docs/money.md): the balanced entries each event posts. It is here
// rather than in the engine because the ledger read model applies it too, and projections may not
// import the engine. Pure: what an event does not carry comes in the context, which the caller
// keeps from earlier events of the same stream (the engine's journalOf and the ledger read model):
// - Cancelled, RefundDue, RefundIssued and DisputeClosed carry no currency: it is the booking's, from its
//   BookingRequested (or its payment); a booking from before issue 29 is in US dollars.
// - PayoutPaid carries no amount: it pays what its PayoutRequested asked for; nor does a
//   PayoutFailed after it (the bank returned the payout), which takes that payment back.
// Events that move no money (PayoutRequested, PayoutSent, PayoutFailed before a payment, TransferFailed, account
// events, everything about times and people) post nothing.

export type PostingContext = {
  /** The currency of the booking a calendar event concerns; absent: US dollars (history before issue 29). */
  bookingCurrency?: Currency;
  /** PayoutPaid and PayoutFailed only: the amount and currency their PayoutRequested asked for. */
  payoutRequested?: Money;
};

/** One line: a debit for a positive amount, a credit for a negative one, nothing for zero. */
function line(account: string, currency: Currency, cents: number): LedgerEntry[] {
  if (!Number.isInteger(cents)) throw new Error(`ledger: ${cents} is not a whole number of minor units (${account})`);
  if (cents === 0) return [];
  return [{ account, currency, debitCents: Math.max(cents, 0), creditCents: Math.max(-cents, 0) }];
}

/** `cents` moved from `credited` to `debited`: Dr debited / Cr credited. */
const move = (currency: Currency, cents: number, debited: string, credited: string): LedgerEntry[] => [
  ...line(debited, currency, cents),
  ...line(credited, currency, -cents),
];

/** The entries an event posts (none for an event that moves no money). Each event's entries sum to zero per currency. */
export function postingsOf(event: DomainEvent, context: PostingContext = {}): LedgerEntry[] {
  const bookingCurrency = context.bookingCurrency ?? DEFAULT_CURRENCY;
  switch (event.type) {
    case "PaymentSucceeded":
      return move(event.data.currency ?? bookingCurrency, event.data.amountCents, PLATFORM_CASH, BOOKINGS_HELD);
    case "Cancelled":
      return move(bookingCurrency, event.data.refundCents, BOOKINGS_HELD, REFUNDS_PAYABLE);
    case "RefundDue":
      return move(bookingCurrency, event.data.amountCents, BOOKINGS_HELD, REFUNDS_PAYABLE);
    case "RefundIssued":
      return move(bookingCurrency, event.data.amountCents, REFUNDS_PAYABLE, PLATFORM_CASH);
    // A lost dispute (issue 31.2): the creator's bank took the money back from the platform, as an owed refund paid at once.
    case "DisputeClosed":
      return move(bookingCurrency, event.data.lostCents, BOOKINGS_HELD, PLATFORM_CASH);
    case "EarningReleased": {
      // keptCents = feeCents + shareCents by the event's contract; what leaves bookings_held is what is posted on.
      const { currency, feeCents, shareCents, expertId } = event.data;
      return [
        ...line(BOOKINGS_HELD, currency, feeCents + shareCents),
        ...line(PLATFORM_FEE_REVENUE, currency, -feeCents),
        ...line(expertPayable(expertId), currency, -shareCents),
      ];
    }
    case "EarningAdjusted": {
      const { currency, feeCents, shareCents, expertId } = event.data;
      return [
        ...line(PLATFORM_FEE_REVENUE, currency, feeCents),
        ...line(expertPayable(expertId), currency, shareCents),
        ...line(BOOKINGS_HELD, currency, -(feeCents + shareCents)),
      ];
    }
    case "TransferSent":
      return move(event.data.currency, event.data.amountCents, expertConnected(event.data.expertId), PLATFORM_CASH);
    case "TransferReversed":
      return move(event.data.currency, event.data.amountCents, PLATFORM_CASH, expertConnected(event.data.expertId));
    case "PayoutPaid": {
      const asked = context.payoutRequested;
      // The decider records a payout's request before it is paid: one paid without it is a corrupt log, not a zero.
      if (!asked) throw new Error(`ledger: PayoutPaid ${event.data.payoutKey} of expert ${event.data.expertId} has no PayoutRequested`);
      const { expertId } = event.data;
      return move(asked.currency, asked.amountCents, expertPayable(expertId), expertConnected(expertId));
    }
    case "PayoutFailed": {
      // Failed before it was paid, it moved nothing; returned after, the payment is taken back.
      if (!event.data.afterPaid) return [];
      const asked = context.payoutRequested;
      if (!asked) throw new Error(`ledger: PayoutFailed ${event.data.payoutKey} of expert ${event.data.expertId} has no PayoutRequested`);
      const { expertId } = event.data;
      return move(asked.currency, asked.amountCents, expertConnected(expertId), expertPayable(expertId));
    }
    default:
      return [];
  }
}

/** What a posting leaves of each currency: debits − credits (zero for every currency of a balanced posting). */
export function imbalanceOf(entries: readonly LedgerEntry[]): Map<Currency, number> {
  const left = new Map<Currency, number>();
  for (const e of entries) left.set(e.currency, (left.get(e.currency) ?? 0) + e.debitCents - e.creditCents);
  return left;
}

export const isBalanced = (entries: readonly LedgerEntry[]): boolean => [...imbalanceOf(entries).values()].every((v) => v === 0);
