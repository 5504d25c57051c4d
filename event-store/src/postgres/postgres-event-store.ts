import { randomUUID } from "node:crypto";
import pg from "pg";
import { AppendWaiter } from "../append-waiter.ts";
import {
  WrongExpectedVersion,
  comparePositions,
  type AppendListener,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type LogPosition,
  type NewEvent,
  type StoredEvent,
  type StreamRead,
  type SubscribeOptions,
  type Subscription,
} from "../port.ts";
import { migrate } from "../sql-migrations.ts";
import {
  COLUMNS,
  appendResult,
  streamHeads,
  toStored,
  writeBatchEvents,
  writeEvents,
  type EventRow,
  type NoEventRow,
} from "./append-statements.ts";
import { APPENDS_CHANNEL, AppendAnnouncer, heardAnnouncement } from "./announcements.ts";
import { eventStoreMigrations } from "./migrations.ts";

/** An append whose transaction is still open: commit makes it visible, rollback drops it. */
export type PendingAppend = { commit: () => Promise<AppendResult>; rollback: () => Promise<void> };

export type PostgresEventStoreOptions = {
  pollIntervalMs?: number;
  /** NOTIFY other processes after each append (default true). */
  notifyOtherProcesses?: boolean;
  /**
   * Group commit (default true): appends that arrive while one is being written are sent together
   * when it returns, as one statement and one commit, each stream's expectation decided on its own.
   */
  groupCommit?: boolean;
};

