import {
  comparePositions,
  expertConnected,
  expertPayable,
  parsePosition,
  BOOKINGS_HELD,
  PLATFORM_FEE_REVENUE,
  type Currency,
  type ExpertStatementCurrencyReply,
  type ExpertStatementReply,
  type LedgerEntryRecord,
  type MoneyTrailEntryReply,
  type TrialBalanceLineReply,
} from "@booking/contracts";
import type { Queryable } from "./bookings-queries.ts";

// The ledger's queries (issue 29.5): its entries read out of the books (ledger.ts), the trial
// balance per account and currency, a booking's money trail and an expert's statement of a month.
// Sums are kept per currency; nothing is added across currencies.

/**
 * Every entry of the ledger as rows `e` (LedgerEntryRecord's columns, with `book_id` and `ordinal`,
 * the line's place in its event's posting): the books' postings (LedgerPostingRecord, json), a row per
 * line. A filter on `e.book_id` or `e.expert_id` reaches the books' indexes. A book an older version wrote has no
 * journal (null) until the rebuild at start replaces it: it gives no rows meanwhile.
 */
export const LEDGER_ENTRIES_FROM = `(
  SELECT b.book_id, b.booking_id, b.expert_id, p->>0 AS event_id, p->>1 AS position, p->>2 AS at, p->>3 AS event_type, p->>4 AS currency,
         l.line->>0 AS account, (l.line->>1)::bigint AS debit_cents, (l.line->>2)::bigint AS credit_cents, l.ordinal
  FROM ledger_books b
  CROSS JOIN LATERAL json_array_elements(b.journal) AS p
  CROSS JOIN LATERAL json_array_elements(p->5) WITH ORDINALITY AS l(line, ordinal)
) e`;

const ENTRY_COLUMNS =
  "e.event_id, e.position, e.at, e.event_type, e.booking_id, e.expert_id, e.account, e.currency, e.debit_cents, e.credit_cents";

type EntryFromPg = Omit<LedgerEntryRecord, "debit_cents" | "credit_cents"> & { debit_cents: string; credit_cents: string; ordinal: string };

const entryFromPg = (r: EntryFromPg): LedgerEntryRecord & { ordinal: number } => ({
  ...r,
  debit_cents: Number(r.debit_cents),
  credit_cents: Number(r.credit_cents),
  ordinal: Number(r.ordinal),
});

/** The log's order: by position, then each event's entries as posted. */
function inLogOrder<T extends { position: string; ordinal: number }>(entries: T[]): T[] {
  return entries.sort((a, b) => comparePositions(parsePosition(a.position)!, parsePosition(b.position)!) || a.ordinal - b.ordinal);
}

/** Every entry of the ledger in the log's order (the reconciliation and the tests read the whole of it). */
export async function ledgerEntries(db: Queryable): Promise<LedgerEntryRecord[]> {
  const { rows } = await db.query<EntryFromPg>(`SELECT ${ENTRY_COLUMNS}, e.ordinal FROM ${LEDGER_ENTRIES_FROM}`);
  return inLogOrder(rows.map(entryFromPg)).map(({ ordinal: _, ...entry }) => entry);
}

/** The trial balance: each account's debits, credits and balance per currency, then each currency's total (zero when balanced). */
export async function ledgerTrialBalance(db: Queryable): Promise<TrialBalanceLineReply[]> {
  const { rows } = await db.query<{ account: string; currency: Currency; debit_cents: string; credit_cents: string }>(
    `SELECT e.account, e.currency, sum(e.debit_cents) AS debit_cents, sum(e.credit_cents) AS credit_cents FROM ${LEDGER_ENTRIES_FROM}
     GROUP BY e.currency, e.account ORDER BY e.currency COLLATE "C", e.account COLLATE "C"`,
  );
  const lines = rows.map((r): TrialBalanceLineReply => {
    const debit = Number(r.debit_cents);
    const credit = Number(r.credit_cents);
    return {
      id: `${r.account}/${r.currency}`,
      kind: "account",
      ...r,
      debit_cents: debit,
      credit_cents: credit,
      balance_cents: debit - credit,
    };
  });
  const totals = new Map<Currency, TrialBalanceLineReply>();
  for (const l of lines) {
    const t = totals.get(l.currency) ?? {
      id: `total/${l.currency}`,
      kind: "total",
      account: "total",
      currency: l.currency,
      debit_cents: 0,
      credit_cents: 0,
      balance_cents: 0,
    };
    const debit = t.debit_cents + l.debit_cents;
    const credit = t.credit_cents + l.credit_cents;
    totals.set(l.currency, { ...t, debit_cents: debit, credit_cents: credit, balance_cents: debit - credit });
  }
  return [...lines, ...totals.values()];
}

