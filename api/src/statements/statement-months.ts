import { LEDGER_ENTRIES_FROM, monthBounds, type Queryable } from "@booking/projections";

// Which monthly statements an expert has (issue 29.7): every month from the first in which money
// moved on their payouts stream (a release, a transfer, a payout) to the current one, quiet months
// included, since each opens with what the one before it closed on. Not the months with sessions:
// a session's earning is released after its clearing period, often in the month after it.

/** `YYYY-MM` of an instant (UTC, as statements count months). */
const monthOf = (iso: string) => new Date(iso).toISOString().slice(0, 7);

/** When money first and last moved on an expert's payouts stream; null: never. */
export type MoneyMoments = { first: string; last: string } | null;

/**
 * Rule: the months from the first money's to now's, newest first (none before any money). The last
 * money's month counts when it is later than now: a clock moved on (time travel, a test) wrote it.
 */
export function statementMonths(moments: MoneyMoments, now: string): string[] {
  if (moments === null) return [];
  const end = [monthOf(now), monthOf(moments.last)].sort()[1]!;
  const months: string[] = [];
  for (let month = monthOf(moments.first); month <= end; month = nextMonth(month)) months.push(month);
  return months.reverse();
}

const nextMonth = (month: string): string => monthBounds(month).end.slice(0, 7);

/** When money first and last moved on the expert's payouts stream (the ledger's earning and payout books). */
export async function moneyMoments(db: Queryable, expertId: string): Promise<MoneyMoments> {
  const { rows } = await db.query<{ first: Date | null; last: Date | null }>(
    `SELECT min(e.at::timestamptz) AS first, max(e.at::timestamptz) AS last FROM ${LEDGER_ENTRIES_FROM}
     WHERE e.expert_id = $1 AND e.book_id NOT LIKE 'booking:%'`,
    [expertId],
  );
  const { first, last } = rows[0] ?? { first: null, last: null };
  return first && last ? { first: first.toISOString(), last: last.toISOString() } : null;
}
