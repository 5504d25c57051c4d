import type { EarningsRecord } from "@booking/contracts";
import { entityProjection, streamEntityId, type ProjectedEvent } from "../projection.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

/** A row of the `earnings` read model: declared once, in contracts. */
export type EarningsRow = EarningsRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const earningsColumnTypes = {
  expert_id: "text", month: "text", payments_count: "int", paid_cents: "bigint", refunded_cents: "bigint", stream_version: "bigint",
} as const satisfies Record<keyof EarningsRow, ColumnType>;

export const earningsColumns = columnsOf<EarningsRow>(earningsColumnTypes);

/** A row as pg returns it, in the Row's JSON shape. */
export const earningsFromPg = (raw: Record<string, unknown>): EarningsRow => rowFromPg<EarningsRow>(earningsColumnTypes, raw);

/** What a payment, refund or refunding cancellation adds to the expert's month. */
function moneyMoved({ event }: ProjectedEvent): { payments: number; paid: number; refunded: number } | null {
  switch (event.type) {
    case "PaymentSucceeded":
      return { payments: 1, paid: event.data.amountCents, refunded: 0 };
    case "RefundDue":
      return { payments: 0, paid: 0, refunded: event.data.amountCents };
    case "Cancelled":
      return event.data.refundCents > 0 ? { payments: 0, paid: 0, refunded: event.data.refundCents } : null;
    default:
      return null;
  }
}

/** The expert (their calendar stream's id) and the UTC month (`YYYY-MM`) the money moved in. */
const earningsKey = ({ stored }: ProjectedEvent): [string, string] => [streamEntityId(stored.streamId), stored.metadata.at.slice(0, 7)];

/** The whole rule: the expert's month as it was (undefined: nothing yet) and an event, to the month after it. */
export function evolveEarnings(row: EarningsRow | undefined, e: ProjectedEvent): EarningsRow | undefined {
  const moved = moneyMoved(e);
  if (!moved) return row;
  const [expertId, month] = earningsKey(e);
  const before = row ?? { expert_id: expertId, month, payments_count: 0, paid_cents: 0, refunded_cents: 0, stream_version: 0 };
  return {
    ...before,
    payments_count: before.payments_count + moved.payments,
    paid_cents: before.paid_cents + moved.paid,
    refunded_cents: before.refunded_cents + moved.refunded,
    stream_version: e.stored.version,
  };
}

/** Money per expert per calendar month (UTC) of the payment or refund: the Payments tab. */
export const earningsProjection = entityProjection<EarningsRow>({
  name: "earnings",
  table: "earnings",
  key: ["expert_id", "month"],
  columns: earningsColumns,
  rowKey: (e) => (moneyMoved(e) ? earningsKey(e) : null),
  evolve: evolveEarnings,
});
