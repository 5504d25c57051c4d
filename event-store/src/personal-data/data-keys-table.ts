import pg from "pg";
import type { Migration } from "@booking/contracts";
import { databaseIdentity } from "../postgres/append-statements.ts";
import { migrate } from "../sql-migrations.ts";
import { newDataKey, unwrapKey, wrapKey, type KeyRing } from "./data-keys.ts";

// The product's key ring (issue 33.1): every person's data key in the `data_keys` table of the event store's database,
// wrapped by the master key (DATA_KEY_SECRET), so the table alone opens nothing. Erasure sets the wrapped key to NULL:
// what was sealed with it can never be opened again, and the owner never gets a key again (a new event of theirs is
// written with its fields' erased markers, envelope.ts).
//
// Keys are kept unwrapped in memory (least recently used dropped past `cacheSize`), since every read of a personal
// field needs one. A key erased by another process must not go on being served from here: an erasure NOTIFYs
// `data_key_erased` with the owner's id in the transaction that destroys the key, every key ring LISTENs and drops
// the key when it hears it, and forgets everything when its listening connection is lost (it may have missed one).
// A bounded time to live is the backstop: no key is served from memory longer than `ttlMs` without being read again.
//
// A new person's key is written with the first event sealed with it where the store beneath appends to this same
// database (fresh-keys.ts: `freshKey`, one statement, one transaction); elsewhere (EventStoreDB) it is made here first
// (`keyFor`), committed before any event sealed with it.

export const dataKeyMigrations: readonly Migration[] = [
  {
    name: "001_data_keys",
    sql: `
      CREATE TABLE data_keys (
        owner_id text PRIMARY KEY,
        -- dk1:<iv>.<tag>.<ciphertext>, the data key sealed by the master key; NULL once erased
        wrapped_key text,
        created_at timestamptz NOT NULL DEFAULT now(),
        erased_at timestamptz,
        CHECK ((wrapped_key IS NULL) = (erased_at IS NOT NULL))
      );
    `,
  },
];

/** The channel an erasure is announced on; the payload is the owner's id. */
export const DATA_KEY_ERASED_CHANNEL = "data_key_erased";

export type PostgresKeyRingOptions = {
  /** Unwrapped keys kept in memory (default 10,000; least recently used dropped first). */
  cacheSize?: number;
  /** Longest a key is served from memory before it is read again (default 60 s): the backstop to NOTIFY. */
  ttlMs?: number;
  /** Milliseconds now (tests move it). */
  now?: () => number;
  /**
   * The events sealed with these keys are committed to this same Postgres server (the Postgres store in this database;
   * not EventStoreDB): a new key made ahead of its event (`keyFor`, not `freshKey`) then need not wait for the disk. Any event sealed with it commits after it,
   * and that commit's flush carries the key's too (the write-ahead log is flushed in order); a server that crashes
   * before then loses the key with no event sealed under it, and every process forgets its keys when its connection
   * drops. A sign-up then costs no second wait for the disk.
   */
  keysCommitBeforeTheirEvents?: boolean;
};

/** A key ring's erasure side, as the API hands it to the erasure of a person's data. */
export interface DataKeys {
  /** Destroy `ownerId`'s data key, now and for good: everything sealed with it reads as erased, everywhere. */
  erase(ownerId: string): Promise<void>;
  /** When `ownerId`'s data key was destroyed (ISO), or null while it lives (or they never had one). */
  erasedAt(ownerId: string): Promise<string | null>;
  /**
   * Call `listener` with the owner of each erasure this process hears of (its own, or another's by NOTIFY), so what it
   * holds folded in memory can be dropped; returns the unsubscribe.
   */
  onErasure?(listener: (ownerId: string) => void): () => void;
}

type KeyRow = { owner_id: string; wrapped_key: string | null };

/**
 * A data key made here and not yet in the table: its row is written in the transaction of the append of the first
 * event sealed with it (SealedEventStore), so the key exists exactly when an event sealed with it does. `row`: the
 * `data_keys` columns `KEY_ROW_COLUMNS` name.
 */
export type FreshKey = { readonly ownerId: string; readonly key: Buffer; readonly row: readonly [string, string]; readonly heard: number };

export const KEY_ROW_TABLE = "data_keys";
export const KEY_ROW_COLUMNS: readonly string[] = ["owner_id", "wrapped_key"];
/** In memory: a live key until `until`, or null for an erased owner (erasure is for good: kept without a limit). */
type Remembered = { key: Buffer | null; until: number };

export class PostgresKeyRing implements KeyRing, DataKeys {
  private readonly cache = new Map<string, Remembered>();
  private readonly cacheSize: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly makeKey: string;
  /** Bumped by every erasure heard: a lookup that overlapped one does not put what it read in memory. */
  private erasuresHeard = 0;
  private readonly erasureListeners = new Set<(ownerId: string) => void>();
  /** Owners known to have a row (a live or an erased key), kept past their key's time in memory: no fresh key for them. */
  private readonly haveRows = new Set<string>();
  /** Fresh keys whose appends are being written, settled when they are: another event of that owner waits for it. */
  private readonly writing = new Map<string, { done: Promise<void>; settle: () => void }>();
  private identity: Promise<string> | null = null;
  private listening: Promise<void> | null = null;
  private listener: pg.PoolClient | null = null;
  private closed = false;