/** Every entry posted for a booking (its payment and refunds, its release, transfer and reversals), in the log's order. */
export async function bookingMoneyTrail(db: Queryable, bookingId: string): Promise<MoneyTrailEntryReply[]> {
  const { rows } = await db.query<EntryFromPg>(`SELECT ${ENTRY_COLUMNS}, e.ordinal FROM ${LEDGER_ENTRIES_FROM} WHERE e.book_id = ANY($1)`, [
    [`booking:${bookingId}`, `earning:${bookingId}`],
  ]);
  return inLogOrder(rows.map(entryFromPg)).map((e) => ({
    id: `${e.event_id}/${e.account}`,
    event_id: e.event_id,
    position: e.position,
    at: e.at,
    event_type: e.event_type,
    account: e.account,
    currency: e.currency,
    debit_cents: e.debit_cents,
    credit_cents: e.credit_cents,
  }));
}

/** The first instant of a `YYYY-MM` month (UTC) and of the month after it. */
export function monthBounds(month: string): { start: string; end: string } {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return { start: new Date(Date.UTC(year, m - 1, 1)).toISOString(), end: new Date(Date.UTC(year, m, 1)).toISOString() };
}

const emptyMonth = (currency: Currency): ExpertStatementCurrencyReply => ({
  currency,
  opening_cents: 0,
  earnings_cents: 0,
  fee_cents: 0,
  refunds_cents: 0,
  transfers_cents: 0,
  reversals_cents: 0,
  payouts_cents: 0,
  closing_cents: 0,
});

/** The events that move an expert's money (their payouts stream); a booking's payment and refunds are the platform's until released. */
const EXPERT_MONEY_EVENTS = new Set(["EarningReleased", "EarningAdjusted", "TransferSent", "TransferReversed", "PayoutPaid"]);

/**
 * Rule: an expert's month per currency, from their entries up to the month's end (pure). What the
 * platform owes them is their payable's credit balance: opening before the month, closing after.
 */
export function statementOf(expertId: string, month: string, entries: readonly LedgerEntryRecord[]): ExpertStatementReply {
  const { start, end } = monthBounds(month);
  const payable = expertPayable(expertId);
  const connected = expertConnected(expertId);
  const byCurrency = new Map<Currency, ExpertStatementCurrencyReply>();
  for (const e of entries) {
    const t = Date.parse(e.at);
    if (e.expert_id !== expertId || !EXPERT_MONEY_EVENTS.has(e.event_type) || t >= Date.parse(end)) continue;
    const s = byCurrency.get(e.currency) ?? emptyMonth(e.currency);
    byCurrency.set(e.currency, s);
    const owed = e.account === payable ? e.credit_cents - e.debit_cents : 0;
    s.closing_cents += owed;
    if (t < Date.parse(start)) {
      s.opening_cents += owed;
      continue;
    }
    const is = (type: string, account: string) => e.event_type === type && e.account === account;
    if (is("EarningReleased", BOOKINGS_HELD)) s.earnings_cents += e.debit_cents;
    if (is("EarningReleased", PLATFORM_FEE_REVENUE)) s.fee_cents += e.credit_cents;
    if (is("EarningAdjusted", PLATFORM_FEE_REVENUE)) s.fee_cents -= e.debit_cents;
    if (is("EarningAdjusted", BOOKINGS_HELD)) s.refunds_cents += e.credit_cents;
    if (is("TransferSent", connected)) s.transfers_cents += e.debit_cents;
    if (is("TransferReversed", connected)) s.reversals_cents += e.credit_cents;
    if (is("PayoutPaid", payable)) s.payouts_cents += e.debit_cents;
  }
  const currencies = [...byCurrency.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  return { expert_id: expertId, month, currencies };
}

/** An expert's statement of a month (`YYYY-MM`), from the ledger's entries of their payouts stream. */
export async function expertStatement(db: Queryable, expertId: string, month: string): Promise<ExpertStatementReply> {
  const { rows } = await db.query<EntryFromPg>(
    `SELECT ${ENTRY_COLUMNS}, e.ordinal FROM ${LEDGER_ENTRIES_FROM}
     WHERE e.expert_id = $1 AND e.book_id NOT LIKE 'booking:%' AND e.at::timestamptz < $2`,
    [expertId, monthBounds(month).end],
  );
  return statementOf(expertId, month, rows.map(entryFromPg));
}
