import { transferKeyOf, type Currency } from "@booking/contracts";
import type { Queryable } from "../reactors/index.ts";
import type { BookingFact } from "./payout-facts.ts";

// `payout_bookings`: each booking's money as the payouts see it (what was paid, under which fee,
// what is owed back, when it was completed), then its release and the transfer of its share; and
// `payout_reversals`: the share given back by each later refund, reversed once the transfer went.

/** Write one fact of an expert's calendar (read once, with the checkpoint). */
export async function recordBookingFact(db: Queryable, fact: BookingFact): Promise<void> {
  switch (fact.kind) {
    case "requested":
      await db.query(
        `INSERT INTO payout_bookings (booking_id, expert_id, currency) VALUES ($1, $2, $3)
         ON CONFLICT (booking_id) DO UPDATE SET currency = EXCLUDED.currency, updated_at = now()`,
        [fact.bookingId, fact.expertId, fact.currency],
      );
      return;
    case "paid":
      // The first payment fixes the fee rate; a later one (owed back by RefundDue) adds to what was paid.
      await db.query(
        `INSERT INTO payout_bookings (booking_id, expert_id, currency, paid_cents, fee_basis_points, status)
         VALUES ($1, $2, COALESCE($4, 'USD'), $3, $5, 'paid')
         ON CONFLICT (booking_id) DO UPDATE SET paid_cents = payout_bookings.paid_cents + EXCLUDED.paid_cents,
           currency = COALESCE($4, payout_bookings.currency),
           fee_basis_points = COALESCE(payout_bookings.fee_basis_points, EXCLUDED.fee_basis_points),
           status = CASE WHEN payout_bookings.status = 'requested' THEN 'paid' ELSE payout_bookings.status END, updated_at = now()`,
        [fact.bookingId, fact.expertId, fact.amountCents, fact.currency, fact.feeBasisPoints],
      );
      return;
    case "owed_back":
      await db.query("UPDATE payout_bookings SET refunded_cents = refunded_cents + $2, updated_at = now() WHERE booking_id = $1", [
        fact.bookingId,
        fact.amountCents,
      ]);
      return;
    case "status":
      await db.query(
        `UPDATE payout_bookings SET status = $2, completed_at = CASE WHEN $2 = 'completed' THEN $3::timestamptz ELSE completed_at END,
           updated_at = now()
         WHERE booking_id = $1 AND status NOT IN ('completed', 'cancelled')`,
        [fact.bookingId, fact.status, fact.at],
      );
      return;
    case "reported":
      // Held back from release, even once completed (a report comes at most 48 hours after the end, the release days later).
      await db.query(
        `UPDATE payout_bookings SET status = 'reported', completed_at = NULL, updated_at = now()
         WHERE booking_id = $1 AND released_at IS NULL AND status <> 'cancelled'`,
        [fact.bookingId],
      );
      return;
  }
}

export type Released = {
  expertId: string;
  bookingId: string;
  currency: Currency;
  refundedCents: number;
  feeCents: number;
  shareCents: number;
  at: string;
};

/** EarningReleased: the share is the expert's; its transfer is due at once (none when there is no share). */
export async function markReleased(db: Queryable, r: Released): Promise<void> {
  await db.query(`INSERT INTO payout_bookings (booking_id, expert_id, currency) VALUES ($1, $2, $3) ON CONFLICT (booking_id) DO NOTHING`, [
    r.bookingId,
    r.expertId,
    r.currency,
  ]);
  await db.query(
    `UPDATE payout_bookings SET released_at = COALESCE(released_at, $2::timestamptz), released_refunded_cents = $3, released_fee_cents = $4,
       released_share_cents = $5, adjusted_refunded_cents = GREATEST(COALESCE(adjusted_refunded_cents, 0), $3), transfer_key = $6,
       transfer_status = CASE WHEN transfer_status = 'none' AND $5::bigint > 0 THEN 'pending' ELSE transfer_status END,
       next_attempt_at = COALESCE(next_attempt_at, $2::timestamptz), updated_at = now()
     WHERE booking_id = $1 AND released_at IS NULL`,
    [r.bookingId, r.at, r.refundedCents, r.feeCents, r.shareCents, transferKeyOf(r.bookingId)],
  );
}

export type Adjusted = {
  reversalKey: string;
  expertId: string;
  bookingId: string;
  currency: Currency;
  refundedCents: number;
  shareCents: number;
  at: string;
};

/** EarningAdjusted: the share given back is to be reversed from the transfer (none to reverse when it is nothing). */
export async function markAdjusted(db: Queryable, a: Adjusted): Promise<void> {
  await db.query(
    `INSERT INTO payout_reversals (reversal_key, booking_id, expert_id, amount_cents, currency, status, next_attempt_at, adjusted_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $4::bigint > 0 THEN 'pending' ELSE 'not_needed' END, $6, $6)
     ON CONFLICT (reversal_key) DO NOTHING`,
    [a.reversalKey, a.bookingId, a.expertId, a.shareCents, a.currency, a.at],
  );
  await db.query(
    `UPDATE payout_bookings SET adjusted_refunded_cents = GREATEST(COALESCE(adjusted_refunded_cents, 0), $2), updated_at = now() WHERE booking_id = $1`,
    [a.bookingId, a.refundedCents],
  );
}

export async function markTransferred(
  db: Queryable,
  t: { bookingId: string; transferId: string; amountCents: number; at: string },
): Promise<void> {
  await db.query(
    `UPDATE payout_bookings SET transfer_status = 'sent', transfer_id = $2, transferred_cents = $3, transferred_at = COALESCE(transferred_at, $4::timestamptz),
       last_error = NULL, updated_at = now()
     WHERE booking_id = $1 AND transfer_status <> 'sent'`,
    [t.bookingId, t.transferId, t.amountCents, t.at],
  );
}

