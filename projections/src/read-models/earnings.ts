import {
  CURRENCIES,
  DEFAULT_CURRENCY,
  earningSplit,
  type BookingStatus,
  type Currency,
  type EarningsBookingReply,
  type EarningsMonthReply,
  type EarningsRecord,
  type EarningsTotalsReply,
  type ExpertEarningsReply,
  type Migration,
} from "@booking/contracts";
import { entityProjection, streamEntityId, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

/** A row of the `earnings` read model (one booking's money, as its expert earns it): declared once, in contracts. */
export type EarningsRow = EarningsRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const earningsColumnTypes = {
  booking_id: "text",
  expert_id: "text",
  session_title: "text",
  scheduled_time: "timestamptz",
  month: "text",
  status: "text",
  accepted: "boolean",
  earning: "boolean",
  payments_count: "int",
  paid_cents: "bigint",
  refunded_cents: "bigint",
  refund_issued_cents: "bigint",
  currency: "text",
  fee_basis_points: "int",
  fee_cents: "bigint",
  share_cents: "bigint",
  stream_version: "bigint",
} as const satisfies Record<keyof EarningsRow, ColumnType>;

export const earningsColumns = columnsOf<EarningsRow>(earningsColumnTypes);

/** A row as pg returns it, in the Row's JSON shape. */
export const earningsFromPg = (raw: Record<string, unknown>): EarningsRow => rowFromPg<EarningsRow>(earningsColumnTypes, raw);

/**
 * The table was one row per expert and month of the payment; the Payments tab needs the month of
 * the session and each booking, so it becomes one row per booking. Its checkpoint goes back to the
 * start so the runner refills it from the log (a read model is only ever its events).
 */
export const earningsMigrations: readonly Migration[] = [
  {
    name: "007_earnings_per_booking",
    sql: `
      DROP TABLE earnings;
      CREATE TABLE earnings (
        booking_id text PRIMARY KEY,
        expert_id text NOT NULL,
        session_title text NOT NULL,
        scheduled_time timestamptz NOT NULL,
        month text NOT NULL,
        status text NOT NULL,
        accepted boolean NOT NULL,
        earning boolean NOT NULL,
        payments_count int NOT NULL,
        paid_cents bigint NOT NULL,
        refunded_cents bigint NOT NULL,
        refund_issued_cents bigint NOT NULL,
        stream_version bigint NOT NULL
      );
      CREATE INDEX earnings_expert_month ON earnings (expert_id, month) WHERE earning;
      UPDATE projection_checkpoints SET position = NULL, events_applied = 0, last_error = NULL WHERE name = 'earnings';
    `,
  },
  {
    // Issue 29.1: the fee on each earning. Bookings paid before it kept no fee rate (0: the share is all
    // that was kept) and were in US dollars, so this fills old rows exactly; version 2 of the projection
    // rebuilds the table from the events all the same.
    name: "016_earnings_currency_and_fee",
    sql: `
      ALTER TABLE earnings
        ADD COLUMN currency text NOT NULL DEFAULT 'USD',
        ADD COLUMN fee_basis_points int NOT NULL DEFAULT 0,
        ADD COLUMN fee_cents bigint NOT NULL DEFAULT 0,
        ADD COLUMN share_cents bigint NOT NULL DEFAULT 0;
      UPDATE earnings SET share_cents = GREATEST(paid_cents - refunded_cents, 0);
    `,
  },
];

/** The UTC month (`YYYY-MM`) of an instant. */
const monthOf = (instant: string) => new Date(instant).toISOString().slice(0, 7);

/**
 * Rule: a booking earns once its expert accepted it, or when it ends cancelled with money the
 * creator is not refunded (a late cancellation). A paid request still awaiting acceptance earns
 * nothing yet: declining it refunds the creator.
 */
export const earns = (r: Pick<EarningsRow, "paid_cents" | "refunded_cents" | "accepted" | "status">): boolean =>
  r.paid_cents > 0 && (r.accepted || (r.status === "cancelled" && r.paid_cents > r.refunded_cents));

/** What an event changes in the booking's row, or null when it changes nothing here. */
function change(row: EarningsRow, { event }: ProjectedEvent): Partial<EarningsRow> | null {
  switch (event.type) {
    // The fee rate is the one the booking was paid under (absent: paid before fees were recorded, no fee).
    case "PaymentSucceeded":
      return {
        payments_count: row.payments_count + 1,
        paid_cents: row.paid_cents + event.data.amountCents,
        fee_basis_points: event.data.feeBasisPoints ?? 0,
        currency: event.data.currency ?? row.currency,
      };
    // Refunds count when owed: the money is no longer the expert's, whether or not it has reached the creator yet.
    case "RefundDue":
      return { refunded_cents: row.refunded_cents + event.data.amountCents };
    case "RefundIssued":
      return { refund_issued_cents: row.refund_issued_cents + event.data.amountCents };
    case "TimeProposed":
      return { status: "time_proposed", scheduled_time: event.data.scheduledTime, month: monthOf(event.data.scheduledTime) };
    // A move keeps the booking's status; it counts in the month it now takes place in.
    case "RescheduleAccepted":
      return { scheduled_time: event.data.to, month: monthOf(event.data.to) };
    case "InfoRequested":
      return { status: "more_info_requested" };
    case "PrepSubmitted":
      return row.status === "more_info_requested" ? { status: "pending" } : null;
    case "Confirmed":
      return { status: "confirmed", accepted: true };
    case "Cancelled":
      return { status: "cancelled", refunded_cents: row.refunded_cents + event.data.refundCents };
    case "Completed":
      return { status: "completed" };
    // A no-show report's end (issue 31.1): what was owed back came in its own RefundDue.
    case "NoShowSettled":
      return { status: event.data.outcome };
    // A lost dispute took money back from the booking, as a refund (issue 31.2).
    case "DisputeClosed":
      return event.data.lostCents > 0
        ? { refunded_cents: row.refunded_cents + event.data.lostCents, refund_issued_cents: row.refund_issued_cents + event.data.lostCents }
        : null;
    default:
      return null;
  }
}

/** The whole rule: the booking's row as it was (undefined: not requested yet) and an event, to the row after it. */
export function evolveEarnings(row: EarningsRow | undefined, e: ProjectedEvent): EarningsRow | undefined {
  const { event, stored } = e;
  if (event.type === "BookingRequested") {
    if (row) return row; // requested once
    const d = event.data;
    const status: BookingStatus = "pending";
    return {
      booking_id: d.bookingId,
      expert_id: streamEntityId(stored.streamId),
      session_title: d.sessionTitle,
      scheduled_time: d.scheduledTime,
      month: monthOf(d.scheduledTime),
      status,
      accepted: false,
      earning: false,
      payments_count: 0,
      paid_cents: 0,
      refunded_cents: 0,
      refund_issued_cents: 0,
      currency: d.currency ?? DEFAULT_CURRENCY,
      fee_basis_points: 0,
      fee_cents: 0,
      share_cents: 0,
      stream_version: stored.version,
    };
  }
  if (!row) return row;
  const changed = change(row, e);
  if (!changed) return row;
  const after = { ...row, ...changed, stream_version: stored.version };
  const { feeCents, shareCents } = earningSplit(after.paid_cents, after.refunded_cents, after.fee_basis_points);
  return { ...after, fee_cents: feeCents, share_cents: shareCents, earning: earns(after) };
}

/** Each booking's money, kept for its expert's Payments tab and earnings calls. */
export const earningsProjection = entityProjection<EarningsRow>({
  name: "earnings",
  // 2: currency, fee_basis_points, fee_cents and share_cents (issue 29.1), filled by a rebuild.
  version: 2,
  table: "earnings",
  key: ["booking_id"],
  columns: earningsColumns,
  rowKey: ({ event }) => ("bookingId" in event.data ? [event.data.bookingId] : null),
  evolve: evolveEarnings,
});

/** Totals of earning bookings of one currency: a cancelled one is money, not a session held. */
function totalsOf(currency: Currency, rows: readonly EarningsRow[]): EarningsTotalsReply {
  const sum = (cents: (r: EarningsRow) => number) => rows.reduce((total, r) => total + cents(r), 0);
  const gross = sum((r) => r.paid_cents);
  const refunds = sum((r) => r.refunded_cents);
  return {
    currency,
    sessions: rows.filter((r) => r.status !== "cancelled").length,
    gross_cents: gross,
    refunds_cents: refunds,
    net_cents: gross - refunds,
    fee_cents: sum((r) => r.fee_cents),
    share_cents: sum((r) => r.share_cents),
  };
}

/** Totals per currency, in the order of CURRENCIES; amounts of different currencies are never added. */
function totalsByCurrency(rows: readonly EarningsRow[]): EarningsTotalsReply[] {
  return CURRENCIES.flatMap((currency) => {
    const its = rows.filter((r) => r.currency === currency);
    return its.length ? [totalsOf(currency, its)] : [];
  });
}

/** The currency the expert earns in now: that of their latest session (rows come by session time). */
const latestCurrency = (rows: readonly EarningsRow[]): Currency => rows.at(-1)?.currency ?? DEFAULT_CURRENCY;

/** A month's totals in each currency it has sessions in. */
export const monthEarningsByCurrency = (month: string, rows: readonly EarningsRow[]): EarningsMonthReply[] =>
  totalsByCurrency(rows).map((totals) => ({ month, ...totals }));

/** A month's totals in the currency of its latest session (rows of one month, by session time). */
export function monthEarnings(month: string, rows: readonly EarningsRow[]): EarningsMonthReply {
  const currency = latestCurrency(rows);
  return {
    month,
    ...totalsOf(
      currency,
      rows.filter((r) => r.currency === currency),
    ),
  };
}

/** One booking as the month's list shows it. */
export function earningsBookingReply(r: EarningsRow): EarningsBookingReply {
  const refundState = r.refunded_cents === 0 ? "none" : r.refund_issued_cents >= r.refunded_cents ? "refunded" : "pending";
  return {
    booking_id: r.booking_id,
    session_title: r.session_title,
    scheduled_time: r.scheduled_time,
    status: r.status,
    currency: r.currency,
    gross_cents: r.paid_cents,
    refunds_cents: r.refunded_cents,
    net_cents: r.paid_cents - r.refunded_cents,
    fee_basis_points: r.fee_basis_points,
    fee_cents: r.fee_cents,
    share_cents: r.share_cents,
    refund_state: refundState,
  };
}

/** The expert's earning bookings, by session time; of one month when given. */
export async function earningBookings(db: Queryable, expertId: string, month?: string): Promise<EarningsRow[]> {
  const { rows } = await db.query(
    `SELECT ${earningsColumns.join(", ")} FROM earnings WHERE expert_id = $1 AND earning AND ($2::text IS NULL ` +
      `OR month = $2) ORDER BY scheduled_time, booking_id`,
    [expertId, month ?? null],
  );
  return rows.map(earningsFromPg);
}

/** Where a page of a month's earning bookings starts: after this booking, by session time. */
export type EarningsCursor = { scheduledTime: string; bookingId: string };

/**
 * One page of the expert's earning bookings of a month (issue 34.5), by keyset: session time then booking id, ascending
 * (the month's order), so a page starts strictly after the last row of the one before and costs the same wherever it is.
 */
export async function earningBookingsPage(
  db: Queryable,
  expertId: string,
  month: string,
  page: { after: EarningsCursor | null; limit: number },
): Promise<{ rows: EarningsRow[]; next: EarningsCursor | null }> {
  const after = page.after ? "AND (scheduled_time, booking_id) > ($4::timestamptz, $5)" : "";
  const { rows } = await db.query(
    `SELECT ${earningsColumns.join(", ")} FROM earnings WHERE expert_id = $1 AND earning AND month = $2 ${after} ` +
      "ORDER BY scheduled_time, booking_id LIMIT $3",
    [expertId, month, page.limit + 1, ...(page.after ? [page.after.scheduledTime, page.after.bookingId] : [])],
  );
  const shown = rows.slice(0, page.limit).map(earningsFromPg);
  const last = shown.at(-1);
  return {
    rows: shown,
    next: rows.length > page.limit && last ? { scheduledTime: last.scheduled_time, bookingId: last.booking_id } : null,
  };
}

/** The expert's months with earnings, newest first, one per month and currency, and their totals per currency. */
export function expertEarnings(expertId: string, rows: readonly EarningsRow[]): ExpertEarningsReply {
  const byMonth = new Map<string, EarningsRow[]>();
  for (const r of rows) byMonth.set(r.month, [...(byMonth.get(r.month) ?? []), r]);
  const newestFirst = [...byMonth].sort(([a], [b]) => b.localeCompare(a));
  const months = newestFirst.flatMap(([month, its]) => monthEarningsByCurrency(month, its));
  const currency = latestCurrency(rows);
  const totals = totalsOf(
    currency,
    rows.filter((r) => r.currency === currency),
  );
  return { expert_id: expertId, months, totals, totals_by_currency: totalsByCurrency(rows) };
}