/** An append waiting for the batch it will be written in. */
type QueuedAppend = {
  streamId: string;
  events: readonly NewEvent[];
  expected: ExpectedVersion;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

/** At most this many appends share one statement: a bigger batch would hold the next one's appends longer. */
const MAX_BATCH_APPENDS = 64;
/**
 * Batches written at once. Below this many, an append leaves at once on a connection of its own
 * (Postgres flushes concurrent commits together anyway); past it, appends queue and leave together.
 * With one batch at a time, 4 clients' booking commands ran at 0.48 of single-row INSERTs against
 * 0.61 without group commit: every append waited for the one before it.
 */
const MAX_BATCHES_IN_FLIGHT = 4;

export class PostgresEventStore implements EventStore {
  readonly kind = "postgres" as const;
  /** Called after every append this instance commits. */
  private readonly wakers = new Set<AppendListener>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly instanceId = randomUUID();
  private readonly announcer = new AppendAnnouncer(this.instanceId, (payload) => this.pool.query("SELECT pg_notify($1, $2)", [APPENDS_CHANNEL, payload]));
  private listening: Promise<void> | null = null;
  private listener: pg.PoolClient | null = null;
  private readonly queued: QueuedAppend[] = [];
  /** Batches being written, and their streams: an append to one of those streams waits for its batch. */
  private inFlight = 0;
  private readonly writingStreams = new Set<string>();
  private pumpScheduled = false;

  constructor(
    readonly pool: pg.Pool,
    private readonly options: PostgresEventStoreOptions = {},
  ) {}

  /** Open a pool on `connectionString` and apply the event store's migrations. */
  static async connect(connectionString: string, options: PostgresEventStoreOptions & { poolSize?: number } = {}): Promise<PostgresEventStore> {
    const pool = new pg.Pool({ connectionString, max: options.poolSize ?? 10 });
    // An idle connection dropped by the server (restart, failover) is replaced on next use;
    // without a listener, node would treat the error as fatal and exit.
    pool.on("error", () => undefined);
    await migrate(pool, "event_store_migrations", eventStoreMigrations);
    return new PostgresEventStore(pool, options);
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    // One statement in its own implicit transaction: one round trip and one commit per append.
    if (this.options.groupCommit === false) return this.committed(await writeEvents(this.pool, streamId, events, expected));
    if (events.length === 0) throw new Error("append needs at least one event");
    return new Promise<AppendResult>((resolve, reject) => {
      this.queued.push({ streamId, events, expected, resolve, reject });
      this.schedulePump();
    });
  }

  /** After the current task's synchronous code: appends issued together leave together, and a lone append is not held back. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Up to MAX_BATCHES_IN_FLIGHT batches at once; once they are all out, the next carries every append that arrived meanwhile. */
  private pump(): void {
    while (this.inFlight < MAX_BATCHES_IN_FLIGHT && this.queued.length > 0) {
      const batch = this.nextBatch().map((a) => this.releasingOnSettle(a));
      if (batch.length === 0) return;
      this.inFlight++;
      for (const a of batch) this.writingStreams.add(a.streamId);
      // writeBatch settles each append itself; anything it throws settles those still waiting.
      void this.writeBatch(batch)
        .catch((e: unknown) => batch.forEach((a) => a.reject(e)))
        .finally(() => {
          // Every append of the batch is settled by now, so its streams are released.
          this.inFlight--;
          this.pump();
        });
    }
  }

  /**
   * The append, settled once only, and its stream free for the next batch as soon as it is (before
   * the rest of its batch is): a second settling must not free the stream from a later batch.
   */
  private releasingOnSettle(a: QueuedAppend): QueuedAppend {
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.writingStreams.delete(a.streamId);
      return true;
    };
    return { ...a, resolve: (r) => void (settle() && a.resolve(r)), reject: (e) => void (settle() && a.reject(e)) };
  }

  /**
   * The oldest queued appends, one per stream and none of a stream still being written: a later
   * append to a stream waits for the earlier one's batch, so it is decided against its result, as
   * it would be one by one.
   */
  private nextBatch(): QueuedAppend[] {
    const batch: QueuedAppend[] = [];
    const streams = new Set<string>();
    const waiting: QueuedAppend[] = [];
    for (const a of this.queued) {
      if (batch.length < MAX_BATCH_APPENDS && !streams.has(a.streamId) && !this.writingStreams.has(a.streamId)) {
        streams.add(a.streamId);
        batch.push(a);
      } else waiting.push(a);
    }
    this.queued.splice(0, this.queued.length, ...waiting);
    return batch;
  }

  private async writeBatch(batch: readonly QueuedAppend[]): Promise<void> {
    if (batch.length === 1) {
      const [a] = batch as [QueuedAppend];
      await writeEvents(this.pool, a.streamId, a.events, a.expected).then((stored) => a.resolve(this.committed(stored)), a.reject);
      return;
    }
    let written: Map<QueuedAppend, StoredEvent[]>;
    try {
      written = await writeBatchEvents(this.pool, batch);
    } catch {
      // A failure of the statement as a whole (a duplicate event id, a deadlock with another
      // process's batch) must fail only the append that caused it: write them one by one.
      for (const a of batch) await writeEvents(this.pool, a.streamId, a.events, a.expected).then((stored) => a.resolve(this.committed(stored)), a.reject);
      return;
    }
    // The written appends are committed: they succeed, and are announced, whatever happens next.
    let newest: LogPosition | null = null;
    const streams: string[] = [];
    for (const [a, stored] of written) {
      const result = appendResult(stored);
      if (!newest || comparePositions(result.position, newest) > 0) newest = result.position;
      streams.push(a.streamId);
      a.resolve(result);
    }
    // One announcement for the batch: followers read it all in one go.
    if (newest) this.announceAppend(newest, streams);
    const refused = batch.filter((a) => !written.has(a));
    if (refused.length === 0) return;
    const heads = await streamHeads(this.pool, refused.map((a) => a.streamId));
    for (const a of refused) a.reject(new WrongExpectedVersion(a.streamId, a.expected, heads.get(a.streamId) ?? null));
  }

  /**
   * Write the events inside a transaction and hand back its commit. `append` commits at once;
   * the contract suite holds one open to prove catch-up readers wait for it.
   */
  async beginAppend(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<PendingAppend> {
    const client = await this.pool.connect();
    let open = true;
    const finish = async (sql: "COMMIT" | "ROLLBACK") => {
      if (!open) return;
      open = false;
      try {
        await client.query(sql);
      } finally {
        client.release();
      }
    };
    try {
      await client.query("BEGIN");
      const stored = await writeEvents(client, streamId, events, expected);
      return {
        commit: async () => {
          await finish("COMMIT");
          return this.committed(stored);
        },
        rollback: () => finish("ROLLBACK"),
      };
    } catch (e) {
      await finish("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }

  /** The result of an append once its transaction has committed; followers hear of it. */
  private committed(stored: StoredEvent[]): AppendResult {
    const result = appendResult(stored);
    this.announceAppend(result.position, stored.length ? [stored[0]!.streamId] : []);
    return result;
  }

  /**
   * Followers in this process are woken at once. Other processes (the relay, other API replicas)
   * hear of it through a NOTIFY sent after the append has committed, in its own transaction and
   * at most one at a time: a NOTIFY inside the append would serialise every append's commit on
   * Postgres's database-wide notify lock.
   */
  private announceAppend(position: LogPosition, streams: readonly string[]): void {
    for (const w of [...this.wakers]) w(position, streams);
    if (this.options.notifyOtherProcesses !== false) this.announcer.announce(position, streams);
  }

  watchAppends(listener: AppendListener): () => void {
    this.wakers.add(listener);
    void this.listenToOtherProcesses();
    return () => {
      this.wakers.delete(listener);
    };
  }

  /** One connection per store LISTENs for other processes' appends, once anyone follows the log. */
  private listenToOtherProcesses(): Promise<void> {
    this.listening ??= (async () => {
      try {
        const client = await this.pool.connect();
        client.on("error", () => undefined);
        client.on("notification", (n) => {
          const heard = heardAnnouncement(n.payload ?? "");
          if (!heard || heard.from === this.instanceId) return;
          for (const w of [...this.wakers]) w(heard.position, heard.streams);
        });
        await client.query(`LISTEN ${APPENDS_CHANNEL}`);
        this.listener = client;
      } catch {
        // Without LISTEN, followers still poll.
      }
    })();
    return this.listening;
  }

  async readStream(streamId: string, options: { afterVersion?: number } = {}): Promise<StreamRead> {
    const after = options.afterVersion ?? 0;
    // One statement, one snapshot: the stream's row with its events after `after` (none: one row
    // of nulls carrying the head), so a load is one round trip.
    const { rows } = await this.pool.query<(EventRow | NoEventRow) & { head: string }>({
      name: "read-stream",
      text: `SELECT streams.version AS head, ${COLUMNS}
       FROM streams LEFT JOIN events ON events.stream_id = streams.stream_id AND events.version > $2
       WHERE streams.stream_id = $1
       ORDER BY events.version`,
      values: [streamId, after],
    });
    const events = rows.filter((r): r is EventRow & { head: string } => r.event_id !== null).map(toStored);
    const version = events.length ? events[events.length - 1]!.version : Math.min(Number(rows[0]?.head ?? 0), after);
    return { version, events };
  }

  async readAll(after: LogPosition | null, limit: number): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM events
       WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
         AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.transaction_id, events.global_position
       LIMIT $3`,
      [String(after?.commit ?? 0n), String(after?.prepare ?? 0n), limit],
    );
    return rows.map(toStored);
  }

  async headPosition(): Promise<LogPosition | null> {
    const { rows } = await this.pool.query<{ transaction_id: string; global_position: string }>(
      `SELECT transaction_id::text AS transaction_id, global_position FROM events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
    );
    const r = rows[0];
    return r ? { commit: BigInt(r.transaction_id), prepare: BigInt(r.global_position) } : null;
  }

  async countEvents(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>("SELECT count(*) AS n FROM events");
    return Number(rows[0]!.n);
  }

  subscribe(options: SubscribeOptions): Subscription {
    let stopped = false;
    const waiter = new AppendWaiter(this);
    const batchSize = options.batchSize ?? 500;
    const poll = this.options.pollIntervalMs ?? 250;
    const loop = async () => {
      let after = options.after;
      while (!stopped) {
        waiter.reading();
        try {
          const batch = await this.readAll(after, batchSize);
          if (batch.length > 0) {
            await options.onEvents(batch);
            after = batch[batch.length - 1]!.position;
            if (batch.length === batchSize) continue;
          }
        } catch (e) {
          if (stopped) break;
          options.onError?.(e);
        }
        // An announced append not read yet waits behind an older open transaction: look again soon.
        await waiter.pause(waiter.announcedBeyond(after) ? 10 : poll);
      }
    };
    const done = loop();
    const subscription: Subscription = {
      done,
      stop: async () => {
        stopped = true;
        waiter.stop();
        await done;
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    this.announcer.close();
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.listening;
    this.listener?.release();
    this.listener = null;
    await this.pool.end();
  }
}
