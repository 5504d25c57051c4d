// What other areas use of reconciliation/: they import it from here, never from its files (eslint.config.js).

export { reconciliationMigrations } from "./schema.ts";
export { reconciliationRoutes } from "./routes.ts";
export { runReconciliation, LedgerMissing } from "./run.ts";
export type { ReconciliationDeps } from "./run.ts";
export type { StripeBalanceClient } from "./stripe-report.ts";
export { startReconciliationSweeper, RECONCILIATION_INTERVAL_MS } from "./daily-sweeper.ts";
export { reconcile } from "./reconcile.ts";
export type { Difference, Movement, MovementKind } from "./reconcile.ts";
