import type pg from "pg";
import { CLEARING_PERIOD_DAYS, releasableAt, type Actor, type Currency } from "@booking/contracts";
import type { PayoutCommands } from "../main/index.ts";
import { sendPayoutCommand } from "./record-payouts.ts";

// Completed sessions' money becomes the expert's once the clearing period is over: the payouts
// area's bookings table finds them, the expert's payouts stream releases each (ReleaseEarning,
// once per booking, never before releasableAt). A booking refunded after its release is adjusted
// (AdjustEarning with the new refunded total), and the payout reactor reverses that share.

export type ReleaseSweeperDeps = { db: pg.Pool; payouts: PayoutCommands; clock: () => string };

const SYSTEM: Actor = { userId: "release-sweeper", role: "system" };

type Releasable = {
  booking_id: string;
  expert_id: string;
  currency: Currency;
  paid_cents: string;
  refunded_cents: string;
  fee_basis_points: number | null;
  completed_at: Date;
};

/** Release every completed booking whose clearing period is over; resolves to how many were released. */
export async function releaseEarnings({ db, payouts, clock }: ReleaseSweeperDeps, limit = 500): Promise<number> {
  const now = clock();
  const { rows } = await db.query<Releasable>(
    `SELECT booking_id, expert_id, currency, paid_cents, refunded_cents, fee_basis_points, completed_at FROM payout_bookings
     WHERE status = 'completed' AND released_at IS NULL AND paid_cents > refunded_cents AND completed_at <= $1::timestamptz - $2::int * interval '1 day'
     ORDER BY completed_at, booking_id LIMIT $3`,
    [now, CLEARING_PERIOD_DAYS, limit],
  );
  let released = 0;
  for (const b of rows) {
    const completedAt = b.completed_at.toISOString();
    if (Date.parse(releasableAt(completedAt)) > Date.parse(now)) continue;
    const earning = {
      bookingId: b.booking_id,
      currency: b.currency,
      paidCents: Number(b.paid_cents),
      refundedCents: Number(b.refunded_cents),
      feeBasisPoints: b.fee_basis_points ?? 0,
      completedAt,
    };
    const result = await sendPayoutCommand(
      { db, payouts },
      { type: "ReleaseEarning", expertId: b.expert_id, actor: SYSTEM, earning },
      `release-${b.booking_id}`,
      SYSTEM,
    );
    if (result.ok && result.value.events.length) released++;
  }
  return released + (await adjustEarnings({ db, payouts }, limit));
}

/** Released bookings refunded since: the payouts stream gives back the fee and the share of the refunded part. */
async function adjustEarnings({ db, payouts }: Pick<ReleaseSweeperDeps, "db" | "payouts">, limit: number): Promise<number> {
  const { rows } = await db.query<{ booking_id: string; expert_id: string; refunded_cents: string }>(
    `SELECT booking_id, expert_id, refunded_cents FROM payout_bookings
     WHERE released_at IS NOT NULL AND refunded_cents > COALESCE(adjusted_refunded_cents, released_refunded_cents, 0)
     ORDER BY booking_id LIMIT $1`,
    [limit],
  );
  let adjusted = 0;
  for (const b of rows) {
    const refundedCents = Number(b.refunded_cents);
    const result = await sendPayoutCommand(
      { db, payouts },
      { type: "AdjustEarning", expertId: b.expert_id, actor: SYSTEM, bookingId: b.booking_id, refundedCents },
      `adjust-${b.booking_id}-${refundedCents}`,
      SYSTEM,
    );
    if (!result.ok) continue;
    if (result.value.events.length) adjusted++;
    // Nothing to give back (a refund too small to move the fee or the share): not asked again.
    else
      await db.query(
        "UPDATE payout_bookings SET adjusted_refunded_cents = GREATEST(COALESCE(adjusted_refunded_cents, 0), $2) WHERE booking_id = $1",
        [b.booking_id, refundedCents],
      );
  }
  return adjusted;
}

/** Release (and adjust) every `everyMs`, never two sweeps at once; a failed sweep is tried again on the next tick. */
export function startReleaseSweeper(deps: ReleaseSweeperDeps, everyMs = 60_000, warn: (line: string) => void = () => undefined) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    releaseEarnings(deps)
      .catch((e: unknown) => warn(`payouts: release sweep failed: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => (running = false));
  }, everyMs);
  return { stop: () => clearInterval(timer) };
}
