import type pg from "pg";
import { expiredHolds, lapsedRequests } from "@booking/projections";
import { sweepBookings, sweepEvery, type SweepGate } from "./booking-sweep.ts";
import type { CalendarCommands } from "../main/index.ts";

/** The bookings read model finds the expired holds; the calendar records each expiry. */
export type HoldSweeperDeps = { db: pg.Pool; calendar: CalendarCommands; clock: () => string };

const SYSTEM = { userId: "hold-sweeper", role: "system" as const };

/**
 * Unpaid holds stop blocking their time the moment they expire (the decider knows the clock);
 * the sweeper records each expiry as a cancellation for the audit trail and the dashboards. Paid
 * requests the expert did not accept by their deadline are cancelled and refunded the same way (issue 27.6).
 */
export async function expireHolds({ db, calendar, clock }: HoldSweeperDeps): Promise<number> {
  const now = clock();
  const expire = (b: { booking_id: string; expert_id: string }) => ({
    type: "ExpireHold" as const,
    expertId: b.expert_id,
    bookingId: b.booking_id,
    actor: SYSTEM,
  });
  return (
    (await sweepBookings(calendar, SYSTEM, await expiredHolds(db, now), expire)) +
    (await sweepBookings(calendar, SYSTEM, await lapsedRequests(db, now), expire))
  );
}

export const startHoldSweeper = (deps: HoldSweeperDeps, gate: SweepGate, everyMs = 30_000) =>
  sweepEvery(() => expireHolds(deps), everyMs, gate);
