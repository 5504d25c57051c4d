import type { Actor, CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { CalendarCommands } from "./commands.ts";

// What the hold sweeper and the completion sweeper share: a read-model query finds bookings, the
// calendar decides a system command for each, on a timer that never runs two sweeps at once.

export type Found = { booking_id: string; expert_id: string };

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

