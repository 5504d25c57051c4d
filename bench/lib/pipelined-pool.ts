import pg from "pg";

// An experiment, not a fix: the projections' own statements, unchanged, sent with fewer waits.
// The wrapper stands in for a pool as far as the runners use one, so the projection code runs
// exactly as written: every write (INSERT/UPDATE/DELETE without RETURNING) is sent at once in
// node-postgres's pipeline mode without waiting for its answer, and all are awaited together
// before the next statement whose answer is read (SELECT, RETURNING) or COMMIT.
//
// Since projections/src/apply.ts writes each read model with one statement per batch, few
// writes are left to pipeline; the lag experiments keep it to show that.

type Result = { rows: unknown[]; rowCount: number };
export type BatchingMode = "pipeline";

class PipeliningClient {
  private pending: Promise<unknown>[] = [];

  constructor(private readonly real: pg.PoolClient) {}

  private run(q: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    return typeof q === "string" ? this.real.query(q, values) : this.real.query(q);
  }

  private async settle(rollingBack: boolean): Promise<void> {
    const all = this.pending;
    this.pending = [];
    if (rollingBack) await Promise.allSettled(all);
    else await Promise.all(all);
  }

  async query(q: string | pg.QueryConfig, values?: unknown[]): Promise<Result> {
    const text = typeof q === "string" ? q : q.text;
    const head = text.trimStart().slice(0, 8).toUpperCase();
    const write = (head.startsWith("INSERT") || head.startsWith("UPDATE") || head.startsWith("DELETE")) && !/\bRETURNING\b/i.test(text);
    if (write) {
      const p = this.run(q, values);
      p.catch(() => undefined); // surfaced at the next read or COMMIT
      this.pending.push(p);
      return { rows: [], rowCount: 0 };
    }
    await this.settle(head.startsWith("ROLLBACK"));
    return (await this.run(q, values)) as Result;
  }

  release(err?: Error | boolean): void {
    this.real.release(err);
  }
}

/** A pool (as far as the projection runners use one) whose transactions pipeline their writes. */
export function batchingPool(
  connectionString: string,
  _mode: BatchingMode = "pipeline",
  max = 4,
): { pool: pg.Pool; end: () => Promise<void> } {
  const real = new pg.Pool({ connectionString, max, pipeline: true } as pg.PoolConfig);
  real.on("error", () => undefined);
  const pool = {
    query: (text: string, values?: unknown[]) => real.query(text, values),
    connect: async () => new PipeliningClient(await real.connect()),
  };
  return { pool: pool as unknown as pg.Pool, end: () => real.end() };
}
