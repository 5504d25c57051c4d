import type {
  BookingStatus,
  EarningsBookingReply,
  EarningsMonthReply,
  EarningsRecord,
  ExpertEarningsReply,
  Migration,
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
    case "PaymentSucceeded":
      return { payments_count: row.payments_count + 1, paid_cents: row.paid_cents + event.data.amountCents };
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
      stream_version: stored.version,
    };
  }
  if (!row) return row;
  const changed = change(row, e);
  if (!changed) return row;
  const after = { ...row, ...changed, stream_version: stored.version };
  return { ...after, earning: earns(after) };
}

/** Each booking's money, kept for its expert's Payments tab and earnings calls. */
export const earningsProjection = entityProjection<EarningsRow>({
  name: "earnings",
  version: 1,
  table: "earnings",
  key: ["booking_id"],
  columns: earningsColumns,
  rowKey: ({ event }) => ("bookingId" in event.data ? [event.data.bookingId] : null),
  evolve: evolveEarnings,
});

/** Totals of earning bookings: a cancelled one is money, not a session held. */
function totalsOf(rows: readonly EarningsRow[]): Omit<EarningsMonthReply, "month"> {
  const gross = rows.reduce((sum, r) => sum + r.paid_cents, 0);
  const refunds = rows.reduce((sum, r) => sum + r.refunded_cents, 0);
  return {
    sessions: rows.filter((r) => r.status !== "cancelled").length,
    gross_cents: gross,
    refunds_cents: refunds,
    net_cents: gross - refunds,
  };
}

export const monthEarnings = (month: string, rows: readonly EarningsRow[]): EarningsMonthReply => ({ month, ...totalsOf(rows) });

/** One booking as the month's list shows it. */
export function earningsBookingReply(r: EarningsRow): EarningsBookingReply {
  const refundState = r.refunded_cents === 0 ? "none" : r.refund_issued_cents >= r.refunded_cents ? "refunded" : "pending";
  return {
    booking_id: r.booking_id,
    session_title: r.session_title,
    scheduled_time: r.scheduled_time,
    status: r.status,
    gross_cents: r.paid_cents,
    refunds_cents: r.refunded_cents,
    net_cents: r.paid_cents - r.refunded_cents,
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

/** The expert's months with earnings, newest first, and their totals. */
export function expertEarnings(expertId: string, rows: readonly EarningsRow[]): ExpertEarningsReply {
  const byMonth = new Map<string, EarningsRow[]>();
  for (const r of rows) byMonth.set(r.month, [...(byMonth.get(r.month) ?? []), r]);
  const months = [...byMonth].map(([month, its]) => monthEarnings(month, its)).sort((a, b) => b.month.localeCompare(a.month));
  return { expert_id: expertId, months, totals: totalsOf(rows) };
}
