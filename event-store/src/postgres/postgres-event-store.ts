import { randomUUID } from "node:crypto";
import pg from "pg";
import type { EventMetadata } from "@booking/contracts";
import { AppendWaiter } from "../append-waiter.ts";
import {
  WrongExpectedVersion,
  comparePositions,
  formatPosition,
  parsePosition,
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
import { eventStoreMigrations } from "./migrations.ts";

type WrittenRow = Pick<EventRow, "global_position" | "transaction_id" | "version" | "event_id" | "recorded_at">;

/** The statement that reserves versions for $2 new events of stream $1; it returns the new stream version, or no row when the expectation fails. */
function claimSql(expected: ExpectedVersion): { name: string; sql: string } {
  if (expected === "no_stream" || expected === 0) {
    // "No stream" means version 0 exactly: a concurrent creator makes this a conflict.
    return { name: "new", sql: "INSERT INTO streams (stream_id, version) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING version" };
  }
  if (expected === "any") {
    return { name: "any", sql: "INSERT INTO streams (stream_id, version) VALUES ($1, $2) ON CONFLICT (stream_id) DO UPDATE SET version = streams.version + EXCLUDED.version RETURNING version" };
  }
  if (expected === "stream_exists") return { name: "existing", sql: "UPDATE streams SET version = version + $2 WHERE stream_id = $1 RETURNING version" };
  return { name: "at-version", sql: "UPDATE streams SET version = version + $2 WHERE stream_id = $1 AND version = $8 RETURNING version" };
}

type EventRow = {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  version: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
};

// ORDER BY must name `events.transaction_id`: the bare name binds to this text alias and sorts '1000' before '999'.
const COLUMNS = "global_position, transaction_id::text AS transaction_id, stream_id, version, event_id, type, schema_version, data, metadata, recorded_at";

function toStored(r: EventRow): StoredEvent {
  return {
    eventId: r.event_id,
    streamId: r.stream_id,
    version: Number(r.version),
    position: { commit: BigInt(r.transaction_id), prepare: BigInt(r.global_position) },
    type: r.type,
    schemaVersion: r.schema_version,
    data: r.data,
    metadata: r.metadata,
    recordedAt: r.recorded_at.toISOString(),
  };
}

/** An append whose transaction is still open: commit makes it visible, rollback drops it. */
export type PendingAppend = { commit: () => Promise<AppendResult>; rollback: () => Promise<void> };

export type PostgresEventStoreOptions = {
  pollIntervalMs?: number;
  /** NOTIFY other processes after each append (default true). */
  notifyOtherProcesses?: boolean;
};

const APPENDS_CHANNEL = "events_appended";

export class PostgresEventStore implements EventStore {
  readonly kind = "postgres" as const;
  /** Called after every append this instance commits. */
  private readonly wakers = new Set<(position: LogPosition) => void>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly instanceId = randomUUID();
  private newestUnannounced: LogPosition | null = null;
  private announcing = false;
  private listening: Promise<void> | null = null;
  private listener: pg.PoolClient | null = null;
  private closed = false;

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
    return this.committed(await this.writeEvents(this.pool, streamId, events, expected));
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
      const stored = await this.writeEvents(client, streamId, events, expected);
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

  /**
   * Claim the stream's next versions (enforcing the expected version) and insert the events, as one
   * statement. A concurrent writer with the same expectation waits on the stream's row lock, then
   * finds the version moved: the claim returns no row and nothing is inserted.
   */
  private async writeEvents(db: pg.Pool | pg.PoolClient, streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<StoredEvent[]> {
    if (events.length === 0) throw new Error("append needs at least one event");
    const ids = events.map((e) => e.eventId ?? randomUUID());
    const data = events.map((e) => JSON.stringify(e.data));
    const metadata = events.map((e) => JSON.stringify(e.metadata));
    // Most commands write one event: then the values go as scalars, sparing Postgres (and pg) the
    // array literals that unnest needs.
    const single = events.length === 1;
    const params: unknown[] = single
      ? [streamId, 1, ids[0], events[0]!.type, events[0]!.schemaVersion ?? 1, data[0], metadata[0]]
      : [streamId, events.length, ids, events.map((e) => e.type), events.map((e) => e.schemaVersion ?? 1), data, metadata];
    if (typeof expected === "number" && expected > 0) params.push(expected);
    const claim = claimSql(expected);
    const { rows } = await db.query<WrittenRow>({
      // Named: each connection parses and plans the statement once, not on every append.
      name: `append-${single ? "one" : "many"}-${claim.name}`,
      text: `WITH claimed AS (${claim.sql})
       INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata)
       ${
         single
           ? "SELECT $1, claimed.version, $3::uuid, $4::text, $5::int, $6::jsonb, $7::jsonb FROM claimed"
           : "SELECT $1, claimed.version - $2 + x.ord, x.e, x.t, x.sv, x.d, x.m FROM claimed, unnest($3::uuid[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[]) WITH ORDINALITY AS x(e, t, sv, d, m, ord)"
       }
       RETURNING global_position, transaction_id::text AS transaction_id, version, event_id, recorded_at`,
      values: params,
    });
    if (rows.length === 0) {
      const { rows: head } = await db.query<{ version: string }>("SELECT version FROM streams WHERE stream_id = $1", [streamId]);
      throw new WrongExpectedVersion(streamId, expected, head[0] ? Number(head[0].version) : null);
    }
    // Only the events' places in the log come back: their content is what we sent, read back the
    // way a reader of the jsonb columns would see it.
    const byId = new Map(ids.map((id, i) => [id, i]));
    return rows
      .map((r) => {
        const i = byId.get(r.event_id)!;
        const e = events[i]!;
        return toStored({ ...r, stream_id: streamId, type: e.type, schema_version: e.schemaVersion ?? 1, data: JSON.parse(data[i]!), metadata: JSON.parse(metadata[i]!) as EventMetadata });
      })
      .sort((a, b) => a.version - b.version);
  }

  /** The result of an append once its transaction has committed; followers hear of it. */
  private committed(stored: StoredEvent[]): AppendResult {
    const last = stored[stored.length - 1]!;
    this.announceAppend(last.position);
    return { nextVersion: last.version, position: last.position, events: stored };
  }

  /**
   * Followers in this process are woken at once. Other processes (the relay, other API replicas)
   * hear of it through a NOTIFY sent after the append has committed, in its own transaction and
   * at most one at a time: a NOTIFY inside the append would serialise every append's commit on
   * Postgres's database-wide notify lock.
   */
  private announceAppend(position: LogPosition): void {
    for (const w of [...this.wakers]) w(position);
    if (this.options.notifyOtherProcesses === false) return;
    if (!this.newestUnannounced || comparePositions(position, this.newestUnannounced) > 0) this.newestUnannounced = position;
    void this.sendAnnouncements();
  }

  private async sendAnnouncements(): Promise<void> {
    if (this.announcing || this.closed) return;
    this.announcing = true;
    try {
      while (this.newestUnannounced && !this.closed) {
        const position = this.newestUnannounced;
        this.newestUnannounced = null;
        await this.pool.query("SELECT pg_notify($1, $2)", [APPENDS_CHANNEL, `${this.instanceId} ${formatPosition(position)}`]);
      }
    } catch {
      // A follower that misses a wake finds the events on its next poll.
    } finally {
      this.announcing = false;
    }
  }

  watchAppends(listener: (position: LogPosition) => void): () => void {
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
          const [from, at] = (n.payload ?? "").split(" ");
          const position = at ? parsePosition(at) : null;
          if (from === this.instanceId || !position) return;
          for (const w of [...this.wakers]) w(position);
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
    const [{ rows }, head] = await Promise.all([
      this.pool.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version`, [streamId, after]),
      this.pool.query<{ version: string }>("SELECT version FROM streams WHERE stream_id = $1", [streamId]),
    ]);
    const events = rows.map(toStored);
    // The two reads are separate snapshots: the stream's version is the newest event we actually read.
    const version = events.length ? events[events.length - 1]!.version : Math.min(Number(head.rows[0]?.version ?? 0), after);
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
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.listening;
    this.listener?.release();
    this.listener = null;
    await this.pool.end();
  }
}
