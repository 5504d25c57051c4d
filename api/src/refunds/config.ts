import { z } from "zod";
import { storeConfig } from "../main/index.ts";

/** The refunds process's settings: the store, Stripe when configured, and how it paces and retries. */
export const refundsConfig = storeConfig.extend({
  STRIPE_SECRET_KEY: z.string().startsWith("sk_").optional(),
  /** How often to look for a refund whose retry is due when no append wakes the reactor. */
  REFUNDS_IDLE_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** How long a refund taken by this process is kept from others (a process killed mid-refund leaves it due after this). */
  REFUNDS_LEASE_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** The first retry's wait after a failed refund (it doubles per failure, up to an hour). */
  REFUNDS_FIRST_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
});
