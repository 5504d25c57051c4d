import pg from "pg";

// Experiments, not fixes: the projections' own statements, unchanged, sent with fewer waits, to
// show what batching the writes would give. The wrappers stand in for a pool as far as
// rebuildProjections/applyBatch use one, so the projection code runs exactly as written.
//
// "pipeline": every write is sent at once without waiting for its answer (node-postgres >= 8.20
//   pipeline mode); all are awaited together before COMMIT.
// "one-query": the writes of a transaction are buffered as SQL text (values inlined as escaped
//   literals) and sent as ONE multi-statement query before the next read or COMMIT.
// Statements whose answer is read (SELECT, RETURNING) are still sent one by one.

type Result = { rows: unknown[]; rowCount: number };
export type BatchingMode = "pipeline" | "one-query";

const prepareValue = (pg as unknown as { utils: { prepareValue: (v: unknown) => string | null } }).utils.prepareValue;

/** A statement with its parameters inlined as literals (for the one-query experiment only). */
export function inline(text: string, values: readonly unknown[] = []): string {
  return text.replace(/\$(\d+)/g, (_m, n: string) => {
    const v = prepareValue(values[Number(n) - 1]);
    return v === null || v === undefined ? "NULL" : pg.escapeLiteral(String(v));
  });
}

class BatchingClient {
  private pending: Promise<unknown>[] = [];
  private buffered: string[] = [];

  constructor(
    private readonly real: pg.PoolClient,
    private readonly mode: BatchingMode,
  ) {}

  private run(q: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    return typeof q === "string" ? this.real.query(q, values) : this.real.query(q);
  }

  private async flush(settle: boolean): Promise<void> {
    if (this.buffered.length) {
      const sql = this.buffered.join(";\n");
      this.buffered = [];
      this.pending.push(this.real.query(sql));
    }
    const all = this.pending;
    this.pending = [];
    if (settle) await Promise.allSettled(all);
    else await Promise.all(all);
  }

  async query(q: string | pg.QueryConfig, values?: unknown[]): Promise<Result> {
    const text = typeof q === "string" ? q : q.text;
    const params = typeof q === "string" ? values : (q.values as unknown[] | undefined);
    const head = text.trimStart().slice(0, 8).toUpperCase();
    const write = (head.startsWith("INSERT") || head.startsWith("UPDATE") || head.startsWith("DELETE")) && !/\bRETURNING\b/i.test(text);
    if (write) {
      if (this.mode === "one-query") {
        this.buffered.push(inline(text, params));
      } else {
        const p = this.run(q, values);
        p.catch(() => undefined); // surfaced at COMMIT
        this.pending.push(p);
      }
      return { rows: [], rowCount: 0 };
    }
    await this.flush(head.startsWith("ROLLBACK"));
    return (await this.run(q, values)) as Result;
  }

  release(err?: Error | boolean): void {
    this.real.release(err);
  }
}

/** A pool (as far as the projection code uses one) whose transactions batch their writes. */
export function batchingPool(connectionString: string, mode: BatchingMode, max = 4): { pool: pg.Pool; end: () => Promise<void> } {
  const real = new pg.Pool({ connectionString, max, ...(mode === "pipeline" ? { pipeline: true } : {}) } as pg.PoolConfig);
  real.on("error", () => undefined);
  const pool = {
    query: (text: string, values?: unknown[]) => real.query(text, values),
    connect: async () => new BatchingClient(await real.connect(), mode),
  };
  return { pool: pool as unknown as pg.Pool, end: () => real.end() };
}
