import { sql, streamEntityId, type Projection, type Sql } from "../projection.ts";

/** Money per expert per calendar month (UTC) of the payment or refund: the Payments tab. */
export const earningsProjection: Projection = {
  name: "earnings",
  tables: ["earnings"],
  project: ({ event, stored }) => {
    const expertId = streamEntityId(stored.streamId);
    const month = stored.metadata.at.slice(0, 7);
    const add = (payments: number, paid: number, refunded: number): Sql[] => [
      sql(
        `INSERT INTO earnings (expert_id, month, payments_count, paid_cents, refunded_cents, stream_version) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (expert_id, month) DO UPDATE SET payments_count = earnings.payments_count + EXCLUDED.payments_count,
           paid_cents = earnings.paid_cents + EXCLUDED.paid_cents, refunded_cents = earnings.refunded_cents + EXCLUDED.refunded_cents,
           stream_version = EXCLUDED.stream_version
         WHERE earnings.stream_version < EXCLUDED.stream_version`,
        expertId, month, payments, paid, refunded, stored.version,
      ),
    ];
    switch (event.type) {
      case "PaymentSucceeded":
        return add(1, event.data.amountCents, 0);
      case "RefundDue":
        return add(0, 0, event.data.amountCents);
      case "Cancelled":
        return event.data.refundCents > 0 ? add(0, 0, event.data.refundCents) : [];
      default:
        return [];
    }
  },
};