  constructor(
    readonly pool: pg.Pool,
    private readonly masterKey: Buffer,
    options: PostgresKeyRingOptions = {},
    private readonly ownsPool = false,
  ) {
    this.cacheSize = options.cacheSize ?? 10_000;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.now = options.now ?? Date.now;
    // `durability` is joined to the insert so it runs in the statement's transaction; it holds for that transaction only.
    const durability = options.keysCommitBeforeTheirEvents ? "SELECT set_config('synchronous_commit', 'off', true)" : "SELECT 1";
    this.makeKey = `WITH durability AS (${durability}),
      made AS (
        INSERT INTO data_keys (owner_id, wrapped_key) SELECT $1, $2 FROM durability ON CONFLICT (owner_id) DO NOTHING
        RETURNING owner_id, wrapped_key)
      SELECT owner_id, wrapped_key FROM made
      UNION ALL SELECT owner_id, wrapped_key FROM data_keys WHERE owner_id = $1 AND NOT EXISTS (SELECT 1 FROM made)`;
  }

  /** On a pool of its own (from a connection string) or the one passed in, with the table migrated. */
  static async connect(target: string | pg.Pool, masterKey: Buffer, options: PostgresKeyRingOptions = {}): Promise<PostgresKeyRing> {
    const owns = typeof target === "string";
    const pool = owns ? new pg.Pool({ connectionString: target, max: 4 }) : target;
    if (owns) pool.on("error", () => undefined);
    await migrate(pool, "data_key_migrations", dataKeyMigrations);
    const ring = new PostgresKeyRing(pool, masterKey, options, owns);
    await ring.listen();
    return ring;
  }

  async keyFor(ownerId: string, create: boolean): Promise<Buffer | null> {
    const remembered = this.remembered(ownerId);
    if (remembered !== undefined) return remembered;
    void this.listen();
    const heard = this.erasuresHeard;
    const row = create ? await this.readOrMake(ownerId) : await this.read(ownerId);
    if (!row) return null;
    const key = row.wrapped_key === null ? null : unwrapKey(ownerId, row.wrapped_key, this.masterKey);
    if (heard === this.erasuresHeard) this.remember(ownerId, key);
    return key;
  }

  /**
   * A new key for an owner this process knows nothing of (no row seen), to be written with the append of the event
   * sealed with it (`settleFresh` once it is known whether it was); null when the owner has or may have a row, then
   * `keyFor` decides. Should the row be there after all (another process made it), that append is refused
   * (RowAlreadyWritten) and sealed again with `keyFor`.
   */
  async freshKey(ownerId: string): Promise<FreshKey | null> {
    const writing = this.writing.get(ownerId);
    if (writing) {
      // Another append of this process is writing their first key: its outcome tells whether there is one.
      await writing.done;
      return null;
    }
    if (this.remembered(ownerId) !== undefined || this.haveRows.has(ownerId)) return null;
    void this.listen();
    let settle = (): void => undefined;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.writing.set(ownerId, { done, settle });
    const key = newDataKey();
    return { ownerId, key, row: [ownerId, wrapKey(ownerId, key, this.masterKey)], heard: this.erasuresHeard };
  }

  /** The append carrying `fresh`'s row committed (`written`), or did not: then nothing of it is kept here. */
  settleFresh(fresh: FreshKey, written: boolean): void {
    if (written) this.haveRows.add(fresh.ownerId);
    // An erasure heard meanwhile may be this owner's: their key is read again, not served from here.
    if (written && fresh.heard === this.erasuresHeard) this.remember(fresh.ownerId, fresh.key);
    this.writing.get(fresh.ownerId)?.settle();
    this.writing.delete(fresh.ownerId);
  }

  /** The database of the `data_keys` table (to tell whether a store's appends write to it: rowsWrittenWithAppendsIn). */
  databaseIdentity(): Promise<string> {
    this.identity ??= databaseIdentity(this.pool).catch((e: unknown) => {
      this.identity = null;
      throw e;
    });
    return this.identity;
  }

  /** The key held in memory now (null: erased), or undefined when it has to be read: no wait, no statement. */
  knownKey(ownerId: string): Buffer | null | undefined {
    return this.remembered(ownerId);
  }

