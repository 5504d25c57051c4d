import {
  BOOKINGS_HELD,
  DEFAULT_CURRENCY,
  PLATFORM_CASH,
  PLATFORM_FEE_REVENUE,
  REFUNDS_PAYABLE,
  expertConnected,
  expertPayable,
  type Currency,
  type DomainEvent,
  type LedgerEntry,
  type Money,
} from "@booking/contracts";

// The ledger's rule (issue 29.5, docs/money.md): the balanced entries each event posts. Pure: what
// an event does not carry comes in the context, which the caller keeps from earlier events of the
// same stream (journalOf below, and the ledger read model, keep it the same way):
// - Cancelled, RefundDue and RefundIssued carry no currency: it is the booking's, from its
//   BookingRequested (or its payment); a booking from before issue 29 is in US dollars.
// - PayoutPaid carries no amount: it pays what its PayoutRequested asked for.
// Events that move no money (PayoutRequested, PayoutSent, PayoutFailed, TransferFailed, account
// events, everything about times and people) post nothing.

export type PostingContext = {
  /** The currency of the booking a calendar event concerns; absent: US dollars (history before issue 29). */
  bookingCurrency?: Currency;
  /** PayoutPaid only: the amount and currency its PayoutRequested asked for. */
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

/** The key under which a payout's request is remembered until it is paid: payout keys are the expert's own. */
export const payoutMemoryKey = (expertId: string, payoutKey: string) => `${expertId}/${payoutKey}`;

/** What the postings need of earlier events: each booking's currency, each payout's request. */
export type LedgerMemory = { bookingCurrencies: Map<string, Currency>; payoutsRequested: Map<string, Money> };

export const emptyLedgerMemory = (): LedgerMemory => ({ bookingCurrencies: new Map(), payoutsRequested: new Map() });

/** The context an event's postings need, from what came before it. */
export function contextOf(memory: LedgerMemory, event: DomainEvent): PostingContext {
  if (event.type === "PayoutPaid") {
    const asked = memory.payoutsRequested.get(payoutMemoryKey(event.data.expertId, event.data.payoutKey));
    return asked ? { payoutRequested: asked } : {};
  }
  const bookingId = "bookingId" in event.data ? event.data.bookingId : undefined;
  const currency = bookingId === undefined ? undefined : memory.bookingCurrencies.get(bookingId);
  return currency ? { bookingCurrency: currency } : {};
}

/** Remember what later postings need of this event (mutates `memory`). */
export function remember(memory: LedgerMemory, event: DomainEvent): void {
  if (event.type === "BookingRequested" && event.data.currency) memory.bookingCurrencies.set(event.data.bookingId, event.data.currency);
  if (event.type === "PaymentSucceeded" && event.data.currency && !memory.bookingCurrencies.has(event.data.bookingId)) {
    memory.bookingCurrencies.set(event.data.bookingId, event.data.currency);
  }
  if (event.type === "PayoutRequested") {
    const { expertId, payoutKey, amountCents, currency } = event.data;
    memory.payoutsRequested.set(payoutMemoryKey(expertId, payoutKey), { amountCents, currency });
  }
}

/** The entries of each event of a history, in order, each event's postings given what came before it. */
export function journalOf(events: readonly DomainEvent[]): { event: DomainEvent; entries: LedgerEntry[] }[] {
  const memory = emptyLedgerMemory();
  return events.map((event) => {
    const entries = postingsOf(event, contextOf(memory, event));
    remember(memory, event);
    return { event, entries };
  });
}
