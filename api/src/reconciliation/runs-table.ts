import type pg from "pg";
import type { Difference } from "./reconcile.ts";

// The runs and their differences (./schema.ts): written once per run, in one transaction.

export type RunBy = "schedule" | "admin";

export type ReconciliationRun = {
  runId: string;
  at: string;
  provider: string;
  by: RunBy;
  complete: boolean;
  note: string | null;
  ledgerCount: number;
  providerCount: number;
  differences: Difference[];
};

export async function saveRun(db: pg.Pool, run: ReconciliationRun): Promise<void> {
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO reconciliation_runs (run_id, at, provider, by, complete, note, ledger_count, provider_count, difference_count)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [run.runId, run.at, run.provider, run.by, run.complete, run.note, run.ledgerCount, run.providerCount, run.differences.length],
    );
    for (const [n, d] of run.differences.entries())
      await client.query(
        `INSERT INTO reconciliation_differences (run_id, n, kind, movement, ref, currency, ledger_cents, provider_cents, what)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [run.runId, n + 1, d.kind, d.movement, d.ref, d.currency, d.ledgerCents, d.providerCents, d.what],
      );
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

type RunRow = {
  run_id: string;
  at: Date;
  provider: string;
  by: RunBy;
  complete: boolean;
  note: string | null;
  ledger_count: number;
  provider_count: number;
  difference_count: number;
};

export type RunSummary = Omit<ReconciliationRun, "differences"> & { differenceCount: number };

/** The latest run (by time, then id), or null before the first. */
export async function latestRun(db: Pick<pg.Pool, "query">): Promise<RunSummary | null> {
  const r = (await db.query<RunRow>("SELECT * FROM reconciliation_runs ORDER BY at DESC, run_id DESC LIMIT 1")).rows[0];
  return r
    ? {
        runId: r.run_id,
        at: r.at.toISOString(),
        provider: r.provider,
        by: r.by,
        complete: r.complete,
        note: r.note,
        ledgerCount: r.ledger_count,
        providerCount: r.provider_count,
        differenceCount: r.difference_count,
      }
    : null;
}