/** A failed transfer: the reason always; the attempt count and the next try only from the reactor that made it. */
export async function markTransferFailed(
  db: Queryable,
  bookingId: string,
  failure: { reason: string; attempts?: number; nextAttemptAt?: string },
): Promise<void> {
  await db.query(
    `UPDATE payout_bookings SET transfer_status = 'failed', last_error = $2, transfer_attempts = COALESCE($3, transfer_attempts),
       next_attempt_at = COALESCE($4::timestamptz, next_attempt_at), updated_at = now()
     WHERE booking_id = $1 AND transfer_status <> 'sent'`,
    [bookingId, failure.reason, failure.attempts ?? null, failure.nextAttemptAt ?? null],
  );
}

export async function markReversed(db: Queryable, r: { reversalKey: string; reversalId: string; at: string }): Promise<void> {
  await db.query(
    `UPDATE payout_reversals SET status = 'reversed', reversal_id = $2, reversed_at = COALESCE(reversed_at, $3::timestamptz), last_error = NULL,
       updated_at = now()
     WHERE reversal_key = $1`,
    [r.reversalKey, r.reversalId, r.at],
  );
}

export async function markReversalFailed(
  db: Queryable,
  reversalKey: string,
  failure: { reason: string; attempts?: number; nextAttemptAt?: string },
): Promise<void> {
  await db.query(
    `UPDATE payout_reversals SET status = 'failed', last_error = $2, attempts = COALESCE($3, attempts),
       next_attempt_at = COALESCE($4::timestamptz, next_attempt_at), updated_at = now()
     WHERE reversal_key = $1 AND status <> 'reversed'`,
    [reversalKey, failure.reason, failure.attempts ?? null, failure.nextAttemptAt ?? null],
  );
}

export type DueTransfer = {
  booking_id: string;
  expert_id: string;
  account_id: string;
  transfer_key: string;
  currency: Currency;
  amount_cents: number;
  attempts: number;
};

/**
 * Take up to `limit` transfers due at `now` to an expert whose account is enabled and whose
 * payouts are not held, leasing each until `leaseUntil` (another process skips them meanwhile; a
 * process killed mid-transfer leaves them due again when the lease ends).
 */
export async function takeDueTransfers(db: Queryable, now: string, leaseUntil: string, limit: number): Promise<DueTransfer[]> {
  const { rows } = await db.query<{
    booking_id: string;
    expert_id: string;
    account_id: string;
    transfer_key: string;
    currency: Currency;
    amount_cents: string;
    attempts: number;
  }>(
    `WITH due AS (
       SELECT b.booking_id, e.account_id FROM payout_bookings b JOIN payout_experts e ON e.expert_id = b.expert_id
       WHERE b.transfer_status IN ('pending', 'failed') AND b.next_attempt_at <= $1 AND e.payouts_enabled AND NOT e.held AND e.account_id IS NOT NULL
       ORDER BY b.next_attempt_at, b.booking_id LIMIT $3 FOR UPDATE OF b SKIP LOCKED
     )
     UPDATE payout_bookings b SET next_attempt_at = $2 FROM due WHERE b.booking_id = due.booking_id
     RETURNING b.booking_id, b.expert_id, due.account_id, b.transfer_key, b.currency, b.released_share_cents AS amount_cents, b.transfer_attempts AS attempts`,
    [now, leaseUntil, limit],
  );
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
}

export type DueReversal = {
  reversal_key: string;
  booking_id: string;
  expert_id: string;
  transfer_id: string;
  currency: Currency;
  amount_cents: number;
  attempts: number;
};

/** Take up to `limit` reversals due at `now` whose transfer went (a hold does not stop money coming back), leased until `leaseUntil`. */
export async function takeDueReversals(db: Queryable, now: string, leaseUntil: string, limit: number): Promise<DueReversal[]> {
  const { rows } = await db.query<Omit<DueReversal, "amount_cents"> & { amount_cents: string }>(
    `WITH due AS (
       SELECT r.reversal_key, b.transfer_id FROM payout_reversals r JOIN payout_bookings b ON b.booking_id = r.booking_id
       WHERE r.status IN ('pending', 'failed') AND r.next_attempt_at <= $1 AND b.transfer_status = 'sent'
       ORDER BY r.next_attempt_at, r.reversal_key LIMIT $3 FOR UPDATE OF r SKIP LOCKED
     )
     UPDATE payout_reversals r SET next_attempt_at = $2 FROM due WHERE r.reversal_key = due.reversal_key
     RETURNING r.reversal_key, r.booking_id, r.expert_id, due.transfer_id, r.currency, r.amount_cents, r.attempts`,
    [now, leaseUntil, limit],
  );
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
}

/** Who a provider's transfer was for (Stripe's transfer.reversed names the transfer), or null when it is not one of ours. */
export async function transferOf(
  db: Queryable,
  transferId: string,
): Promise<{ bookingId: string; expertId: string; currency: Currency } | null> {
  const { rows } = await db.query<{ booking_id: string; expert_id: string; currency: Currency }>(
    "SELECT booking_id, expert_id, currency FROM payout_bookings WHERE transfer_id = $1",
    [transferId],
  );
  const row = rows[0];
  return row ? { bookingId: row.booking_id, expertId: row.expert_id, currency: row.currency } : null;
}
