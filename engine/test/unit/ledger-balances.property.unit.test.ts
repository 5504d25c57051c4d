import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BOOKINGS_HELD,
  CURRENCIES,
  DomainEvent,
  PLATFORM_CASH,
  PLATFORM_FEE_REVENUE,
  REFUNDS_PAYABLE,
  earningSplit,
  expertConnected,
  expertPayable,
  isBalanced,
  type Currency,
} from "@booking/contracts";
import { journalOf } from "../../src/ledger/postings.ts";
import { trialBalance } from "../../src/ledger/trial-balance.ts";
import {
  bookingRequested,
  cancelled,
  completed,
  earningAdjusted,
  earningReleased,
  payoutFailed,
  payoutPaid,
  payoutRequested,
  payoutSent,
  paymentSucceeded,
  refundDue,
  refundIssued,
  transferFailed,
  transferReversed,
  transferSent,
} from "./ledger-fixtures.ts";

// Over random booking histories (several experts and currencies; payments, cancellations with
// refunds, refunds due and issued, releases, adjustments, transfers, reversals, payouts paid and
// failed, interleaved as the log would hold them): every account's balance is the sum of the money
// events that touch it, computed here from the events alone; every posting balances; the trial
// balance is zero per currency; nothing is added across currencies.

const EXPERTS = ["expert-a", "expert-b", "expert-c"];

const bookingStory = fc.record({
  expert: fc.constantFrom(...EXPERTS),
  currency: fc.constantFrom(...CURRENCIES),
  price: fc.integer({ min: 100, max: 50_000 }),
  feeBasisPoints: fc.constantFrom(0, 1000, 1500),
  ending: fc.constantFrom("cancelled", "completed", "unfinished"),
  /** Fractions (per mille) of the price refunded before and after the release. */
  early: fc.integer({ min: 0, max: 1000 }),
  late: fc.integer({ min: 0, max: 1000 }),
  issued: fc.boolean(),
  transferFailsFirst: fc.boolean(),
  transferred: fc.boolean(),
});

type BookingStory = typeof bookingStory extends fc.Arbitrary<infer T> ? T : never;

/** One booking's events, in the order its streams record them. */
function bookingEvents(id: string, s: BookingStory): DomainEvent[] {
  const { expert: x, currency, price } = s;
  const paid = { ...paymentSucceeded(id, price, currency) };
  paid.data = { ...paid.data, feeBasisPoints: s.feeBasisPoints };
  const events: DomainEvent[] = [bookingRequested(id, x, currency), paid];
  const early = Math.floor((price * s.early) / 1000);
  if (s.ending === "cancelled") {
    events.push(cancelled(id, early));
    if (early > 0 && s.issued) events.push(refundIssued(id, early));
    return events;
  }
  if (early > 0) events.push(refundDue(id, early), ...(s.issued ? [refundIssued(id, early, "due-1")] : []));
  if (s.ending === "unfinished") return events;
  const released = earningReleased(x, id, currency, price, early, s.feeBasisPoints);
  events.push(completed(id), released);
  const share = released.data.shareCents;
  const transferred = s.transferred && share > 0;
  if (transferred) events.push(...(s.transferFailsFirst ? [transferFailed(x, id)] : []), transferSent(x, id, currency, share));
  const late = Math.floor(((price - early) * s.late) / 1000);
  if (late > 0) {
    const after = earningSplit(price, early + late, s.feeBasisPoints);
    const given = { feeCents: released.data.feeCents - after.feeCents, shareCents: share - after.shareCents };
    events.push(refundDue(id, late), earningAdjusted(x, id, currency, { refundedCents: early + late, ...given }));
    if (transferred && given.shareCents > 0) events.push(transferReversed(x, id, currency, given.shareCents, early + late));
    if (s.issued) events.push(refundIssued(id, late, "due-2"));
  }
  return events;
}

