import type pg from "pg";
import { expiredHolds } from "@booking/projections";
import { sweepBookings, sweepEvery } from "./booking-sweep.ts";
import type { CalendarCommands } from "./commands.ts";

/** The bookings read model finds the expired holds; the calendar records each expiry. */
export type HoldSweeperDeps = { db: pg.Pool; calendar: CalendarCommands; clock: () => string };

const SYSTEM = { userId: "hold-sweeper", role: "system" as const };

/**
 * Unpaid holds stop blocking their time the moment they expire (the decider knows the clock);
 * the sweeper records each expiry as a cancellation for the audit trail and the dashboards.
 */
export async function expireHolds({ db, calendar, clock }: HoldSweeperDeps): Promise<number> {
  return sweepBookings(calendar, SYSTEM, await expiredHolds(db, clock()), (b) => ({ type: "ExpireHold", expertId: b.expert_id, bookingId: b.booking_id, actor: SYSTEM }));
}

export const startHoldSweeper = (deps: HoldSweeperDeps, everyMs = 30_000) => sweepEvery(() => expireHolds(deps), everyMs);
