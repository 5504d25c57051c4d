import type pg from "pg";
import { calendarStream } from "@booking/engine";
import { expiredHolds } from "@booking/projections";
import type { CalendarCommands } from "./commands.ts";

/** The bookings read model finds the expired holds; the calendar records each expiry. */
export type HoldSweeperDeps = { db: pg.Pool; calendar: CalendarCommands; clock: () => string };

const SYSTEM = { userId: "hold-sweeper", role: "system" as const };

/**
 * Unpaid holds stop blocking their time the moment they expire (the decider knows the clock);
 * the sweeper records each expiry as a cancellation for the audit trail and the dashboards.
 */
export async function expireHolds({ db, calendar, clock }: HoldSweeperDeps): Promise<number> {
  let expired = 0;
  for (const r of await expiredHolds(db, clock())) {
    const result = await calendar.handle(calendarStream(r.expert_id), { type: "ExpireHold", expertId: r.expert_id, bookingId: r.booking_id, actor: SYSTEM }, { actor: SYSTEM });
    if (result.ok && result.value.events.length) expired++;
  }
  return expired;
}

export function startHoldSweeper(deps: HoldSweeperDeps, everyMs = 30_000): { stop: () => void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    expireHolds(deps)
      .catch(() => undefined)
      .finally(() => (running = false));
  }, everyMs);
  return { stop: () => clearInterval(timer) };
}
