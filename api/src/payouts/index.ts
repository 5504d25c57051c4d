// What other areas use of payouts/: they import it from here, never from its files (eslint.config.js).

export type {
  PayoutAccountStatus,
  PayoutOutcome,
  PayoutProvider,
  PayoutRequest,
  ReversalOutcome,
  ReversalRequest,
  TransferOutcome,
  TransferRequest,
} from "./provider.ts";
export { payoutsMigrations } from "./schema.ts";
export { payoutReactorOptions, payoutsConfig } from "./config.ts";
export { payoutProviderFrom } from "./factory.ts";
export { ACCOUNT_DISABLED, INSUFFICIENT_PLATFORM_BALANCE, TEST_ONBOARDING_PATH, TestPayoutProvider } from "./test-payout-provider.ts";
export { PayoutReactor } from "./reactor.ts";
export { releaseEarnings, startReleaseSweeper } from "./release-sweeper.ts";
export { payoutRoutes } from "./routes.ts";
export { payoutAdminRoutes } from "./admin-routes.ts";
// For the provider's webhooks: what it reports, recorded through the expert's payouts stream.
export {
  PAYOUTS_ACTOR,
  recordAccountStatus,
  recordPayoutFailed,
  recordPayoutPaid,
  recordPayoutSent,
  recordTransferFailed,
  recordTransferReversal,
  recordTransferSent,
  sendPayoutCommand,
} from "./record-payouts.ts";
export type { PayoutRecording } from "./record-payouts.ts";
export { expertOfAccount, payoutOfProviderId } from "./payouts-table.ts";
export { transferOf } from "./payout-bookings-table.ts";
export { recordPayoutEvents } from "./read-model.ts";
export { stripePayoutWebhook } from "./stripe-webhooks.ts";
// For erasing an account (issue 33.2): what the expert is still owed.
export { availableShares, payoutsOnTheirWay, pendingShares } from "./balances.ts";
