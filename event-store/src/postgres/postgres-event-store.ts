import { randomUUID } from "node:crypto";
import pg from "pg";
import type { EventMetadata } from "@booking/contracts";
import { AppendWaiter } from "../append-waiter.ts";
import {
  WrongExpectedVersion,
  comparePositions,
  formatPosition,
  parsePosition,
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
  recorded_at: string;
};

// ORDER BY must name `events.transaction_id`: the bare name binds to this text alias and sorts '1000' before '999'.
// The time an event was recorded, as the ISO string StoredEvent carries (milliseconds, UTC), written
// by Postgres: parsing it into a Date in Node to print it again cost a replay 5 % of its time.
const RECORDED_AT = `to_char(events.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at`;

const COLUMNS = `events.global_position, events.transaction_id::text AS transaction_id, events.stream_id, events.version, events.event_id, events.type, events.schema_version, events.data, events.metadata, ${RECORDED_AT}`;

/** A stream with no events after the asked version: the LEFT JOIN's one row, events' columns null. */
type NoEventRow = { [K in keyof EventRow]: null };

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
    recordedAt: r.recorded_at,
  };
}

/**
 * The written events as a reader would see them: their places in the log from the rows written,
 * their content what we sent, read back the way a reader of the jsonb columns would.
 */
function storedAsWritten(streamId: string, events: readonly NewEvent[], ids: readonly string[], data: readonly string[], metadata: readonly string[], rows: readonly WrittenRow[]): StoredEvent[] {
  const byId = new Map(ids.map((id, i) => [id, i]));
  return rows
    .map((r) => {
      const i = byId.get(r.event_id)!;
      const e = events[i]!;
      return toStored({ ...r, stream_id: streamId, type: e.type, schema_version: e.schemaVersion ?? 1, data: JSON.parse(data[i]!), metadata: JSON.parse(metadata[i]!) as EventMetadata });
    })
    .sort((a, b) => a.version - b.version);
}

function appendResult(stored: StoredEvent[]): AppendResult {
  const last = stored[stored.length - 1]!;
  return { nextVersion: last.version, position: last.position, events: stored };
}

/** Each stream's version now (a stream not in the map does not exist). */
async function streamHeads(db: pg.Pool | pg.PoolClient, streamIds: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ stream_id: string; version: string }>("SELECT stream_id, version FROM streams WHERE stream_id = ANY($1::text[])", [streamIds]);
  return new Map(rows.map((r) => [r.stream_id, Number(r.version)]));
}

/** How a batch states an expectation: the claim each kind makes on the stream's row. */
function claimKind(expected: ExpectedVersion): "new" | "any" | "existing" | "at-version" {
  if (expected === "no_stream" || expected === 0) return "new";
  if (expected === "any") return "any";
  if (expected === "stream_exists") return "existing";
  return "at-version";
}

/**
 * The appends of a batch (one per stream) as one statement: each stream's claim is made as
 * `claimSql` makes it alone, and only the claimed streams' events are inserted; an append missing
 * from the result was refused by its stream's expectation. The appends go in stream order, so two
 * processes' batches mostly lock rows in the same order (a deadlock fails the statement: the
 * batch is then written one by one).
 */
