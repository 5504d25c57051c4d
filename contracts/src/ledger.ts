import { z } from "zod";
import { Currency } from "./money.ts";

// The ledger (issue 29.5): every money movement as balanced double-entry postings to named
// accounts, derived from the events (docs/money.md draws it in one table). An amount is a debit
// (+) or a credit (−) of one account in one currency; each event's postings sum to zero per
// currency, so the trial balance does too. Nothing adds across currencies.

/** The creator's money as the platform holds it at the provider (payments in, refunds and transfers out). */
export const PLATFORM_CASH = "platform_cash";
/** Paid for bookings, not yet refunded nor released to the expert. */
export const BOOKINGS_HELD = "bookings_held";
/** Owed back to creators, not yet refunded by the provider. */
export const REFUNDS_PAYABLE = "refunds_payable";
/** The platform's fee on released earnings. */
export const PLATFORM_FEE_REVENUE = "platform_fee_revenue";
/** The accounts that are the platform's own (one each); the experts' come two per expert. */
export const PLATFORM_ACCOUNTS = [PLATFORM_CASH, BOOKINGS_HELD, REFUNDS_PAYABLE, PLATFORM_FEE_REVENUE] as const;

/** What is the expert's, released and not yet paid out to their bank (credit balance). */
export const expertPayable = (expertId: string) => `expert_payable:${expertId}`;
/** What sits on the expert's connected account: transferred, not yet paid out (debit balance). */
export const expertConnected = (expertId: string) => `expert_connected:${expertId}`;
/** The expert an account is kept for, or null for a platform account. */
export const expertOfAccount = (account: string): string | null => {
  const colon = account.indexOf(":");
  return colon < 0 ? null : account.slice(colon + 1);
};

/** One line of a posting: a debit (positive) or a credit (negative) of one account, in whole minor units of one currency. */
export type LedgerEntry = { account: string; currency: Currency; debitCents: number; creditCents: number };

const Time = z.string();
const Cents = z.number().int().nonnegative();

/**
 * An event's posting as a book of the ledger read model keeps it, a tuple:
 * [event id, its place in the log (`{commit}:{prepare}`), when it was recorded (its metadata's `at`),
 * its type, its currency (an event posts in one), its lines as [account, debit, credit]].
 * Compact on purpose: the book already names the booking and the expert, and a rebuild writes
 * every posting of the log, names of fields included when they are objects (npm run bench, ledger cost).
 */
export const LedgerPostingRecord = z.tuple([
  z.string(),
  z.string(),
  Time,
  z.string(),
  Currency,
  z.array(z.tuple([z.string(), Cents, Cents])),
]);
export type LedgerPostingRecord = z.infer<typeof LedgerPostingRecord>;

/** A ledger entry as the ledger's queries read it: one line of a posting, with its event, booking and expert. */
export const LedgerEntryRecord = z.strictObject({
  event_id: z.string(),
  /** The event's place in the log (`{commit}:{prepare}`). */
  position: z.string(),
  /** When the event was recorded (its metadata's `at`). */
  at: Time,
  event_type: z.string(),
  booking_id: z.string().nullable(),
  /** The expert whose stream the event is on. */
  expert_id: z.string(),
  account: z.string(),
  currency: Currency,
  debit_cents: Cents,
  credit_cents: Cents,
});
export type LedgerEntryRecord = z.infer<typeof LedgerEntryRecord>;

/** GET /admin/ledger/trial-balance: one line per account and currency, then one total per currency (`kind: "total"`, account "total"). */
export const TrialBalanceLineReply = z.strictObject({
  /** `{account}/{currency}`; a total's is `total/{currency}`. */
  id: z.string(),
  kind: z.enum(["account", "total"]),
  account: z.string(),
  currency: Currency,
  debit_cents: Cents,
  credit_cents: Cents,
  /** debit − credit: positive for a debit balance. A total's is zero when the ledger balances. */
  balance_cents: z.number().int(),
});
export type TrialBalanceLineReply = z.infer<typeof TrialBalanceLineReply>;
export const TrialBalanceReply = z.array(TrialBalanceLineReply);
export type TrialBalanceReply = z.infer<typeof TrialBalanceReply>;

/** GET /admin/bookings/{id}/money-trail: every entry posted for the booking, in the log's order (id = `{event_id}/{account}`). */
export const MoneyTrailEntryReply = z.strictObject({
  id: z.string(),
  event_id: z.string(),
  position: z.string(),
  at: Time,
  event_type: z.string(),
  account: z.string(),
  currency: Currency,
  debit_cents: Cents,
  credit_cents: Cents,
});
export type MoneyTrailEntryReply = z.infer<typeof MoneyTrailEntryReply>;
export const MoneyTrailReply = z.array(MoneyTrailEntryReply);
export type MoneyTrailReply = z.infer<typeof MoneyTrailReply>;

/**
 * An expert's month in one currency, from their ledger entries. `earnings`: what was kept of the
 * payments of bookings released in the month; `fee`: the platform's fee on them, less fee given
 * back; `refunds`: refunds after the release (fee and share given back); `opening`/`closing`: what
 * the platform owed the expert (expert_payable) before and after the month; closing = opening +
 * earnings − fee − refunds − payouts.
 */
export const ExpertStatementCurrencyReply = z.strictObject({
  currency: Currency,
  opening_cents: z.number().int(),
  earnings_cents: z.number().int(),
  fee_cents: z.number().int(),
  refunds_cents: z.number().int(),
  transfers_cents: z.number().int(),
  reversals_cents: z.number().int(),
  payouts_cents: z.number().int(),
  closing_cents: z.number().int(),
});
export type ExpertStatementCurrencyReply = z.infer<typeof ExpertStatementCurrencyReply>;

/** GET /admin/payout-accounts/{expertId}/statement?month=YYYY-MM. */
export const ExpertStatementReply = z.strictObject({
  expert_id: z.string(),
  /** `YYYY-MM` (UTC). */
  month: z.string(),
  currencies: z.array(ExpertStatementCurrencyReply),
});
export type ExpertStatementReply = z.infer<typeof ExpertStatementReply>;

/** The statement's query: a month as `YYYY-MM`. */
export const StatementMonthQuery = z.strictObject({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "invalid_request" }) });
