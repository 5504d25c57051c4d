import pg from "pg";

/** What the read models' readers take (projections' Queryable): reads sent with the lock go through one. */
export type LockedQueryable = Pick<pg.ClientBase, "query">;

type Queued = { text: string; values: readonly unknown[]; resolve: (result: pg.QueryResult) => void; reject: (error: unknown) => void };

/**
 * One creator's booking requests run one at a time, across every API process. The rules about a
 * creator's bookings with all experts (the holds cap, no creator booked twice at once) read the
 * bookings read model, which is current for this creator only while no other request of theirs
 * is in flight: a request holds the lock from reading those facts until its own write shows in
 * the read model. A session-level advisory lock on a pool of its own: were it on the pool the work
 * inside uses, ten waiting creators could hold every connection while each waits for another.
 */
export class CreatorBookingLock {
  private readonly pool: pg.Pool;

  constructor(connection: pg.PoolConfig) {
    this.pool = new pg.Pool({ ...connection, max: 20, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
    this.pool.on("error", () => undefined);
  }

  /** `work` runs holding the creator's lock; its client may read (the facts), the rest goes through other pools. */
  run<T>(creatorId: string, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    return this.runReading(
      creatorId,
      async () => undefined,
      (_facts, client) => work(client),
    );
  }

  /**
   * As `run`, with the facts `read` asks for sent in the lock's own round trip: the lock and each
   * read go as statements of one simple-protocol query, so each read takes its snapshot after the
   * lock is held (one statement taking both would read a snapshot from before any wait for it).
   * `read` must send its statements at once (before its first await); any sent later go on their own.
   */
  async runReading<F, T>(
    creatorId: string,
    read: (db: LockedQueryable) => Promise<F>,
    work: (facts: F, client: pg.ClientBase) => Promise<T>,
  ): Promise<T> {
    const client = await this.pool.connect();
    let unlocked = false;
    try {
      const queued: Queued[] = [];
      let sent = false;
      const db = {
        query: (text: string, values: readonly unknown[] = []) =>
          sent
            ? client.query(text, values as unknown[])
            : new Promise<pg.QueryResult>((resolve, reject) => queued.push({ text, values, resolve, reject })),
      } as unknown as LockedQueryable;
      const facts = read(db);
      const lock = `SELECT pg_advisory_lock(hashtextextended(${client.escapeLiteral(`creator-bookings:${creatorId}`)}, 0))`;
      const batch = queued.splice(0);
      // Reads asked for from here on go on their own, after this round trip.
      sent = true;
      try {
        const answered = await client.query([lock, ...batch.map((q) => inlined(client, q.text, q.values))].join(";\n"));
        const results = Array.isArray(answered) ? (answered as pg.QueryResult[]) : [answered];
        batch.forEach((q, i) => q.resolve(results[i + 1]!));
      } catch (e) {
        for (const q of batch) q.reject(e);
        await facts.catch(() => undefined);
        throw e;
      }
      try {
        return await work(await facts, client);
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [`creator-bookings:${creatorId}`]);
        unlocked = true;
      }
    } finally {
      // A connection that may still hold the lock is closed, never handed to the next request.
      client.release(!unlocked);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** A statement with its parameters written in as literals (the simple protocol takes none). */
function inlined(client: pg.ClientBase, text: string, values: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(client, values[Number(n) - 1]));
}

function literal(client: pg.ClientBase, value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return client.escapeLiteral(value);
  if (value instanceof Date) return client.escapeLiteral(value.toISOString());
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    return client.escapeLiteral(`{${value.map((v: string) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`);
  }
  throw new Error(`a read under the creator's lock cannot carry ${typeof value} parameters`);
}
