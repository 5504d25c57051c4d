import { randomUUID } from "node:crypto";
import type pg from "pg";
import { ledgerMovements, tableExists } from "./movements.ts";
import { providerReport } from "./provider-report.ts";
import { reconcile } from "./reconcile.ts";
import type { StripeBalanceClient } from "./stripe-report.ts";
import { saveRun, type ReconciliationRun, type RunBy } from "./runs-table.ts";

// One reconciliation run: both sides read, compared, the run and its differences kept.

export type ReconciliationDeps = {
  /** The ledger read model, the provider's tables, the runs. */
  db: pg.Pool;
  /** The configured payment provider's name ("test" or "stripe"). */
  provider: string;
  /** Stripe's API, when the provider is Stripe: its balance transactions are the provider's side. */
  stripe?: StripeBalanceClient | null;
  clock: () => string;
};

/** The ledger read model's table; without it there is nothing to reconcile (and saying "0 differences" would be false). */
export class LedgerMissing extends Error {
  constructor() {
    super("The ledger read model (ledger_books) is not there: nothing to reconcile against.");
    this.name = "LedgerMissing";
  }
}

export async function runReconciliation({ db, provider, stripe, clock }: ReconciliationDeps, by: RunBy): Promise<ReconciliationRun> {
  if (!(await tableExists(db, "ledger_books"))) throw new LedgerMissing();
  const at = clock();
  const [ledger, report] = await Promise.all([ledgerMovements(db), providerReport(db, provider, stripe ?? null)]);
  const keys = (ms: { kind: string; ref: string }[]) => new Set(ms.map((m) => `${m.kind}:${m.ref}`)).size;
  const run: ReconciliationRun = {
    runId: randomUUID(),
    at,
    provider: report.provider,
    by,
    complete: report.complete,
    note: report.note,
    ledgerCount: keys(ledger),
    providerCount: keys(report.movements),
    // A provider whose listing is not written compares nothing: every ledger movement would look "extra".
    differences: report.complete ? reconcile(ledger, report.movements) : [],
  };
  await saveRun(db, run);
  return run;
}
