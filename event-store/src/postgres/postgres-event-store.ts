import { randomUUID } from "node:crypto";
import pg from "pg";
import { AppendWaiter } from "../append-waiter.ts";
import type {
  AppendListener,
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedVersion,
  LogPosition,
  NewEvent,
  StoredEvent,
  StreamRead,
  SubscribeOptions,
  Subscription,
} from "../port.ts";
import { migrate } from "../sql-migrations.ts";
import { appendResult, databaseIdentity, writeEvents } from "./append-statements.ts";
import { APPENDS_CHANNEL, AppendAnnouncer, heardAnnouncement } from "./announcements.ts";
import { GroupCommit } from "./group-commit.ts";
import { eventStoreMigrations } from "./migrations.ts";
import { countEvents, headPosition, readAll, readStream } from "./read-statements.ts";

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

export class PostgresEventStore implements EventStore {
  readonly kind = "postgres" as const;
  /** Called after every append this instance commits. */
  private readonly wakers = new Set<AppendListener>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly instanceId = randomUUID();
  private readonly announcer = new AppendAnnouncer(this.instanceId, (payload) =>
    this.pool.query("SELECT pg_notify($1, $2)", [APPENDS_CHANNEL, payload]),
  );
  private listening: Promise<void> | null = null;
  private listener: pg.PoolClient | null = null;
  private readonly groupCommit: GroupCommit;
  private identity: Promise<string> | null = null;

  constructor(
    readonly pool: pg.Pool,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.groupCommit = new GroupCommit(pool, {
      appendCommitted: (stored) => this.committed(stored),
      batchCommitted: (newest, streams) => this.announceAppend(newest, streams),
    });
  }

  /** Open a pool on `connectionString` and apply the event store's migrations. */
  static async connect(
    connectionString: string,
    options: PostgresEventStoreOptions & { poolSize?: number } = {},
  ): Promise<PostgresEventStore> {
    const pool = new pg.Pool({ connectionString, max: options.poolSize ?? 10 });
    // An idle connection dropped by the server (restart, failover) is replaced on next use;
    // without a listener, node would treat the error as fatal and exit.
    pool.on("error", () => undefined);
    await migrate(pool, "event_store_migrations", eventStoreMigrations);
    return new PostgresEventStore(pool, options);
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    // One statement in its own implicit transaction (with the rows to write alongside): one round trip and one commit per append.
    if (this.options.groupCommit === false)
      return this.committed(await writeEvents(this.pool, streamId, events, expected, options.alongside));
    return this.groupCommit.append(streamId, events, expected, options.alongside);
  }

  /** Rows written alongside an append go to this store's database, in the append's own statement. */
  rowsWrittenWithAppendsIn(): Promise<string> {
    this.identity ??= databaseIdentity(this.pool).catch((e: unknown) => {
      this.identity = null;
      throw e;
    });
    return this.identity;
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

  readStream(streamId: string, options: { afterVersion?: number } = {}): Promise<StreamRead> {
    return readStream(this.pool, streamId, options.afterVersion ?? 0);
  }

  readAll(after: LogPosition | null, limit: number): Promise<StoredEvent[]> {
    return readAll(this.pool, after, limit);
  }

  headPosition(): Promise<LogPosition | null> {
    return headPosition(this.pool);
  }

  countEvents(): Promise<number> {
    return countEvents(this.pool);
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
