import type { RefundRecord } from "@booking/contracts";
import type { Queryable } from "../reactors/index.ts";
import type { RefundFact } from "./owed.ts";

// The `refunds` table what the log has owed, and what became of it.

/** A row of `refunds`, in contracts' shape (the console shows it as it is). */
export type RefundRow = RefundRecord;

/** What Postgres returns: bigint as text, times as Dates. */
type Raw = Omit<RefundRow, "amount_cents" | "owed_at" | "next_attempt_at" | "issued_at" | "updated_at"> & {
  amount_cents: string;
  owed_at: Date;
  next_attempt_at: Date;
  issued_at: Date | null;
  updated_at: Date;
};

export const refundColumns =
  "refund_key, booking_id, expert_id, payment_id, amount_cents, reason, owed_at, status, attempts, " +
  "next_attempt_at, last_error, refund_id, provider, issued_at, updated_at";

export const refundFromPg = (r: Raw): RefundRow => ({
  ...r,
  amount_cents: Number(r.amount_cents),
  owed_at: r.owed_at.toISOString(),
  next_attempt_at: r.next_attempt_at.toISOString(),
  issued_at: r.issued_at?.toISOString() ?? null,
  updated_at: r.updated_at.toISOString(),
});

/** Write one fact the log states; each is idempotent, so a batch read again after a crash changes nothing. */
export async function recordFact(db: Queryable, fact: RefundFact): Promise<void> {
  switch (fact.kind) {
    case "paid":
      await db.query("INSERT INTO refund_booking_payments (booking_id, payment_id) VALUES ($1, $2) ON CONFLICT (booking_id) DO NOTHING", [
        fact.bookingId,
        fact.paymentId,
      ]);
      return;
    case "owed":
      // Due at once; a cancellation owes its refund to the booking's first payment.
      await db.query(
        `INSERT INTO refunds (refund_key, booking_id, expert_id, payment_id, amount_cents, reason, owed_at, next_attempt_at)
         VALUES ($1, $2, $3, COALESCE($4, (SELECT payment_id FROM refund_booking_payments WHERE booking_id = $2)), $5, $6, $7, $7)
         ON CONFLICT (refund_key) DO NOTHING`,
        [fact.refundKey, fact.bookingId, fact.expertId, fact.paymentId, fact.amountCents, fact.reason, fact.at],
      );
      return;
    case "issued":
      await markIssued(db, fact.refundKey, { refundId: fact.refundId, provider: fact.provider, at: fact.at });
      return;
    case "failed":
      // The attempt count and the next try are the payer's; the log only tells the reason.
      await db.query(
        `UPDATE refunds SET status = 'failed', last_error = $2, updated_at = now() WHERE refund_key = $1 AND status <> 'issued'`,
        [fact.refundKey, fact.reason],
      );
      return;
  }
}

export async function markIssued(
  db: Queryable,
  refundKey: string,
  issued: { refundId: string; provider: string; at: string },
): Promise<void> {
  await db.query(
    `UPDATE refunds SET status = 'issued', refund_id = $2, provider = $3,
         issued_at = COALESCE(issued_at, $4::timestamptz), last_error = NULL, updated_at = now()
     WHERE refund_key = $1`,
    [refundKey, issued.refundId, issued.provider, issued.at],
  );
}

export async function markFailed(
  db: Queryable,
  refundKey: string,
  failure: { reason: string; attempts: number; nextAttemptAt: string },
): Promise<void> {
  await db.query(
    `UPDATE refunds SET status = 'failed', last_error = $2, attempts = $3, next_attempt_at = $4, updated_at = ` +
      `now() WHERE refund_key = $1 AND status <> 'issued'`,
    [refundKey, failure.reason, failure.attempts, failure.nextAttemptAt],
  );
}

/**
 * Take up to `limit` refunds due at `now`, leasing each until `leaseUntil`: another payer (a second
 * process) skips them meanwhile, and a payer that dies mid-way leaves them due again when the lease ends.
 */
export async function takeDueRefunds(db: Queryable, now: string, leaseUntil: string, limit: number): Promise<RefundRow[]> {
  const { rows } = await db.query<Raw>(
    `UPDATE refunds SET next_attempt_at = $2 WHERE refund_key IN (
       SELECT refund_key FROM refunds WHERE status <> 'issued' AND next_attempt_at <= $1 ORDER BY next_attempt_at, refund_key LIMIT $3 FOR UPDATE SKIP LOCKED
     ) RETURNING ${refundColumns}`,
    [now, leaseUntil, limit],
  );
  return rows.map(refundFromPg);
}
