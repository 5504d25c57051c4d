// What other areas use of payments/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export type { PaymentProvider, RefundOutcome, RefundProvider } from "./provider.ts";
export { paymentsMigrations } from "./schema.ts";
export { TestPaymentProvider } from "./test-provider.ts";
export { paymentProviderFrom } from "./factory.ts";
export { recordPaymentSucceeded } from "./record-payment.ts";
export { paymentsRoutes } from "./routes.ts";
