import type pg from "pg";
import type { Actor, CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { sessionsOver } from "@booking/projections";
import type { CalendarCommands } from "./commands.ts";

/** The bookings read model finds the sessions that are over; the calendar completes each. */
export type CompletionSweeperDeps = { db: pg.Pool; calendar: CalendarCommands; clock: () => string };

type Found = { booking_id: string; expert_id: string };

/**
 * A system sweep over bookings: one command per booking a read-model query found, each decided by
 * its expert's calendar (which checks the facts again, so a lagging read model cannot misfire).
 * Returns how many bookings changed.
 */
export async function sweepBookings(calendar: CalendarCommands, actor: Actor, found: readonly Found[], command: (b: Found) => CalendarCommand): Promise<number> {
  let changed = 0;
  for (const b of found) {
    const result = await calendar.handle(calendarStream(b.expert_id), command(b), { actor });
    if (result.ok && result.value.events.length) changed++;
  }
  return changed;
}

/** Run a sweep every `everyMs`, never two at once; a failed run is retried on the next tick. */
export function sweepEvery(sweep: () => Promise<number>, everyMs: number): { stop: () => void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep()
      .catch(() => undefined)
      .finally(() => (running = false));
  }, everyMs);
  return { stop: () => clearInterval(timer) };
}

const SYSTEM: Actor = { userId: "completion-sweeper", role: "system" };

/**
 * A confirmed booking whose session has ended is completed without waiting for the expert to
 * press a button, so reviews and earnings follow the session. Returns how many it completed.
 */
export async function completeSessionsOver({ db, calendar, clock }: CompletionSweeperDeps): Promise<number> {
  return sweepBookings(calendar, SYSTEM, await sessionsOver(db, clock()), (b) => ({ type: "CompleteBooking", expertId: b.expert_id, bookingId: b.booking_id, actor: SYSTEM }));
}

export const startCompletionSweeper = (deps: CompletionSweeperDeps, everyMs = 60_000) => sweepEvery(() => completeSessionsOver(deps), everyMs);
