import { z } from "zod";
import type { PayoutReactorOptions } from "./reactor.ts";

/** The payout reactor's settings (read by the process it runs in): how it paces, leases, retries and sweeps. */
export const payoutsConfig = z.object({
  /** How often to look for transfers and payouts whose retry is due when no append wakes the reactor. */
  PAYOUTS_IDLE_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** How long a transfer or payout taken by this process is kept from others (a process killed mid-way leaves it due after this). */
  PAYOUTS_LEASE_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** The first retry's wait after a failed transfer (it doubles per failure, up to an hour). */
  PAYOUTS_FIRST_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** How often earnings whose clearing period is over are released and the weekly payouts asked for. */
  PAYOUTS_SWEEP_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  /**
   * The day of the week the weekly payouts are made (ISO: 1 Monday ... 7 Sunday, UTC); 0: whenever money is available, once a
   * week; `none`: no weekly payouts, experts ask for theirs (a walk or a demo that pays when it says so).
   */
  PAYOUTS_WEEKDAY: z
    .union([z.literal("none"), z.coerce.number().int().min(0).max(7)])
    .default(1)
    .transform((day) => (day === "none" ? null : day)),
});

/** The reactor's options from these settings: one reading of them for every process that runs it. */
export function payoutReactorOptions(config: z.infer<typeof payoutsConfig>): PayoutReactorOptions {
  return {
    idleMs: config.PAYOUTS_IDLE_MS,
    leaseMs: config.PAYOUTS_LEASE_MS,
    firstRetryMs: config.PAYOUTS_FIRST_RETRY_MS,
    sweepEveryMs: config.PAYOUTS_SWEEP_MS,
    payoutWeekday: config.PAYOUTS_WEEKDAY,
  };
}