const payoutStory = fc.record({
  expert: fc.constantFrom(...EXPERTS),
  currency: fc.constantFrom(...CURRENCIES),
  amount: fc.integer({ min: 1, max: 40_000 }),
  outcome: fc.constantFrom("paid", "failed", "in_transit", "requested", "returned"),
});
type PayoutStory = typeof payoutStory extends fc.Arbitrary<infer T> ? T : never;

function payoutEvents(key: string, p: PayoutStory): DomainEvent[] {
  const events: DomainEvent[] = [payoutRequested(p.expert, key, p.currency, p.amount)];
  if (p.outcome !== "requested") events.push(payoutSent(p.expert, key));
  if (p.outcome === "paid" || p.outcome === "returned") events.push(payoutPaid(p.expert, key));
  if (p.outcome === "failed") events.push(payoutFailed(p.expert, key));
  if (p.outcome === "returned") events.push(payoutFailed(p.expert, key, true));
  return events;
}

/** The stories interleaved as the log would hold them: each story's own order kept, `picks` choosing which goes next. */
function interleave(stories: DomainEvent[][], picks: readonly number[]): DomainEvent[] {
  const queues = stories.map((s) => [...s]).filter((q) => q.length);
  const log: DomainEvent[] = [];
  for (let i = 0; queues.length; i++) {
    const q = (picks[i % picks.length] ?? 0) % queues.length;
    log.push(queues[q]!.shift()!);
    if (queues[q]!.length === 0) queues.splice(q, 1);
  }
  return log;
}

const history = fc
  .record({
    bookings: fc.array(bookingStory, { maxLength: 25 }),
    payouts: fc.array(payoutStory, { maxLength: 8 }),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
  })
  .map(({ bookings, payouts, picks }) =>
    interleave([...bookings.map((s, i) => bookingEvents(`b${i}`, s)), ...payouts.map((p, i) => payoutEvents(`payout-${i}`, p))], picks),
  );

/**
 * What the money events say each account holds (debit − credit), from the events alone: sums of
 * amounts per currency, as the docs define the accounts, without the postings.
 */
function balancesFromEvents(log: readonly DomainEvent[]): Map<string, number> {
  const sums = new Map<string, number>();
  const add = (what: string, currency: Currency, cents: number) =>
    sums.set(`${currency} ${what}`, (sums.get(`${currency} ${what}`) ?? 0) + cents);
  const currencyOf = new Map<string, Currency>();
  const payouts = new Map<string, { expert: string; currency: Currency; amount: number }>();
  for (const e of log) {
    const d = e.data as Record<string, unknown>;
    if (e.type === "BookingRequested") currencyOf.set(e.data.bookingId, e.data.currency!);
    const c = (d.currency as Currency | undefined) ?? currencyOf.get(d.bookingId as string)!;
    if (e.type === "PaymentSucceeded") add("payments", c, e.data.amountCents);
    if (e.type === "Cancelled") add("owed", c, e.data.refundCents);
    if (e.type === "RefundDue") add("owed", c, e.data.amountCents);
    if (e.type === "RefundIssued") add("issued", c, e.data.amountCents);
    if (e.type === "EarningReleased") {
      add("kept", c, e.data.keptCents);
      add("fees", c, e.data.feeCents);
      add(`shares:${e.data.expertId}`, c, e.data.shareCents);
    }
    if (e.type === "EarningAdjusted") {
      add("kept given back", c, e.data.feeCents + e.data.shareCents);
      add("fees given back", c, e.data.feeCents);
      add(`shares given back:${e.data.expertId}`, c, e.data.shareCents);
    }
    if (e.type === "TransferSent") add(`transfers:${e.data.expertId}`, c, e.data.amountCents);
    if (e.type === "TransferReversed") add(`reversals:${e.data.expertId}`, c, e.data.amountCents);
    if (e.type === "PayoutRequested") payouts.set(e.data.payoutKey, { expert: e.data.expertId, currency: c, amount: e.data.amountCents });
    if (e.type === "PayoutPaid") {
      const p = payouts.get(e.data.payoutKey)!;
      add(`paid out:${p.expert}`, p.currency, p.amount);
    }
    if (e.type === "PayoutFailed" && e.data.afterPaid) {
      const p = payouts.get(e.data.payoutKey)!;
      add(`paid out:${p.expert}`, p.currency, -p.amount);
    }
  }
  const sum = (currency: Currency, what: string) => sums.get(`${currency} ${what}`) ?? 0;
  const expected = new Map<string, number>();
  for (const c of CURRENCIES) {
    const set = (account: string, balance: number) => balance !== 0 && expected.set(`${c} ${account}`, balance);
    const transfersOut = EXPERTS.reduce((n, x) => n + sum(c, `transfers:${x}`) - sum(c, `reversals:${x}`), 0);
    set(PLATFORM_CASH, sum(c, "payments") - sum(c, "issued") - transfersOut);
    set(BOOKINGS_HELD, -(sum(c, "payments") - sum(c, "owed") - sum(c, "kept") + sum(c, "kept given back")));
    set(REFUNDS_PAYABLE, -(sum(c, "owed") - sum(c, "issued")));
    set(PLATFORM_FEE_REVENUE, -(sum(c, "fees") - sum(c, "fees given back")));
    for (const x of EXPERTS) {
      set(expertPayable(x), -(sum(c, `shares:${x}`) - sum(c, `shares given back:${x}`) - sum(c, `paid out:${x}`)));
      set(expertConnected(x), sum(c, `transfers:${x}`) - sum(c, `reversals:${x}`) - sum(c, `paid out:${x}`));
    }
  }
  return expected;
}

