import type { Actor, CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { CalendarCommands } from "../main/index.ts";

// What the hold sweeper and the completion sweeper share: a read-model query finds bookings, the
// calendar decides a system command for each, on a timer that never runs two sweeps at once.

export type Found = { booking_id: string; expert_id: string };

/**
 * A system sweep over bookings: one command per booking a read-model query found, each decided by
 * its expert's calendar (which checks the facts again, so a lagging read model cannot misfire).
 * Returns how many bookings changed.
 */
export async function sweepBookings(
  calendar: CalendarCommands,
  actor: Actor,
  found: readonly Found[],
  command: (b: Found) => CalendarCommand,
): Promise<number> {
  let changed = 0;
  for (const b of found) {
    const result = await calendar.handle(calendarStream(b.expert_id), command(b), { actor });
    if (result.ok && result.value.events.length) changed++;
  }
  return changed;
}

/**
 * Keeps the sweepers of this process away while work that writes a simulated past runs (the demo
 * seed plays months of bookings with the clock set back): on the real clock, a sweeper would
 * expire or complete those bookings between the seed's steps.
 */
export class SweepGate {
  private holders = 0;
  private readonly sweeps = new Set<Promise<unknown>>();

  get open(): boolean {
    return this.holders === 0;
  }

  /** Run `work` once the sweeps under way have ended, with no sweep starting until it is done. */
  async paused<T>(work: () => Promise<T>): Promise<T> {
    this.holders++;
    try {
      await Promise.all([...this.sweeps]);
      return await work();
    } finally {
      this.holders--;
    }
  }

  track(sweep: Promise<unknown>): void {
    this.sweeps.add(sweep);
    void sweep.finally(() => this.sweeps.delete(sweep));
  }
}

/** Run a sweep every `everyMs`, never two at once, none while the gate is held; a failed run is retried on the next tick. */
export function sweepEvery(sweep: () => Promise<number>, everyMs: number, gate?: SweepGate): { stop: () => void } {
  let running = false;
  const timer = setInterval(() => {
    if (running || (gate && !gate.open)) return;
    running = true;
    const run = sweep()
      .catch(() => undefined)
      .finally(() => (running = false));
    gate?.track(run);
  }, everyMs);
  return { stop: () => clearInterval(timer) };
}