async function writeBatchEvents(db: pg.Pool, batch: readonly QueuedAppend[]): Promise<Map<QueuedAppend, StoredEvent[]>> {
  const appends = [...batch].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
  const ids = appends.map((a) => a.events.map((e) => e.eventId ?? randomUUID()));
  const data = appends.map((a) => a.events.map((e) => JSON.stringify(e.data)));
  const metadata = appends.map((a) => a.events.map((e) => JSON.stringify(e.metadata)));
  const { rows } = await db.query<WrittenRow & { stream_id: string }>({
    name: "append-batch",
    text: `WITH appends AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) WITH ORDINALITY AS a(stream_id, claim, expected, n, i)
       ),
       created AS (
         INSERT INTO streams (stream_id, version) SELECT stream_id, n FROM appends WHERE claim = 'new' ORDER BY i
         ON CONFLICT DO NOTHING RETURNING stream_id, version
       ),
       anyhow AS (
         INSERT INTO streams (stream_id, version) SELECT stream_id, n FROM appends WHERE claim = 'any' ORDER BY i
         ON CONFLICT (stream_id) DO UPDATE SET version = streams.version + EXCLUDED.version RETURNING stream_id, version
       ),
       moved AS (
         UPDATE streams SET version = streams.version + appends.n FROM appends
         WHERE streams.stream_id = appends.stream_id AND (appends.claim = 'existing' OR (appends.claim = 'at-version' AND streams.version = appends.expected))
         RETURNING streams.stream_id, streams.version
       ),
       claimed AS (SELECT * FROM created UNION ALL SELECT * FROM anyhow UNION ALL SELECT * FROM moved)
       INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata)
       SELECT appends.stream_id, claimed.version - appends.n + x.ord, x.e, x.t, x.sv, x.d, x.m
       FROM claimed
       JOIN appends ON appends.stream_id = claimed.stream_id
       JOIN unnest($5::int[], $6::int[], $7::uuid[], $8::text[], $9::int[], $10::jsonb[], $11::jsonb[]) AS x(i, ord, e, t, sv, d, m) ON x.i = appends.i
       ORDER BY appends.i, x.ord
       RETURNING global_position, transaction_id::text AS transaction_id, stream_id, version, event_id, ${RECORDED_AT}`,
    values: [
      appends.map((a) => a.streamId),
      appends.map((a) => claimKind(a.expected)),
      appends.map((a) => (typeof a.expected === "number" ? a.expected : 0)),
      appends.map((a) => a.events.length),
      appends.flatMap((a, i) => a.events.map(() => i + 1)),
      appends.flatMap((a) => a.events.map((_, ord) => ord + 1)),
      ids.flat(),
      appends.flatMap((a) => a.events.map((e) => e.type)),
      appends.flatMap((a) => a.events.map((e) => e.schemaVersion ?? 1)),
      data.flat(),
      metadata.flat(),
    ],
  });
  const byStream = new Map<string, WrittenRow[]>();
  for (const r of rows) byStream.set(r.stream_id, [...(byStream.get(r.stream_id) ?? []), r]);
  const written = new Map<QueuedAppend, StoredEvent[]>();
  appends.forEach((a, i) => {
    const mine = byStream.get(a.streamId);
    if (mine) written.set(a, storedAsWritten(a.streamId, a.events, ids[i]!, data[i]!, metadata[i]!, mine));
  });
  return written;
}

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

const APPENDS_CHANNEL = "events_appended";

/**
 * A NOTIFY payload is at most 8000 bytes: past this many bytes of stream ids, the announcement
 * names none and its listeners take it as "any stream may have changed".
 */
const MAX_ANNOUNCED_STREAMS_BYTES = 7_000;

/** `<instance> <position>[ <JSON array of stream ids>]`: an older process's payload (no streams) still parses. */
function announcement(instanceId: string, position: LogPosition, streams: ReadonlySet<string> | null): string {
  const head = `${instanceId} ${formatPosition(position)}`;
  const named = streams ? JSON.stringify([...streams]) : null;
  return named && Buffer.byteLength(named) <= MAX_ANNOUNCED_STREAMS_BYTES ? `${head} ${named}` : head;
}

function heardAnnouncement(payload: string): { from: string; position: LogPosition; streams: string[] | undefined } | null {
  const [from, at] = payload.split(" ", 2);
  const position = at ? parsePosition(at) : null;
  if (!from || !position) return null;
  const rest = payload.slice(from.length + at!.length + 2);
  let streams: string[] | undefined;
  try {
    const parsed: unknown = rest ? JSON.parse(rest) : undefined;
    streams = Array.isArray(parsed) && parsed.every((s) => typeof s === "string") ? parsed : undefined;
  } catch {
    streams = undefined;
  }
  return { from, position, streams };
}

