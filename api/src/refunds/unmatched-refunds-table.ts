import type { AdminUnmatchedRefundReply, UnmatchedRefundWhy } from "@booking/contracts";
import type { Queryable } from "../reactors/index.ts";
import type { AskedRefund, ReportedRefund } from "./reported-refund.ts";

// What judging a provider's refund reads (the refund the product asked for under a key, what is
// left of a booking's payment), and `unmatched_provider_refunds`, where the refunds it did not
// record are kept for an admin.

/** The refund the product asked for under `refundKey`, or null when it never issued that key. */
export async function askedRefund(db: Queryable, refundKey: string): Promise<AskedRefund | null> {
  const { rows } = await db.query<{
    refund_key: string;
    booking_id: string;
    expert_id: string;
    amount_cents: string;
    refund_id: string | null;
  }>("SELECT refund_key, booking_id, expert_id, amount_cents, refund_id FROM refunds WHERE refund_key = $1", [refundKey]);
  const row = rows[0];
  if (!row) return null;
  return {
    refundKey: row.refund_key,
    bookingId: row.booking_id,
    expertId: row.expert_id,
    amountCents: Number(row.amount_cents),
    refundId: row.refund_id,
  };
}

/** What was paid for the booking (its read model) less what its other refunds (not `exceptRefundKey`) already sent back. */
export async function refundableCents(db: Queryable, bookingId: string, exceptRefundKey: string): Promise<number> {
  const { rows } = await db.query<{ cents: string }>(
    `SELECT COALESCE((SELECT paid_cents FROM bookings WHERE booking_id = $1), 0)
          - COALESCE((SELECT sum(amount_cents) FROM refunds WHERE booking_id = $1 AND status = 'issued' AND refund_key <> $2), 0) AS cents`,
    [bookingId, exceptRefundKey],
  );
  return Number(rows[0]?.cents ?? 0);
}

export type UnmatchedReport = ReportedRefund & {
  provider: string;
  providerStatus: string | null;
  why: UnmatchedRefundWhy;
  eventId: string;
  at: string;
};

/** Keep a refund the product did not record; a report of it again counts and updates it. */
export async function listUnmatched(db: Queryable, r: UnmatchedReport): Promise<void> {
  await db.query(
    `INSERT INTO unmatched_provider_refunds
       (refund_id, provider, amount_cents, provider_status, booking_id, refund_key, why, event_id, first_seen_at, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     ON CONFLICT (refund_id) DO UPDATE SET amount_cents = EXCLUDED.amount_cents, provider_status = EXCLUDED.provider_status, booking_id = EXCLUDED.booking_id,
       refund_key = EXCLUDED.refund_key, why = EXCLUDED.why, event_id = EXCLUDED.event_id, reports = unmatched_provider_refunds.reports + 1,
       last_seen_at = GREATEST(unmatched_provider_refunds.last_seen_at, EXCLUDED.last_seen_at)`,
    [
      r.refundId,
      r.provider,
      r.amountCents,
      r.providerStatus,
      r.claimed?.bookingId ?? null,
      r.claimed?.refundKey ?? null,
      r.why,
      r.eventId,
      r.at,
    ],
  );
}

export const unmatchedColumns =
  "u.refund_id, u.provider, u.amount_cents, u.provider_status, u.booking_id, u.refund_key, u.why, u.event_id, u.reports, u.first_seen_at, u.last_seen_at";

/** What Postgres returns: bigint as text, times as Dates. */
export type UnmatchedRaw = Omit<AdminUnmatchedRefundReply, "id" | "amount_cents" | "first_seen_at" | "last_seen_at"> & {
  amount_cents: string;
  first_seen_at: Date;
  last_seen_at: Date;
};

export const unmatchedFromPg = (r: UnmatchedRaw): AdminUnmatchedRefundReply => ({
  ...r,
  id: r.refund_id,
  amount_cents: Number(r.amount_cents),
  first_seen_at: r.first_seen_at.toISOString(),
  last_seen_at: r.last_seen_at.toISOString(),
});
