import type pg from "pg";
import type { Actor } from "@booking/contracts";
import { uncontestedNoShows } from "@booking/projections";
import { sweepBookings, sweepEvery, type SweepGate } from "../bookings/index.ts";
import type { CalendarCommands } from "../main/index.ts";

/** The bookings read model finds reports left uncontested past their window; the calendar settles each. */
export type NoShowSweeperDeps = { db: pg.Pool; calendar: CalendarCommands; clock: () => string };

const SYSTEM: Actor = { userId: "no-show-sweeper", role: "system" };

/** Settles every no-show report whose 48 hours to contest have passed uncontested (issue 31.1); resolves to how many. */
export async function settleUncontestedNoShows({ db, calendar, clock }: NoShowSweeperDeps): Promise<number> {
  return sweepBookings(calendar, SYSTEM, await uncontestedNoShows(db, clock()), (b) => ({
    type: "SettleNoShow",
    expertId: b.expert_id,
    bookingId: b.booking_id,
    actor: SYSTEM,
  }));
}

export const startNoShowSweeper = (deps: NoShowSweeperDeps, gate: SweepGate, everyMs = 60_000) =>
  sweepEvery(() => settleUncontestedNoShows(deps), everyMs, gate);
