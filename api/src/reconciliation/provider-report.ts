import { testProviderMovements, type Queryable } from "./movements.ts";
import type { Movement } from "./reconcile.ts";
import { stripeMovements, type StripeBalanceClient } from "./stripe-report.ts";

// Where a run's provider side comes from: the test provider's own tables, or Stripe's balance
// transactions through its API.

/**
 * What the provider reports. `complete` false: it could not be listed (Stripe named as the
 * provider without a client), and a run says so rather than report a clean match.
 */
export type ProviderReport = { provider: string; complete: boolean; note: string | null; movements: Movement[] };

export async function providerReport(db: Queryable, provider: string, stripe: StripeBalanceClient | null): Promise<ProviderReport> {
  if (provider === "test") return { provider, complete: true, note: null, movements: await testProviderMovements(db) };
  if (provider === "stripe" && stripe) return { provider, complete: true, note: null, movements: await stripeMovements(stripe, db) };
  return {
    provider,
    complete: false,
    note: `The ${provider} provider's balance transactions cannot be listed: nothing was compared.`,
    movements: [],
  };
}
