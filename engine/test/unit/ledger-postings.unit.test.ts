import { describe, expect, it } from "vitest";
import {
  BOOKINGS_HELD,
  DomainEvent,
  PLATFORM_CASH,
  PLATFORM_FEE_REVENUE,
  REFUNDS_PAYABLE,
  expertConnected,
  expertPayable,
  isBalanced,
  postingsOf,
  type LedgerEntry,
} from "@booking/contracts";
import { journalOf } from "../../src/ledger/postings.ts";
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
  transferReversalFailed,
  transferReversed,
  transferSent,
} from "./ledger-fixtures.ts";

// The ledger's postings, one event kind at a time (docs/money.md's table): given an event (and
// what it needs of earlier ones), then its entries: the right accounts, debits = credits per currency.

const X = "expert-x";
const B = "booking-1";
const dr = (account: string, cents: number, currency = "EUR"): LedgerEntry => ({
  account,
  currency: currency as LedgerEntry["currency"],
  debitCents: cents,
  creditCents: 0,
});
const cr = (account: string, cents: number, currency = "EUR"): LedgerEntry => ({
  account,
  currency: currency as LedgerEntry["currency"],
  debitCents: 0,
  creditCents: cents,
});
const eur = { bookingCurrency: "EUR" as const };

function posted(event: DomainEvent, context = {}): LedgerEntry[] {
  DomainEvent.parse(event); // the fixture is an event the log could hold
  const entries = postingsOf(event, context);
  expect(isBalanced(entries), JSON.stringify(entries)).toBe(true);
  return entries;
}

