import type { Migration } from "@booking/contracts";

// Reconciliation's own tables (issue 29.6): each run (daily, or asked for by an admin) and the
// differences it found between the ledger and the payment provider, kept so the console shows the
// latest run and its differences and an earlier run can be looked at again.

export const reconciliationMigrations: readonly Migration[] = [
  {
    name: "001_reconciliation_runs",
    sql: `
      CREATE TABLE reconciliation_runs (
        run_id text PRIMARY KEY,
        at timestamptz NOT NULL,
        -- The payment provider compared with ("test" or "stripe").
        provider text NOT NULL,
        by text NOT NULL CHECK (by IN ('schedule', 'admin')),
        -- false: the provider's listing is not written yet, nothing was compared (note says so).
        complete boolean NOT NULL,
        note text,
        -- Movements compared: the ledger's and the provider's (keys, after adding up).
        ledger_count int NOT NULL,
        provider_count int NOT NULL,
        difference_count int NOT NULL
      );
      CREATE INDEX reconciliation_runs_at ON reconciliation_runs (at DESC, run_id DESC);
      CREATE TABLE reconciliation_differences (
        run_id text NOT NULL REFERENCES reconciliation_runs (run_id) ON DELETE CASCADE,
        n int NOT NULL,
        kind text NOT NULL CHECK (kind IN ('missing', 'extra', 'amount')),
        movement text NOT NULL,
        ref text NOT NULL,
        currency text,
        ledger_cents bigint,
        provider_cents bigint,
        what text NOT NULL,
        PRIMARY KEY (run_id, n)
      );
    `,
  },
];
