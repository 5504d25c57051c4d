import type { Currency, LedgerEntry } from "@booking/contracts";

// The trial balance (issue 29.5): each account's debits and credits per currency, and each
// currency's totals, which are equal (balance zero) when every posting balanced. Amounts of
// different currencies are never added: every sum is kept under its currency.

export type TrialBalanceLine = { account: string; currency: Currency; debitCents: number; creditCents: number; balanceCents: number };
export type TrialBalanceTotal = { currency: Currency; debitCents: number; creditCents: number; balanceCents: number };
export type TrialBalance = { lines: TrialBalanceLine[]; totals: TrialBalanceTotal[] };

/** Code-point order: the same on every machine, whatever its locale. */
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sums per account and currency, ordered by currency then account, and a total per currency. */
export function trialBalance(entries: Iterable<LedgerEntry>): TrialBalance {
  const lines = new Map<string, TrialBalanceLine>();
  const totals = new Map<Currency, TrialBalanceTotal>();
  for (const e of entries) {
    const key = `${e.currency} ${e.account}`;
    const l = lines.get(key) ?? { account: e.account, currency: e.currency, debitCents: 0, creditCents: 0, balanceCents: 0 };
    lines.set(key, { ...l, debitCents: l.debitCents + e.debitCents, creditCents: l.creditCents + e.creditCents });
    const t = totals.get(e.currency) ?? { currency: e.currency, debitCents: 0, creditCents: 0, balanceCents: 0 };
    totals.set(e.currency, { ...t, debitCents: t.debitCents + e.debitCents, creditCents: t.creditCents + e.creditCents });
  }
  const withBalance = <T extends { debitCents: number; creditCents: number }>(x: T): T => ({
    ...x,
    balanceCents: x.debitCents - x.creditCents,
  });
  const byCurrencyThenAccount = (a: TrialBalanceLine, b: TrialBalanceLine) => order(a.currency, b.currency) || order(a.account, b.account);
  return {
    lines: [...lines.values()].map(withBalance).sort(byCurrencyThenAccount),
    totals: [...totals.values()].map(withBalance).sort((a, b) => order(a.currency, b.currency)),
  };
}

/** An account's balance in one currency (debits − credits; zero when it has no entries). */
export function balanceOf(balance: TrialBalance, account: string, currency: Currency): number {
  return balance.lines.find((l) => l.account === account && l.currency === currency)?.balanceCents ?? 0;
}