describe("postings per event", () => {
  it("a payment: Dr platform_cash / Cr bookings_held, in the payment's currency", () => {
    expect(posted(paymentSucceeded(B, 15000, "EUR"))).toEqual([dr(PLATFORM_CASH, 15000), cr(BOOKINGS_HELD, 15000)]);
  });

  it("a payment from before issue 29 (no currency) is in US dollars", () => {
    expect(posted(paymentSucceeded(B, 9900))).toEqual([dr(PLATFORM_CASH, 9900, "USD"), cr(BOOKINGS_HELD, 9900, "USD")]);
  });

  it("a cancellation with a refund owes it: Dr bookings_held / Cr refunds_payable, in the booking's currency", () => {
    expect(posted(cancelled(B, 7500), eur)).toEqual([dr(BOOKINGS_HELD, 7500), cr(REFUNDS_PAYABLE, 7500)]);
  });

  it("a cancellation without a refund posts nothing", () => {
    expect(posted(cancelled(B, 0), eur)).toEqual([]);
  });

  it("a refund due: Dr bookings_held / Cr refunds_payable", () => {
    expect(posted(refundDue(B, 15000), eur)).toEqual([dr(BOOKINGS_HELD, 15000), cr(REFUNDS_PAYABLE, 15000)]);
  });

  it("a refund issued: Dr refunds_payable / Cr platform_cash", () => {
    expect(posted(refundIssued(B, 15000), eur)).toEqual([dr(REFUNDS_PAYABLE, 15000), cr(PLATFORM_CASH, 15000)]);
  });

  it("a release: Dr bookings_held kept / Cr fee revenue the fee / Cr the expert's payable the share", () => {
    // 150.00 paid, 30.00 refunded: 120.00 kept, 15 % fee 18.00, share 102.00.
    expect(posted(earningReleased(X, B, "EUR", 15000, 3000))).toEqual([
      dr(BOOKINGS_HELD, 12000),
      cr(PLATFORM_FEE_REVENUE, 1800),
      cr(expertPayable(X), 10200),
    ]);
  });

  it("a release under no fee (paid before issue 29) credits the expert with all that was kept", () => {
    expect(posted(earningReleased(X, B, "USD", 9900, 0, 0))).toEqual([dr(BOOKINGS_HELD, 9900, "USD"), cr(expertPayable(X), 9900, "USD")]);
  });

  it("an adjustment gives the fee and the share back to bookings_held", () => {
    const given = { refundedCents: 5000, feeCents: 300, shareCents: 1700 };
    expect(posted(earningAdjusted(X, B, "EUR", given))).toEqual([
      dr(PLATFORM_FEE_REVENUE, 300),
      dr(expertPayable(X), 1700),
      cr(BOOKINGS_HELD, 2000),
    ]);
  });

  it("a transfer: Dr the expert's connected account / Cr platform_cash", () => {
    expect(posted(transferSent(X, B, "EUR", 10200))).toEqual([dr(expertConnected(X), 10200), cr(PLATFORM_CASH, 10200)]);
  });

  it("a reversal: Dr platform_cash / Cr the expert's connected account", () => {
    expect(posted(transferReversed(X, B, "EUR", 1700, 5000))).toEqual([dr(PLATFORM_CASH, 1700), cr(expertConnected(X), 1700)]);
  });

  it("a payout paid: Dr the expert's payable / Cr their connected account, the amount its request asked", () => {
    const context = { payoutRequested: { amountCents: 8500, currency: "GBP" as const } };
    expect(posted(payoutPaid(X, "p1"), context)).toEqual([dr(expertPayable(X), 8500, "GBP"), cr(expertConnected(X), 8500, "GBP")]);
  });

  it("a paid payout the bank returned: the payment taken back, Dr their connected account / Cr their payable", () => {
    const context = { payoutRequested: { amountCents: 8500, currency: "GBP" as const } };
    expect(posted(payoutFailed(X, "p1", true), context)).toEqual([dr(expertConnected(X), 8500, "GBP"), cr(expertPayable(X), 8500, "GBP")]);
    expect(() => postingsOf(payoutFailed(X, "p1", true), {})).toThrow(/no PayoutRequested/);
  });

  it("a payout paid without its request is a corrupt log: refused loudly, never posted as zero", () => {
    expect(() => postingsOf(payoutPaid(X, "p1"), {})).toThrow(/no PayoutRequested/);
  });

  it.each([
    ["PayoutRequested", payoutRequested(X, "p1", "EUR", 8500)],
    ["PayoutSent", payoutSent(X, "p1")],
    ["PayoutFailed", payoutFailed(X, "p1")],
    ["TransferFailed", transferFailed(X, B)],
    ["TransferReversalFailed", transferReversalFailed(X, B, 5000)],
    ["BookingRequested", bookingRequested(B, X, "EUR")],
    ["Completed", completed(B)],
  ])("%s moves no money: no entries", (_type, event) => {
    expect(posted(event as DomainEvent, eur)).toEqual([]);
  });
});

describe("the context the postings need, from earlier events", () => {
  it("a refund is in the currency its booking was requested in", () => {
    const journal = journalOf([
      bookingRequested(B, X, "GBP"),
      paymentSucceeded(B, 15000, "GBP"),
      cancelled(B, 15000),
      refundIssued(B, 15000),
    ]);
    expect(journal.flatMap((j) => j.entries).every((e) => e.currency === "GBP")).toBe(true);
    expect(journal.map((j) => j.entries.length)).toEqual([0, 2, 2, 2]);
  });

  it("a refund of a booking from before issue 29 (no currency anywhere) is in US dollars", () => {
    const journal = journalOf([bookingRequested(B, X), paymentSucceeded(B, 15000), refundDue(B, 15000)]);
    expect(journal[2]!.entries).toEqual([dr(BOOKINGS_HELD, 15000, "USD"), cr(REFUNDS_PAYABLE, 15000, "USD")]);
  });

  it("a payout paid posts what its own request asked for, not another expert's request under the same key", () => {
    const journal = journalOf([
      payoutRequested(X, "p1", "CAD", 4000),
      payoutRequested("expert-y", "p1", "CAD", 9000),
      payoutSent(X, "p1"),
      payoutPaid(X, "p1"),
    ]);
    expect(journal[3]!.entries).toEqual([dr(expertPayable(X), 4000, "CAD"), cr(expertConnected(X), 4000, "CAD")]);
  });
});
