import { entityProjection, streamEntityId, type ProjectedEvent } from "../projection.ts";

type EarningsRow = {
  expert_id: string;
  month: string;
  payments_count: number;
  paid_cents: number;
  refunded_cents: number;
  stream_version: number;
};

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

/** Money per expert per calendar month (UTC) of the payment or refund: the Payments tab. */
export const earningsProjection = entityProjection<EarningsRow>({
  name: "earnings",
  table: "earnings",
  key: ["expert_id", "month"],
  columns: ["expert_id", "month", "payments_count", "paid_cents", "refunded_cents", "stream_version"],
  rowKey: (e) => (moneyMoved(e) ? [streamEntityId(e.stored.streamId), e.stored.metadata.at.slice(0, 7)] : null),
  evolve: (row, e) => {
    const moved = moneyMoved(e);
    if (!moved) return row;
    const [expertId, month] = [streamEntityId(e.stored.streamId), e.stored.metadata.at.slice(0, 7)];
    const before = row ?? { expert_id: expertId, month, payments_count: 0, paid_cents: 0, refunded_cents: 0, stream_version: 0 };
    return {
      ...before,
      payments_count: before.payments_count + moved.payments,
      paid_cents: before.paid_cents + moved.paid,
      refunded_cents: before.refunded_cents + moved.refunded,
      stream_version: e.stored.version,
    };
  },
});
