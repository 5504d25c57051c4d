import { csvLine } from "@booking/contracts";
import type { Statement } from "./statement.ts";

// The statement as CSV, through the house's CSV writer (contracts' csv.ts: a session title that
// starts like a formula opens as text). Amounts are in the currency's major units ("150.00",
// "-12.75"), each row names its currency; a row per earning, transfer, reversal and payout, then
// the totals per currency.

export const STATEMENT_CSV_HEADER = [
  "section",
  "date",
  "booking",
  "session",
  "session_date",
  "currency",
  "paid",
  "refunded",
  "fee",
  "share",
  "amount",
];

const major = (cents: number) => (cents / 100).toFixed(2);

export function statementCsv(s: Statement): string {
  const lines = [csvLine(STATEMENT_CSV_HEADER)];
  for (const e of s.earnings)
    lines.push(
      csvLine([
        e.event === "released" ? "earning" : "earning adjusted",
        e.at,
        e.bookingId,
        e.session,
        e.sessionDate,
        e.currency,
        major(e.paidCents),
        major(e.refundedCents),
        major(e.feeCents),
        major(e.shareCents),
        null,
      ]),
    );
  for (const m of s.movements)
    lines.push(csvLine([m.kind, m.at, m.bookingId, null, null, m.currency, null, null, null, null, major(m.amountCents)]));
  for (const t of s.totals) {
    const total = (what: string, cents: number) =>
      csvLine([`total ${what}`, null, null, null, null, t.currency, null, null, null, null, major(cents)]);
    lines.push(
      total("opening balance", t.opening_cents),
      total("earnings", t.earnings_cents),
      total("fee", t.fee_cents),
      total("refunds after release", t.refunds_cents),
      total("share", t.share_cents),
      total("transfers", t.transfers_cents),
      total("reversals", t.reversals_cents),
      total("payouts", t.payouts_cents),
      total("closing balance", t.closing_cents),
    );
  }
  return lines.join("");
}
