import pg from "pg";
import type { LogPosition } from "@booking/contracts";
import { readCheckpoints } from "@booking/projections";
import { Refused, readModelsAt } from "../http/index.ts";
import { BEGIN_TURN_SQL, END_TURN_SQL, positionText, previousTurnOf } from "./creator-writes-table.ts";

/** What the read models' readers take (projections' Queryable): reads sent with the lock go through one. */
export type LockedQueryable = Pick<pg.ClientBase, "query">;

type Queued = { text: string; values: readonly unknown[]; resolve: (result: pg.QueryResult) => void; reject: (error: unknown) => void };

/**
 * One creator's booking requests run one at a time, across every API process. The rules about a
 * creator's bookings with all experts (the holds cap, no creator booked twice at once) read the
 * bookings read model, which is current for this creator only while no other request of theirs
 * is in flight. Fed from the log (`turns` given), a request holds the lock from reading those facts
 * until its write is appended, and records where (creator-writes-table.ts): the next holder waits, if
 * need be, until the read models have reached it, then reads. Fed from Kafka, a request holds the lock
 * until its own write shows in the read model. A session-level advisory lock on a pool of its own: were
 * it on the pool the work inside uses, ten waiting creators could hold every connection while each
 * waits for another.
 */
export class CreatorBookingLock {
  private readonly pool: pg.Pool;

  /** `turns`: how a holder waits for the read models to reach a position (bounded), and the log's head (null: hold until shown). */
  constructor(
    connection: pg.PoolConfig,
    private readonly turns: CreatorTurns | null = null,
  ) {
    this.pool = new pg.Pool({ ...connection, max: 20, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
    this.pool.on("error", () => undefined);
  }

  /** `work` runs holding the creator's lock; its client may read (the facts), the rest goes through other pools. */
  run<T>(creatorId: string, work: (client: pg.ClientBase, wrote: Wrote) => Promise<T>): Promise<T> {
    return this.runReading(
      creatorId,
      async () => undefined,
      (_facts, client, wrote) => work(client, wrote),
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
    work: (facts: F, client: pg.ClientBase, wrote: Wrote) => Promise<T>,
  ): Promise<T> {
    const client = await this.pool.connect();
    let unlocked = false;
    try {
      const lock = `SELECT pg_advisory_lock(hashtextextended(${client.escapeLiteral(`creator-bookings:${creatorId}`)}, 0))`;
      // Before the facts, in this order: the previous turn's write, then the checkpoints (a snapshot no later than the facts').
      const { turn, checkpoints, facts } = await inOneRoundTrip(client, lock, (db) => ({
        turn: this.turns ? db.query(BEGIN_TURN_SQL, [creatorId]) : null,
        checkpoints: this.turns ? readCheckpoints(db) : null,
        facts: read(db),
      }));
      let known = facts;
      if (turn && checkpoints && this.turns) {
        const previous = previousTurnOf((await turn).rows[0] as { position: string | null; pending: boolean } | undefined);
        // A turn left unfinished may have written anything: everything logged so far is waited for.
        const needed = previous.unfinished ? await this.turns.head() : previous.position;
        if (needed && !readModelsAt(await checkpoints, needed)) {
          await facts.catch(() => undefined);
          await this.turns.shown(needed);
          known = (await inOneRoundTrip(client, null, (db) => ({ facts: read(db) }))).facts;
        }
      }
      let written: LogPosition | null = null;
      let inDoubt = true;
      try {
        const done = await work(await known, client, (position) => (written = position));
        inDoubt = false;
        return done;
      } catch (e) {
        // A refusal wrote nothing; anything else may have (the next turn waits for the whole log).
        if (e instanceof Refused) inDoubt = false;
        throw e;
      } finally {
        const unlock = `SELECT pg_advisory_unlock(hashtextextended(${client.escapeLiteral(`creator-bookings:${creatorId}`)}, 0))`;
        // Committed before the unlock, in its own transaction of the same round trip: statements of one query otherwise
        // commit together at its end, after the unlock has let the next holder in, who would read the turn as it was.
        const end = this.turns && !inDoubt ? inlined(client, END_TURN_SQL, [creatorId, positionText(written)]) : null;
        await client.query(end ? `BEGIN;\n${end};\nCOMMIT;\n${unlock}` : unlock);
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

/**
 * The statements `ask` sends (each before its first await) go as one simple-protocol query after `first`, each its own
 * snapshot; each promise `ask` made settles with its statement's result. Those sent later go on their own.
 */
async function inOneRoundTrip<R extends Record<string, Promise<unknown> | null>>(
  client: pg.ClientBase,
  first: string | null,
  ask: (db: LockedQueryable) => R,
): Promise<R> {
  const queued: Queued[] = [];
  let sent = false;
  const db = {
    query: (text: string, values: readonly unknown[] = []) =>
      sent
        ? client.query(text, values as unknown[])
        : new Promise<pg.QueryResult>((resolve, reject) => queued.push({ text, values, resolve, reject })),
  } as unknown as LockedQueryable;
  const asked = ask(db);
  const batch = queued.splice(0);
  sent = true;
  const statements = [...(first ? [first] : []), ...batch.map((q) => inlined(client, q.text, q.values))];
  try {
    const answered = statements.length === 0 ? [] : await client.query(statements.join(";\n"));
    const results = Array.isArray(answered) ? (answered as pg.QueryResult[]) : [answered];
    batch.forEach((q, i) => q.resolve(results[i + (first ? 1 : 0)]!));
  } catch (e) {
    for (const q of batch) q.reject(e);
    await Promise.allSettled(Object.values(asked));
    throw e;
  }
  return asked;
}

/** Tells the lock where the work's write went in the log (the next holder waits for the read models to reach it). */
export type Wrote = (position: LogPosition | null) => void;

/** What the lock needs of the read models when a holder lets go at its append (fed from the log). */
export type CreatorTurns = {
  /** Waits (bounded) until every live read model has applied the log up to `position`. */
  shown(position: LogPosition): Promise<unknown>;
  /** The newest position in the log. */
  head(): Promise<LogPosition | null>;
};

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
