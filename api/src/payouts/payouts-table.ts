import type { Currency, PayoutProviderName } from "@booking/contracts";
import type { Queryable } from "../reactors/index.ts";

// `payout_experts` (each expert's account and hold, as the payouts stream last said) and
// `payout_payouts` (each payout asked for and what became of it). Every write is idempotent and
// never moves a row back, so the reactor reading the log and a route recording its own command's
// events may both write the same fact, in either order.

export type ExpertAccountFact =
  | { kind: "connected"; accountId: string; provider: PayoutProviderName }
  | { kind: "status"; accountId: string; payoutsEnabled: boolean; detailsSubmitted: boolean }
  | { kind: "held"; reason: string }
  | { kind: "resumed" };

/** Apply one account event of version `version` of the expert's payouts stream, unless a newer one is already applied. */
export async function recordExpertFact(db: Queryable, expertId: string, version: number, fact: ExpertAccountFact): Promise<void> {
  const set = {
    connected: "account_id = $3, provider = $4",
    status: "account_id = $3, payouts_enabled = $4::boolean, details_submitted = $5::boolean",
    held: "held = true, held_reason = $3",
    resumed: "held = false, held_reason = NULL",
  }[fact.kind];
  const values =
    fact.kind === "connected"
      ? [fact.accountId, fact.provider]
      : fact.kind === "status"
        ? [fact.accountId, fact.payoutsEnabled, fact.detailsSubmitted]
        : fact.kind === "held"
          ? [fact.reason]
          : [];
  await db.query("INSERT INTO payout_experts (expert_id) VALUES ($1) ON CONFLICT (expert_id) DO NOTHING", [expertId]);
  await db.query(`UPDATE payout_experts SET ${set}, stream_version = $2, updated_at = now() WHERE expert_id = $1 AND stream_version < $2`, [
    expertId,
    version,
    ...values,
  ]);
}

/** Which expert a provider's account belongs to (Stripe's account.updated names the account), or null when it is not one of ours. */
export async function expertOfAccount(db: Queryable, accountId: string): Promise<string | null> {
  const { rows } = await db.query<{ expert_id: string }>("SELECT expert_id FROM payout_experts WHERE account_id = $1", [accountId]);
  return rows[0]?.expert_id ?? null;
}

export type PayoutStatus = "requested" | "in_transit" | "paid" | "failed";

export async function recordPayoutRequested(
  db: Queryable,
  p: { payoutKey: string; expertId: string; amountCents: number; currency: Currency; by: string; at: string },
): Promise<void> {
  await db.query(
    `INSERT INTO payout_payouts (payout_key, expert_id, amount_cents, currency, by, next_attempt_at, requested_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (payout_key) DO NOTHING`,
    [p.payoutKey, p.expertId, p.amountCents, p.currency, p.by, p.at],
  );
}

/**
 * The provider took it (in transit), or it arrived, or it failed: a payout only ever moves forward, and failed is final.
 * Paid is not: the bank can return a paid payout (the stream records PayoutFailed after PayoutPaid), so the row follows it.
 */
export async function recordPayoutOutcome(
  db: Queryable,
  payoutKey: string,
  outcome: { status: "in_transit" | "paid"; payoutId: string; at: string } | { status: "failed"; reason: string; at: string },
): Promise<void> {
  if (outcome.status === "failed") {
    await db.query(
      `UPDATE payout_payouts SET status = 'failed', failure_reason = $2, failed_at = $3, updated_at = now()
       WHERE payout_key = $1 AND status <> 'failed'`,
      [payoutKey, outcome.reason, outcome.at],
    );
    return;
  }
  await db.query(
    `UPDATE payout_payouts SET payout_id = $2, last_error = NULL, sent_at = COALESCE(sent_at, $3::timestamptz),
       paid_at = CASE WHEN $4 = 'paid' THEN COALESCE(paid_at, $3::timestamptz) ELSE paid_at END,
       status = CASE WHEN $4 = 'paid' OR status = 'paid' THEN 'paid' ELSE 'in_transit' END, updated_at = now()
     WHERE payout_key = $1 AND status <> 'failed'`,
    [payoutKey, outcome.payoutId, outcome.at, outcome.status],
  );
}

