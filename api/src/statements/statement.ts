import type pg from "pg";
import type { ExpertStatementCurrencyReply } from "@booking/contracts";
import { comparePositions, expertConnected, expertPayable, parsePosition, PLATFORM_FEE_REVENUE } from "@booking/contracts";
import { expertStatement, LEDGER_ENTRIES_FROM, monthBounds } from "@booking/projections";

// An expert's monthly statement (issue 29.7), from the ledger read model and the bookings read
// model: the month's earnings per booking (released in the month, or given back after a refund),
// the transfers to their account, reversals and payouts, and per currency the ledger's totals of
// the month (the same as the console's JSON statement: expertStatement) with the balance of
// expert_payable:{expert} — what the platform owes them — at the month's start and end. Months are
// calendar months in UTC. Nothing is added across currencies.

type Queryable = Pick<pg.Pool | pg.ClientBase, "query">;

export type EarningLine = {
  at: string;
  /** EarningReleased (the share became theirs) or EarningAdjusted (a later refund took fee and share back). */
  event: "released" | "adjusted";
  bookingId: string;
  session: string;
  sessionDate: string | null;
  currency: string;
  /** What the creator paid and what is owed back to them, as the booking stands now. */
  paidCents: number;
  refundedCents: number;
  /** This event's fee and share: negative for an adjustment. */
  feeCents: number;
  shareCents: number;
};

export type MoneyLine = {
  at: string;
  kind: "transfer" | "reversal" | "payout";
  bookingId: string | null;
  currency: string;
  amountCents: number;
};

/** The ledger's month in one currency, and the expert's share of it (earnings − fee − refunds after release). */
export type CurrencyTotals = ExpertStatementCurrencyReply & { share_cents: number };

export type Statement = { expertId: string; month: string; earnings: EarningLine[]; movements: MoneyLine[]; totals: CurrencyTotals[] };

type EntryRow = {
  event_id: string;
  position: string;
  ordinal: string;
  at: string;
  event_type: string;
  booking_id: string | null;
  account: string;
  currency: string;
  debit_cents: string;
  credit_cents: string;
  session_title: string | null;
  scheduled_time: Date | null;
  paid_cents: string | null;
  refund_due_cents: string | null;
};

const n = (v: string | null) => Number(v ?? 0);
const iso = (at: string) => new Date(at).toISOString();

export async function statementOf(db: Queryable, expertId: string, month: string): Promise<Statement> {
  const { start, end } = monthBounds(month);
  const payable = expertPayable(expertId);
  const connected = expertConnected(expertId);
  const { rows } = await db.query<EntryRow>(
    `SELECT e.event_id, e.position, e.ordinal, e.at, e.event_type, e.booking_id, e.account, e.currency, e.debit_cents, e.credit_cents,
            bk.session_title, bk.scheduled_time, bk.paid_cents, bk.refund_due_cents
     FROM ${LEDGER_ENTRIES_FROM} LEFT JOIN bookings bk ON bk.booking_id = e.booking_id
     WHERE e.expert_id = $1 AND e.book_id NOT LIKE 'booking:%' AND e.at::timestamptz >= $2 AND e.at::timestamptz < $3
       AND e.event_type IN ('EarningReleased', 'EarningAdjusted', 'TransferSent', 'TransferReversed', 'PayoutPaid')`,
    [expertId, start, end],
  );
  // The log's order (events of one instant too), each event's entries as posted.
  rows.sort((a, b) => comparePositions(parsePosition(a.position)!, parsePosition(b.position)!) || Number(a.ordinal) - Number(b.ordinal));
  const earnings = new Map<string, EarningLine>();
  const movements: MoneyLine[] = [];
  for (const r of rows) {
    const at = iso(r.at);
    if (r.event_type === "EarningReleased" || r.event_type === "EarningAdjusted") {
      const line = earnings.get(r.event_id) ?? {
        at,
        event: r.event_type === "EarningReleased" ? ("released" as const) : ("adjusted" as const),
        bookingId: r.booking_id ?? "",
        session: r.session_title ?? "",
        sessionDate: r.scheduled_time ? new Date(r.scheduled_time).toISOString() : null,
        currency: r.currency,
        paidCents: n(r.paid_cents),
        refundedCents: n(r.refund_due_cents),
        feeCents: 0,
        shareCents: 0,
      };
      if (r.account === PLATFORM_FEE_REVENUE) line.feeCents += n(r.credit_cents) - n(r.debit_cents);
      if (r.account === payable) line.shareCents += n(r.credit_cents) - n(r.debit_cents);
      earnings.set(r.event_id, line);
    } else if (r.event_type === "TransferSent" && r.account === connected)
      movements.push({ at, kind: "transfer", bookingId: r.booking_id, currency: r.currency, amountCents: n(r.debit_cents) });
    else if (r.event_type === "TransferReversed" && r.account === connected)
      movements.push({ at, kind: "reversal", bookingId: r.booking_id, currency: r.currency, amountCents: n(r.credit_cents) });
    else if (r.event_type === "PayoutPaid" && r.account === payable)
      movements.push({ at, kind: "payout", bookingId: null, currency: r.currency, amountCents: n(r.debit_cents) });
  }
  const totals = (await expertStatement(db, expertId, month)).currencies.map((c) => ({
    ...c,
    share_cents: c.earnings_cents - c.fee_cents - c.refunds_cents,
  }));
  return { expertId, month, earnings: [...earnings.values()], movements, totals };
}
