import { calendarStream } from "@booking/engine";
import { expiredHolds } from "@booking/projections";
import type { AppContext } from "./context.ts";

const SYSTEM = { userId: "hold-sweeper", role: "system" as const };

/**
 * Unpaid holds stop blocking their time the moment they expire (the decider knows the clock);
 * the sweeper records each expiry as a cancellation for the audit trail and the dashboards.
 */
export async function expireHolds(ctx: AppContext): Promise<number> {
  let expired = 0;
  for (const r of await expiredHolds(ctx.db, ctx.clock())) {
    const result = await ctx.calendar.handle(calendarStream(r.expert_id), { type: "ExpireHold", expertId: r.expert_id, bookingId: r.booking_id, actor: SYSTEM }, { actor: SYSTEM });
    if (result.ok && result.value.events.length) expired++;
  }
  return expired;
}

export function startHoldSweeper(ctx: AppContext, everyMs = 30_000): { stop: () => void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    expireHolds(ctx)
      .catch(() => undefined)
      .finally(() => (running = false));
  }, everyMs);
  return { stop: () => clearInterval(timer) };
}
