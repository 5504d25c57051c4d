import type { Queryable } from "./payments-table.ts";
import type { PaymentProvider, RefundProvider } from "./provider.ts";
import { StripePaymentProvider } from "./stripe-provider.ts";
import { TestPaymentProvider } from "./test-provider.ts";

/** Stripe when a secret key is configured, else the network-free test provider (embedded mode); either also refunds. */
export function paymentProviderFrom(
  config: { STRIPE_SECRET_KEY?: string; STRIPE_PUBLISHABLE_KEY?: string },
  db: Queryable,
): PaymentProvider & RefundProvider {
  if (config.STRIPE_SECRET_KEY) {
    return new StripePaymentProvider(db, { secretKey: config.STRIPE_SECRET_KEY, publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null });
  }
  return new TestPaymentProvider(db);
}
