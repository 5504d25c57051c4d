import type pg from "pg";
import { ERASED_EMAIL_DOMAIN, type Currency, type UserRole } from "@booking/contracts";
import { availableShares, payoutsOnTheirWay, pendingShares } from "../payouts/index.ts";
import type { ErasureFacts, OpenBooking } from "./erasure-rules.ts";

// The facts erasure-rules.ts decides on, read from the read models and the API's tables (issue 33.2).

type Queryable = Pick<pg.Pool, "query">;

type BookingFacts = {
  session_title: string;
  scheduled_time: Date;
  status: string;
  payment_state: string;
  held_until: Date;
  refund_state: string;
  no_show: { outcome: string | null } | null;
  disputes: { closed_at: string | null }[];
};

/** A booking not over yet: requested, waiting for an answer, or confirmed. An unpaid hold past its time is over (the sweeper cancels it). */
function isOpen(b: BookingFacts, now: string): boolean {
  if (!["pending", "time_proposed", "more_info_requested", "confirmed"].includes(b.status)) return false;
  return !(b.status === "pending" && b.payment_state === "unpaid" && b.held_until.getTime() <= Date.parse(now));
}

/** An expert's money not paid out yet, per currency: pending shares, released ones not paid out, payouts on their way. */
async function earningsUnpaid(db: Queryable, expertIds: readonly string[]): Promise<ErasureFacts["earningsUnpaid"]> {
  if (expertIds.length === 0) return [];
  const sums = new Map<Currency, number>();
  for (const perExpert of await Promise.all([
    pendingShares(db, expertIds),
    availableShares(db, expertIds),
    payoutsOnTheirWay(db, expertIds),
  ])) {
    for (const byCurrency of perExpert.values()) {
      for (const [currency, cents] of byCurrency) if (cents > 0) sums.set(currency, (sums.get(currency) ?? 0) + cents);
    }
  }
  return [...sums].map(([currency, cents]) => ({ currency, cents }));
}

export async function erasureFacts(
  db: Queryable,
  person: { userId: string; role: UserRole; expertIds: readonly string[] },
  now: string,
): Promise<ErasureFacts> {
  const [admins, bookings, earnings] = await Promise.all([
    db.query<{ n: string }>(
      `SELECT count(*) AS n FROM accounts WHERE role = 'admin' AND user_id <> $1 AND lower(email) NOT LIKE '%@' || $2`,
      [person.userId, ERASED_EMAIL_DOMAIN],
    ),
    db.query<BookingFacts>(
      `SELECT session_title, scheduled_time, status, payment_state, held_until, refund_state, no_show, disputes FROM bookings
       WHERE creator_id = $1 OR expert_user_id = $1`,
      [person.userId],
    ),
    earningsUnpaid(db, person.expertIds),
  ]);
  const open: OpenBooking[] = bookings.rows
    .filter((b) => isOpen(b, now))
    .map((b) => ({ title: b.session_title, scheduledTime: b.scheduled_time.toISOString() }));
  return {
    role: person.role,
    otherAdmins: Number(admins.rows[0]!.n),
    openBookings: open,
    refundsPending: bookings.rows.filter((b) => b.refund_state === "pending" || b.refund_state === "failed").length,
    disputesOpen: bookings.rows.filter((b) => b.disputes.some((d) => d.closed_at === null)).length,
    noShowReportsOpen: bookings.rows.filter((b) => b.no_show !== null && b.no_show.outcome === null).length,
    earningsUnpaid: earnings,
  };
}
