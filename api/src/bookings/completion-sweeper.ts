import type pg from "pg";
import type { Actor } from "@booking/contracts";
import { sessionsOver } from "@booking/projections";
import { sweepBookings, sweepEvery, type SweepGate } from "./booking-sweep.ts";
import type { CalendarCommands } from "../main/index.ts";

/** The bookings read model finds the sessions that are over; the calendar completes each. */
export type CompletionSweeperDeps = { db: pg.Pool; calendar: CalendarCommands; clock: () => string };

const SYSTEM: Actor = { userId: "completion-sweeper", role: "system" };

/**
 * A confirmed booking whose session has ended is completed without waiting for the expert to
 * press a button, so reviews and earnings follow the session. Returns how many it completed.
 */
export async function completeSessionsOver({ db, calendar, clock }: CompletionSweeperDeps): Promise<number> {
  return sweepBookings(calendar, SYSTEM, await sessionsOver(db, clock()), (b) => ({
    type: "CompleteBooking",
    expertId: b.expert_id,
    bookingId: b.booking_id,
    actor: SYSTEM,
  }));
}

export const startCompletionSweeper = (deps: CompletionSweeperDeps, gate: SweepGate, everyMs = 60_000) =>
  sweepEvery(() => completeSessionsOver(deps), everyMs, gate);