export class PostgresEventStore implements EventStore {
  readonly kind = "postgres" as const;
  /** Called after every append this instance commits. */
  private readonly wakers = new Set<AppendListener>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly instanceId = randomUUID();
  private newestUnannounced: LogPosition | null = null;
  /** The streams written since the last NOTIFY (null: too many to name, or not known). */
  private unannouncedStreams: Set<string> | null = new Set();
  private announcing = false;
  private listening: Promise<void> | null = null;
  private listener: pg.PoolClient | null = null;
  private closed = false;
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
    if (this.options.groupCommit === false) return this.committed(await this.writeEvents(this.pool, streamId, events, expected));
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
      // A stream is free for the next batch as soon as its append is settled, before the rest of its batch is.
      const release = (streamId: string) => this.writingStreams.delete(streamId);
      const batch = this.nextBatch().map((a) => ({ ...a, resolve: (r: AppendResult) => (release(a.streamId), a.resolve(r)), reject: (e: unknown) => (release(a.streamId), a.reject(e)) }));
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
      await this.writeEvents(this.pool, a.streamId, a.events, a.expected).then((stored) => a.resolve(this.committed(stored)), a.reject);
      return;
    }
    let written: Map<QueuedAppend, StoredEvent[]>;
    try {
      written = await writeBatchEvents(this.pool, batch);
    } catch {
      // A failure of the statement as a whole (a duplicate event id, a deadlock with another
      // process's batch) must fail only the append that caused it: write them one by one.
      for (const a of batch) await this.writeEvents(this.pool, a.streamId, a.events, a.expected).then((stored) => a.resolve(this.committed(stored)), a.reject);
      return;
    }
    const refused = batch.filter((a) => !written.has(a));
    const heads = refused.length ? await streamHeads(this.pool, refused.map((a) => a.streamId)) : new Map<string, number>();
    let newest: LogPosition | null = null;
    const streams: string[] = [];
    for (const a of batch) {
      const stored = written.get(a);
      if (!stored) {
        a.reject(new WrongExpectedVersion(a.streamId, a.expected, heads.get(a.streamId) ?? null));
        continue;
      }
      const result = appendResult(stored);
      if (!newest || comparePositions(result.position, newest) > 0) newest = result.position;
      streams.push(a.streamId);
      a.resolve(result);
    }
    // One announcement for the batch: followers read it all in one go.
    if (newest) this.announceAppend(newest, streams);
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
       RETURNING global_position, transaction_id::text AS transaction_id, version, event_id, ${RECORDED_AT}`,
      values: params,
    });
    if (rows.length === 0) throw new WrongExpectedVersion(streamId, expected, (await streamHeads(db, [streamId])).get(streamId) ?? null);
    // Only the events' places in the log come back: their content is what we sent, read back the
    // way a reader of the jsonb columns would see it.
    return storedAsWritten(streamId, events, ids, data, metadata, rows);
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
    if (this.options.notifyOtherProcesses === false) return;
    if (!this.newestUnannounced || comparePositions(position, this.newestUnannounced) > 0) this.newestUnannounced = position;
    if (this.unannouncedStreams) for (const s of streams) this.unannouncedStreams.add(s);
    void this.sendAnnouncements();
  }

  private async sendAnnouncements(): Promise<void> {
    if (this.announcing || this.closed) return;
    this.announcing = true;
    try {
      while (this.newestUnannounced && !this.closed) {
        const position = this.newestUnannounced;
        const streams = this.unannouncedStreams;
        this.newestUnannounced = null;
        this.unannouncedStreams = new Set();
        await this.pool.query("SELECT pg_notify($1, $2)", [APPENDS_CHANNEL, announcement(this.instanceId, position, streams)]);
      }
    } catch {
      // A follower that misses a wake finds the events on its next poll; a stream cache hears
      // "any stream" with the next announcement.
      this.unannouncedStreams = null;
    } finally {
      this.announcing = false;
    }
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
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.listening;
    this.listener?.release();
    this.listener = null;
    await this.pool.end();
  }
}