/** The provider could not be asked: the payout stays requested, tried again after `nextAttemptAt`. */
export async function markPayoutAttemptFailed(
  db: Queryable,
  payoutKey: string,
  failure: { reason: string; attempts: number; nextAttemptAt: string },
): Promise<void> {
  await db.query(
    `UPDATE payout_payouts SET last_error = $2, attempts = $3, next_attempt_at = $4, updated_at = now() WHERE payout_key = $1 AND status = 'requested'`,
    [payoutKey, failure.reason, failure.attempts, failure.nextAttemptAt],
  );
}

export type DuePayout = {
  payout_key: string;
  expert_id: string;
  account_id: string;
  amount_cents: number;
  currency: Currency;
  attempts: number;
};

/** Take up to `limit` requested payouts due at `now` of experts not held, leased until `leaseUntil`. */
export async function takeDuePayouts(db: Queryable, now: string, leaseUntil: string, limit: number): Promise<DuePayout[]> {
  const { rows } = await db.query<Omit<DuePayout, "amount_cents"> & { amount_cents: string }>(
    `WITH due AS (
       SELECT p.payout_key, e.account_id FROM payout_payouts p JOIN payout_experts e ON e.expert_id = p.expert_id
       WHERE p.status = 'requested' AND p.next_attempt_at <= $1 AND NOT e.held AND e.account_id IS NOT NULL
       ORDER BY p.next_attempt_at, p.payout_key LIMIT $3 FOR UPDATE OF p SKIP LOCKED
     )
     UPDATE payout_payouts p SET next_attempt_at = $2 FROM due WHERE p.payout_key = due.payout_key
     RETURNING p.payout_key, p.expert_id, due.account_id, p.amount_cents, p.currency, p.attempts`,
    [now, leaseUntil, limit],
  );
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
}

/** Which payout a provider's payout id is (Stripe's payout.paid / payout.failed), or null when it is not one of ours. */
export async function payoutOfProviderId(db: Queryable, payoutId: string): Promise<{ payoutKey: string; expertId: string } | null> {
  const { rows } = await db.query<{ payout_key: string; expert_id: string }>(
    "SELECT payout_key, expert_id FROM payout_payouts WHERE payout_id = $1",
    [payoutId],
  );
  const row = rows[0];
  return row ? { payoutKey: row.payout_key, expertId: row.expert_id } : null;
}

/**
 * Experts whose money is available to pay out in a currency (transferred, less reversed, less
 * payouts not failed), whose account is enabled and payouts not held, with no payout yet under
 * the schedule's key for `payoutKey(expert, currency)`.
 */
export async function expertsWithAvailableMoney(
  db: Queryable,
  payoutKeyOf: (expertId: string, currency: Currency) => string,
): Promise<{ expertId: string; currency: Currency; availableCents: number }[]> {
  const { rows } = await db.query<{ expert_id: string; currency: Currency; available: string }>(
    `WITH moved AS (
       SELECT expert_id, currency, transferred_cents AS cents FROM payout_bookings WHERE transfer_status = 'sent'
       UNION ALL SELECT expert_id, currency, -amount_cents FROM payout_reversals WHERE status = 'reversed'
       UNION ALL SELECT expert_id, currency, -amount_cents FROM payout_payouts WHERE status <> 'failed'
     )
     SELECT m.expert_id, m.currency, sum(m.cents) AS available FROM moved m JOIN payout_experts e ON e.expert_id = m.expert_id
     WHERE e.payouts_enabled AND NOT e.held GROUP BY m.expert_id, m.currency HAVING sum(m.cents) > 0`,
  );
  const candidates = rows.map((r) => ({ expertId: r.expert_id, currency: r.currency, availableCents: Number(r.available) }));
  if (candidates.length === 0) return [];
  const keys = candidates.map((c) => payoutKeyOf(c.expertId, c.currency));
  const asked = new Set(
    (await db.query<{ payout_key: string }>("SELECT payout_key FROM payout_payouts WHERE payout_key = ANY($1)", [keys])).rows.map(
      (r) => r.payout_key,
    ),
  );
  return candidates.filter((_, i) => !asked.has(keys[i]!));
}
