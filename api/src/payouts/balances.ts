import { earningSplit, type Currency } from "@booking/contracts";
import type { Queryable } from "../reactors/index.ts";

// Money the payouts area's tables know per expert and currency: pending (the share of paid
// sessions accepted or completed, not yet released, by earningSplit under each booking's own fee
// rate) and, for the console, available (released shares less later refunds' shares, less payouts
// asked for or paid). Amounts of different currencies are never added.

export type ByCurrency = Map<Currency, number>;

const add = (into: Map<string, ByCurrency>, expertId: string, currency: Currency, cents: number) => {
  const of = into.get(expertId) ?? new Map<Currency, number>();
  of.set(currency, (of.get(currency) ?? 0) + cents);
  into.set(expertId, of);
};

/** Pending money of each expert; `released` leaves out bookings the payouts stream already released (the tables may lag it). */
export async function pendingShares(
  db: Queryable,
  expertIds: readonly string[],
  released: ReadonlySet<string> = new Set(),
): Promise<Map<string, ByCurrency>> {
  const { rows } = await db.query<{
    booking_id: string;
    expert_id: string;
    currency: Currency;
    paid_cents: string;
    refunded_cents: string;
    fee_basis_points: number | null;
  }>(
    `SELECT booking_id, expert_id, currency, paid_cents, refunded_cents, fee_basis_points FROM payout_bookings
     WHERE expert_id = ANY($1) AND released_at IS NULL AND status IN ('confirmed', 'completed', 'reported') AND paid_cents > 0`,
    [expertIds],
  );
  const pending = new Map<string, ByCurrency>();
  for (const r of rows) {
    if (released.has(r.booking_id)) continue;
    const { shareCents } = earningSplit(Number(r.paid_cents), Number(r.refunded_cents), r.fee_basis_points ?? 0);
    add(pending, r.expert_id, r.currency, shareCents);
  }
  return pending;
}

/** Available money of each expert as the tables know it: released shares, less later refunds' shares, less payouts not failed. */
export async function availableShares(db: Queryable, expertIds: readonly string[]): Promise<Map<string, ByCurrency>> {
  const { rows } = await db.query<{ expert_id: string; currency: Currency; cents: string }>(
    `SELECT expert_id, currency, sum(cents) AS cents FROM (
       SELECT expert_id, currency, released_share_cents AS cents FROM payout_bookings WHERE expert_id = ANY($1) AND released_at IS NOT NULL
       UNION ALL SELECT expert_id, currency, -amount_cents FROM payout_reversals WHERE expert_id = ANY($1)
       UNION ALL SELECT expert_id, currency, -amount_cents FROM payout_payouts WHERE expert_id = ANY($1) AND status <> 'failed'
     ) m GROUP BY expert_id, currency`,
    [expertIds],
  );
  const available = new Map<string, ByCurrency>();
  for (const r of rows) add(available, r.expert_id, r.currency, Number(r.cents));
  return available;
}

/** Payouts asked for and not yet paid or failed (on their way to the expert's bank), per expert and currency. */
export async function payoutsOnTheirWay(db: Queryable, expertIds: readonly string[]): Promise<Map<string, ByCurrency>> {
  const { rows } = await db.query<{ expert_id: string; currency: Currency; cents: string }>(
    `SELECT expert_id, currency, sum(amount_cents) AS cents FROM payout_payouts
     WHERE expert_id = ANY($1) AND status IN ('requested', 'in_transit') GROUP BY expert_id, currency`,
    [expertIds],
  );
  const owed = new Map<string, ByCurrency>();
  for (const r of rows) add(owed, r.expert_id, r.currency, Number(r.cents));
  return owed;
}
