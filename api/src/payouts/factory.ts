import type { Queryable } from "../reactors/index.ts";
import type { PayoutProvider } from "./provider.ts";
import { StripePayoutProvider } from "./stripe-payout-provider.ts";
import { TestPayoutProvider } from "./test-payout-provider.ts";

/** Stripe Connect when a secret key is configured, else the network-free test provider (embedded mode), as payments do. */
export function payoutProviderFrom(config: { STRIPE_SECRET_KEY?: string }, db: Queryable): PayoutProvider {
  if (config.STRIPE_SECRET_KEY) return new StripePayoutProvider({ secretKey: config.STRIPE_SECRET_KEY });
  return new TestPayoutProvider(db);
}