  /** Read the keys of many owners at once into memory (a batch of events about to be opened), one statement. */
  async prefetch(ownerIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(ownerIds)].filter((id) => this.remembered(id) === undefined);
    if (missing.length === 0) return;
    void this.listen();
    const heard = this.erasuresHeard;
    const { rows } = await this.pool.query<KeyRow>({
      name: "data-keys-read-many",
      text: "SELECT owner_id, wrapped_key FROM data_keys WHERE owner_id = ANY($1::text[])",
      values: [missing],
    });
    const keys = rows.map(
      (r) => [r.owner_id, r.wrapped_key === null ? null : unwrapKey(r.owner_id, r.wrapped_key, this.masterKey)] as const,
    );
    if (heard !== this.erasuresHeard) return;
    for (const [ownerId, key] of keys) this.remember(ownerId, key);
  }

  async erase(ownerId: string): Promise<void> {
    // One statement, one transaction: the key is destroyed and the erasure announced together (NOTIFY is delivered on
    // commit). An owner who never had a key gets an erased row all the same, so none is ever made for them.
    await this.pool.query(
      `WITH erased AS (
         INSERT INTO data_keys (owner_id, wrapped_key, erased_at) VALUES ($1, NULL, now())
         ON CONFLICT (owner_id) DO UPDATE SET wrapped_key = NULL, erased_at = COALESCE(data_keys.erased_at, now())
         RETURNING owner_id)
       SELECT pg_notify($2, owner_id) FROM erased`,
      [ownerId, DATA_KEY_ERASED_CHANNEL],
    );
    this.heardErasure(ownerId);
  }

  async erasedAt(ownerId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ erased_at: Date | null }>("SELECT erased_at FROM data_keys WHERE owner_id = $1", [ownerId]);
    return rows[0]?.erased_at?.toISOString() ?? null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listening;
    // Destroyed, not returned to a pool others may share: it still LISTENs and carries our handler.
    this.listener?.release(true);
    this.listener = null;
    this.cache.clear();
    if (this.ownsPool) await this.pool.end();
  }

  /** A key from memory (null: erased), or undefined when it has to be read. */
  private remembered(ownerId: string): Buffer | null | undefined {
    const r = this.cache.get(ownerId);
    if (!r) return undefined;
    if (r.key !== null && r.until <= this.now()) {
      this.cache.delete(ownerId);
      return undefined;
    }
    // Used again: to the back of the least-recently-used order.
    this.cache.delete(ownerId);
    this.cache.set(ownerId, r);
    return r.key;
  }

  private remember(ownerId: string, key: Buffer | null): void {
    this.haveRows.add(ownerId);
    // Bounded too (ten times the keys held): an owner forgotten here is only refused once (RowAlreadyWritten) and read.
    if (this.haveRows.size > this.cacheSize * 10) this.haveRows.delete(this.haveRows.values().next().value!);
    this.cache.delete(ownerId);
    this.cache.set(ownerId, { key, until: this.now() + this.ttlMs });
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }

  onErasure(listener: (ownerId: string) => void): () => void {
    this.erasureListeners.add(listener);
    return () => void this.erasureListeners.delete(listener);
  }

  private heardErasure(ownerId: string): void {
    // Its own erasure comes back by NOTIFY too: listeners hear of each once.
    const known = this.cache.get(ownerId)?.key === null;
    this.erasuresHeard++;
    this.remember(ownerId, null);
    if (!known) for (const listener of [...this.erasureListeners]) listener(ownerId);
  }

  private async read(ownerId: string): Promise<KeyRow | null> {
    const { rows } = await this.pool.query<KeyRow>({
      name: "data-keys-read",
      text: "SELECT owner_id, wrapped_key FROM data_keys WHERE owner_id = $1",
      values: [ownerId],
    });
    return rows[0] ?? null;
  }

  /**
   * The owner's row, made with a new key when there is none: one statement in the usual case. A row another process
   * inserted after this statement's snapshot is neither inserted over nor seen by it, so it is read once more.
   */
  private async readOrMake(ownerId: string): Promise<KeyRow | null> {
    const { rows } = await this.pool.query<KeyRow>({
      name: this.makeKey.includes("set_config") ? "data-keys-make-riding" : "data-keys-make",
      text: this.makeKey,
      values: [ownerId, wrapKey(ownerId, newDataKey(), this.masterKey)],
    });
    return rows[0] ?? (await this.read(ownerId));
  }

  /** One connection LISTENs for erasures; losing it forgets every key (an erasure may have gone unheard), then listens again. */
  private listen(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.listening ??= (async () => {
      try {
        const client = await this.pool.connect();
        client.on("notification", (n) => {
          if (n.channel === DATA_KEY_ERASED_CHANNEL && n.payload) this.heardErasure(n.payload);
        });
        client.on("error", () => {
          this.erasuresHeard++;
          this.cache.clear();
          client.release(true);
          if (this.listener === client) this.listener = null;
          this.listening = null;
        });
        await client.query(`LISTEN ${DATA_KEY_ERASED_CHANNEL}`);
        this.listener = client;
      } catch {
        // Not listening: keys are still read again after ttlMs, and listening is tried again on the next lookup.
        this.listening = null;
      }
    })();
    return this.listening;
  }
}
