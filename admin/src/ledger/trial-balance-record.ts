import type { Currency, TrialBalanceLineReply } from "@booking/contracts";
import { isCurrency } from "./currency-money.tsx";

/** One line of GET /admin/ledger/trial-balance: an account's totals in one currency (+ debit, − credit), or a currency's total. */
export type TrialBalanceRow = TrialBalanceLineReply;

/** A currency's totals: the ledger is balanced in it when its debits equal its credits and the API's total says the same. */
export type CurrencyTotal = {
  currency: Currency;
  debit_cents: number;
  credit_cents: number;
  accounts: number;
  /** The API's own total line for the currency disagrees with the sum of its account lines. */
  total_differs: boolean;
  balanced: boolean;
};

const centsOf = (value: unknown): number => (typeof value === "number" && Number.isInteger(value) ? value : 0);

/**
 * Rule: totals are kept per currency, never across currencies. A currency is balanced when the
 * debits of its accounts equal their credits (every posting sums to zero in its currency) and the
 * API's total line for it says the same sums. Lines without a currency the product knows are left
 * out here and counted by `unknownCurrencyRows`.
 */
export function totalsPerCurrency(rows: readonly Partial<TrialBalanceRow>[]): CurrencyTotal[] {
  const sums = new Map<Currency, { debit: number; credit: number; accounts: number }>();
  const stated = new Map<Currency, { debit: number; credit: number }>();
  for (const row of rows) {
    if (!isCurrency(row.currency)) continue;
    if (row.kind === "total") {
      stated.set(row.currency, { debit: centsOf(row.debit_cents), credit: centsOf(row.credit_cents) });
      continue;
    }
    const sum = sums.get(row.currency) ?? { debit: 0, credit: 0, accounts: 0 };
    sum.debit += centsOf(row.debit_cents);
    sum.credit += centsOf(row.credit_cents);
    sum.accounts += 1;
    sums.set(row.currency, sum);
  }
  const currencies = [...new Set([...sums.keys(), ...stated.keys()])].sort();
  return currencies.map((currency) => {
    const sum = sums.get(currency) ?? { debit: 0, credit: 0, accounts: 0 };
    const total = stated.get(currency);
    const totalDiffers = total ? total.debit !== sum.debit || total.credit !== sum.credit : false;
    return {
      currency,
      debit_cents: sum.debit,
      credit_cents: sum.credit,
      accounts: sum.accounts,
      total_differs: totalDiffers,
      balanced: sum.debit === sum.credit && !totalDiffers,
    };
  });
}

/** Lines whose currency is not one the product knows: they cannot be totalled, and say so. */
export const unknownCurrencyRows = (rows: readonly Partial<TrialBalanceRow>[]) => rows.filter((row) => !isCurrency(row.currency)).length;

/** "expert_payable:{id}" → the account's kind and the expert it is kept for, if any. */
export function accountParts(account: string): { kind: string; expertId: string | null } {
  const at = account.indexOf(":");
  return at < 0 ? { kind: account, expertId: null } : { kind: account.slice(0, at), expertId: account.slice(at + 1) };
}