describe("the ledger over random booking histories", () => {
  it("each account's balance is the sum of the money events that touch it; every posting and each currency balances", () => {
    fc.assert(
      fc.property(history, (log) => {
        for (const e of log) DomainEvent.parse(e);
        const journal = journalOf(log);
        for (const { event, entries } of journal) expect(isBalanced(entries), event.type).toBe(true);
        const balance = trialBalance(journal.flatMap((j) => j.entries));
        const ledger = new Map(
          balance.lines.filter((l) => l.balanceCents !== 0).map((l) => [`${l.currency} ${l.account}`, l.balanceCents]),
        );
        expect(ledger).toEqual(balancesFromEvents(log));
        for (const t of balance.totals) expect(t.balanceCents, t.currency).toBe(0);
        // Only the currencies the events are in appear, each total of its own entries only.
        const currencies = new Set(journal.flatMap((j) => j.entries.map((e) => e.currency)));
        expect(new Set(balance.totals.map((t) => t.currency))).toEqual(currencies);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the trial balance", () => {
  it("keeps amounts of different currencies apart: 100 USD and 100 EUR are two lines, never 200", () => {
    const journal = journalOf([
      bookingRequested("b1", "expert-a", "USD"),
      paymentSucceeded("b1", 100, "USD"),
      bookingRequested("b2", "expert-a", "EUR"),
      paymentSucceeded("b2", 100, "EUR"),
    ]);
    const balance = trialBalance(journal.flatMap((j) => j.entries));
    expect(balance.lines.filter((l) => l.account === PLATFORM_CASH)).toEqual([
      { account: PLATFORM_CASH, currency: "EUR", debitCents: 100, creditCents: 0, balanceCents: 100 },
      { account: PLATFORM_CASH, currency: "USD", debitCents: 100, creditCents: 0, balanceCents: 100 },
    ]);
    expect(balance.totals).toEqual([
      { currency: "EUR", debitCents: 100, creditCents: 100, balanceCents: 0 },
      { currency: "USD", debitCents: 100, creditCents: 100, balanceCents: 0 },
    ]);
  });

  it("of no entries is empty", () => {
    expect(trialBalance([])).toEqual({ lines: [], totals: [] });
  });
});
