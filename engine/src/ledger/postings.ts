import { postingsOf, type Currency, type DomainEvent, type LedgerEntry, type Money, type PostingContext } from "@booking/contracts";

// The ledger over a history: each event's postings (contracts' postingsOf, the one rule the ledger
// read model applies too) given what they need of the events before it: each booking's currency
// and each payout's requested amount (PayoutPaid and PayoutFailed do not carry it), kept here in memory.

/** The key under which a payout's request is remembered until it is paid: payout keys are the expert's own. */
export const payoutMemoryKey = (expertId: string, payoutKey: string) => `${expertId}/${payoutKey}`;

/** What the postings need of earlier events: each booking's currency, each payout's request. */
export type LedgerMemory = { bookingCurrencies: Map<string, Currency>; payoutsRequested: Map<string, Money> };

export const emptyLedgerMemory = (): LedgerMemory => ({ bookingCurrencies: new Map(), payoutsRequested: new Map() });

/** The context an event's postings need, from what came before it. */
export function postingContextOf(memory: LedgerMemory, event: DomainEvent): PostingContext {
  if (event.type === "PayoutPaid" || event.type === "PayoutFailed") {
    const asked = memory.payoutsRequested.get(payoutMemoryKey(event.data.expertId, event.data.payoutKey));
    return asked ? { payoutRequested: asked } : {};
  }
  const bookingId = "bookingId" in event.data ? event.data.bookingId : undefined;
  const currency = bookingId === undefined ? undefined : memory.bookingCurrencies.get(bookingId);
  return currency ? { bookingCurrency: currency } : {};
}

/** Remember what later postings need of this event (mutates `memory`). */
export function rememberForPostings(memory: LedgerMemory, event: DomainEvent): void {
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
    const entries = postingsOf(event, postingContextOf(memory, event));
    rememberForPostings(memory, event);
    return { event, entries };
  });
}
