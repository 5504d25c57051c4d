import { calendarStream } from "@booking/engine";
import type { AppContext } from "./context.ts";

const SYSTEM = { userId: "hold-sweeper", role: "system" as const };

/**
 * Unpaid holds stop blocking their time the moment they expire (the decider knows the clock);
 * the sweeper records each expiry as a cancellation for the audit trail and the dashboards.
 */
export async function expireHolds(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.query<{ booking_id: string; expert_id: string }>(
    "SELECT booking_id, expert_id FROM bookings WHERE status = 'pending' AND payment_state = 'unpaid' AND held_until <= $1 ORDER BY held_until LIMIT 500",
    [ctx.clock()],
  );
  let expired = 0;
  for (const r of rows) {
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
