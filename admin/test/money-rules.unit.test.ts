import { describe, expect, it } from "vitest";
import type { ExpertStatementCurrencyReply, MoneyTrailEntryReply, TrialBalanceLineReply } from "@booking/contracts";
import { trailUnbalanced } from "../src/bookings/money-trail.tsx";
import { formatMoney } from "../src/ledger/currency-money.tsx";
import { statementAddsUp } from "../src/ledger/expert-statement.tsx";
import { totalsPerCurrency, unknownCurrencyRows } from "../src/ledger/trial-balance-record.ts";
import { lastFailure } from "../src/payouts/movement-status.tsx";

// Issue 29: the console's money rules, each by itself. Money is written with its currency and
// never added across currencies; a trial balance says per currency whether it balances.

const text = (s: string) => s.replace(/\s/g, " ");

const line = (account: string, currency: "USD" | "EUR", debit: number, credit: number, kind: "account" | "total" = "account") =>
  ({
    id: `${account}/${currency}`,
    kind,
    account,
    currency,
    debit_cents: debit,
    credit_cents: credit,
    balance_cents: debit - credit,
  }) satisfies TrialBalanceLineReply;

describe("money written with its currency", () => {
  it("writes each amount with its own currency's code, from minor units", () => {
    expect(text(formatMoney(12_750, "USD"))).toMatch(/USD 127\.50/);
    expect(text(formatMoney(12_750, "EUR"))).toMatch(/EUR 127\.50/);
    expect(text(formatMoney(-500, "GBP"))).toMatch(/-GBP 5\.00|GBP -5\.00|−GBP 5\.00/);
  });
});

describe("the trial balance's totals per currency", () => {
  it("given postings in two currencies, totals each one separately and never across them", () => {
    const totals = totalsPerCurrency([
      line("platform_cash", "USD", 15_000, 0),
      line("bookings_held", "USD", 0, 15_000),
      line("platform_cash", "EUR", 9_000, 0),
      line("bookings_held", "EUR", 0, 9_000),
    ]);
    expect(totals).toEqual([
      { currency: "EUR", debit_cents: 9_000, credit_cents: 9_000, accounts: 2, total_differs: false, balanced: true },
      { currency: "USD", debit_cents: 15_000, credit_cents: 15_000, accounts: 2, total_differs: false, balanced: true },
    ]);
  });

  it("says a currency is not balanced when its debits and credits differ, and only that currency", () => {
    const totals = totalsPerCurrency([
      line("platform_cash", "USD", 15_000, 0),
      line("bookings_held", "USD", 0, 15_000),
      line("platform_cash", "EUR", 9_000, 0),
      line("bookings_held", "EUR", 0, 8_000),
    ]);
    expect(totals.map((t) => [t.currency, t.balanced])).toEqual([
      ["EUR", false],
      ["USD", true],
    ]);
  });

  it("does not count the API's total lines as accounts, and is not balanced when a total disagrees with its accounts", () => {
    const accounts = [line("platform_cash", "USD", 15_000, 0), line("bookings_held", "USD", 0, 15_000)];
    const agreeing = totalsPerCurrency([...accounts, line("total", "USD", 15_000, 15_000, "total")]);
    expect(agreeing).toEqual([expect.objectContaining({ accounts: 2, debit_cents: 15_000, balanced: true })]);
    const disagreeing = totalsPerCurrency([...accounts, line("total", "USD", 16_000, 16_000, "total")]);
    expect(disagreeing).toEqual([expect.objectContaining({ total_differs: true, balanced: false })]);
  });

  it("leaves out lines without a known currency and counts them", () => {
    const odd = { ...line("platform_cash", "USD", 100, 0), currency: "XXX" } as unknown as TrialBalanceLineReply;
    expect(totalsPerCurrency([odd])).toEqual([]);
    expect(unknownCurrencyRows([odd, line("platform_cash", "USD", 0, 0)])).toBe(1);
  });
});

describe("a booking's money trail", () => {
  const entry = (event: string, account: string, debit: number, credit: number): MoneyTrailEntryReply => ({
    id: `${event}/${account}`,
    event_id: event,
    position: "1:1",
    at: "2026-03-01T10:00:00.000Z",
    event_type: "PaymentSucceeded",
    account,
    currency: "USD",
    debit_cents: debit,
    credit_cents: credit,
  });

  it("balances when every event's entries do, and names the currency that does not", () => {
    expect(trailUnbalanced([entry("e1", "platform_cash", 15_000, 0), entry("e1", "bookings_held", 0, 15_000)])).toEqual([]);
    expect(trailUnbalanced([entry("e1", "platform_cash", 15_000, 0), entry("e1", "bookings_held", 0, 14_000)])).toEqual(["USD"]);
  });
});

describe("an expert's statement", () => {
  const month: ExpertStatementCurrencyReply = {
    currency: "USD",
    opening_cents: 1_000,
    earnings_cents: 15_000,
    fee_cents: 2_250,
    refunds_cents: 0,
    transfers_cents: 12_750,
    reversals_cents: 0,
    payouts_cents: 5_000,
    closing_cents: 8_750,
  };

  it("adds up when closing = opening + earnings − fee − refunds − payouts, and not otherwise", () => {
    expect(statementAddsUp(month)).toBe(true);
    expect(statementAddsUp({ ...month, closing_cents: 8_751 })).toBe(false);
  });
});

describe("a transfer's or payout's last failure", () => {
  const failed = {
    status: "failed",
    last_error: "Insufficient platform balance",
    failure_reason: null,
    next_attempt_at: "2026-03-01T10:00:00Z",
  };

  it("says why the last try failed and when the next one is, while it is still to be done", () => {
    expect(lastFailure(failed, ["sent"])).toMatch(/^Insufficient platform balance Next try .*2026/);
  });

  it("names no next try once it is done, and nothing when nothing failed", () => {
    expect(lastFailure({ ...failed, status: "sent" }, ["sent"])).toBe("Insufficient platform balance");
    expect(lastFailure({ status: "sent", last_error: null, next_attempt_at: null }, ["sent"])).toBe("—");
  });

  it("prefers the provider's failure reason to the reactor's last error", () => {
    expect(lastFailure({ ...failed, failure_reason: "account_closed" }, ["paid"])).toMatch(/^account_closed/);
  });
});
