import { randomUUID } from "node:crypto";
import pg from "pg";
import type { EventMetadata } from "@booking/contracts";
import {
  WrongExpectedVersion,
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
import { eventStoreMigrations, migrate } from "./migrations.ts";

const NOTIFY_CHANNEL = "events_appended";

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

export type PostgresEventStoreOptions = { pollIntervalMs?: number };

export class PostgresEventStore implements EventStore {
  readonly kind = "postgres" as const;
  private listener: pg.PoolClient | null = null;
  private listenerStarting: Promise<void> | null = null;
  private readonly wakers = new Set<() => void>();
  private readonly subscriptions = new Set<Subscription>();

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
    const pending = await this.beginAppend(streamId, events, expected);
    return pending.commit();
  }

  /**
   * Write the events inside a transaction and hand back its commit. `append` commits at once;
   * the contract suite holds one open to prove catch-up readers wait for it.
   */
  async beginAppend(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<PendingAppend> {
    if (events.length === 0) throw new Error("append needs at least one event");
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
      const next = await this.claimVersions(client, streamId, events.length, expected);
      const first = next - events.length + 1;
      const { rows } = await client.query<EventRow>(
        `INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata)
         SELECT $1, v, e, t, sv, d, m
         FROM unnest($2::bigint[], $3::uuid[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[]) AS x(v, e, t, sv, d, m)
         RETURNING ${COLUMNS}`,
        [
          streamId,
          events.map((_, i) => first + i),
          events.map((e) => e.eventId ?? randomUUID()),
          events.map((e) => e.type),
          events.map((e) => e.schemaVersion ?? 1),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(e.metadata)),
        ],
      );
      await client.query("SELECT pg_notify($1, '')", [NOTIFY_CHANNEL]);
      const stored = rows.map(toStored).sort((a, b) => a.version - b.version);
      return {
        commit: async () => {
          await finish("COMMIT");
          return { nextVersion: next, position: stored[stored.length - 1]!.position, events: stored };
        },
        rollback: () => finish("ROLLBACK"),
      };
    } catch (e) {
      await finish("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }

  /** Reserve versions for `count` new events, enforcing the expected version; returns the new stream version. */
  private async claimVersions(client: pg.PoolClient, streamId: string, count: number, expected: ExpectedVersion): Promise<number> {
    let row: { version: string } | undefined;
    if (expected === "no_stream" || expected === 0) {
      // "No stream" means version 0 exactly: a concurrent creator makes this a conflict.
      ({ rows: [row] } = await client.query("INSERT INTO streams (stream_id, version) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING version", [streamId, count]));
    } else if (expected === "any") {
      ({ rows: [row] } = await client.query(
        "INSERT INTO streams (stream_id, version) VALUES ($1, $2) ON CONFLICT (stream_id) DO UPDATE SET version = streams.version + EXCLUDED.version RETURNING version",
        [streamId, count],
      ));
    } else if (expected === "stream_exists") {
      ({ rows: [row] } = await client.query("UPDATE streams SET version = version + $2 WHERE stream_id = $1 RETURNING version", [streamId, count]));
    } else {
      // Row lock: a concurrent writer with the same expectation waits, then finds the version moved.
      ({ rows: [row] } = await client.query("UPDATE streams SET version = version + $3 WHERE stream_id = $1 AND version = $2 RETURNING version", [streamId, expected, count]));
    }
    if (!row) {
      const { rows } = await client.query<{ version: string }>("SELECT version FROM streams WHERE stream_id = $1", [streamId]);
      throw new WrongExpectedVersion(streamId, expected, rows[0] ? Number(rows[0].version) : null);
    }
    return Number(row.version);
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
    let wake: (() => void) | null = null;
    const batchSize = options.batchSize ?? 500;
    const poll = this.options.pollIntervalMs ?? 250;
    const sleep = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, poll);
        wake = done;
        this.wakers.add(done);
      });
    const loop = async () => {
      await this.ensureListener().catch(() => undefined); // polling still works without LISTEN
      let after = options.after;
      while (!stopped) {
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
        if (!stopped) await sleep();
      }
    };
    const done = loop();
    const subscription: Subscription = {
      done,
      stop: async () => {
        stopped = true;
        wake?.();
        await done;
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  private ensureListener(): Promise<void> {
    this.listenerStarting ??= (async () => {
      const client = await this.pool.connect();
      client.on("notification", () => {
        for (const w of [...this.wakers]) w();
      });
      client.on("error", () => undefined);
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      this.listener = client;
    })();
    return this.listenerStarting;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.listenerStarting) await this.listenerStarting.catch(() => undefined);
    this.listener?.release();
    this.listener = null;
    await this.pool.end();
  }
}
