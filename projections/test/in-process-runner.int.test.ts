import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comparePositions, type EventLog, type LogPosition, type StoredEvent } from "@booking/contracts";
import { PostgresEventStore } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { InProcessProjector, allProjections, migrateReadModels, readCheckpoints, type RunnerHandle } from "../src/index.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// How the in-process projector follows the log: woken by announced appends where the log makes
// them (a wake that comes while a batch runs is kept), polling where it does not.

let storeDb: TestDatabase;
let store: PostgresEventStore;
const dbs: TestDatabase[] = [];
const pools: pg.Pool[] = [];
const runners: RunnerHandle[] = [];

beforeAll(async () => {
  storeDb = await createTestDatabase(testPostgresUrl(), "store");
  store = await PostgresEventStore.connect(storeDb.url);
});

afterAll(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  await Promise.all(pools.map((p) => p.end()));
  await store.close();
  for (const db of [...dbs, storeDb]) await db.drop();
});

async function readModels(): Promise<pg.Pool> {
  const db = await createTestDatabase(testPostgresUrl(), "rm");
  dbs.push(db);
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on("error", () => undefined);
  pools.push(pool);
  await migrateReadModels(pool);
  return pool;
}

/** The store as a log whose announcements the test makes itself, with a hook after each read. */
class AnnouncingLog implements EventLog {
  private readonly listeners = new Set<(position: LogPosition) => void>();
  afterRead: (() => Promise<void>) | null = null;

  async readAll(after: LogPosition | null, limit: number): Promise<StoredEvent[]> {
    const events = await store.readAll(after, limit);
    const hook = this.afterRead;
    this.afterRead = null;
    await hook?.();
    return events;
  }
  headPosition() {
    return store.headPosition();
  }
  countEvents() {
    return store.countEvents();
  }
  watchAppends(listener: (position: LogPosition) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  announce(position: LogPosition): void {
    for (const l of this.listeners) l(position);
  }
}

/** A log that cannot announce appends. */
const silentLog = (): EventLog => ({
  readAll: (a, l) => store.readAll(a, l),
  headPosition: () => store.headPosition(),
  countEvents: () => store.countEvents(),
});

async function register(): Promise<LogPosition> {
  const userId = `u-${randomUUID().slice(0, 8)}`;
  const { position } = await store.append(
    `user-${userId}`,
    [
      {
        type: "UserRegistered",
        data: { userId, email: `${userId}@example.com`, role: "creator", firstName: null, lastName: null },
        metadata: { at: new Date().toISOString() },
      },
    ],
    "no_stream",
  );
  return position;
}

/** Milliseconds until every read model's checkpoint has reached `position` (fails after `withinMs`). */
async function reached(pool: pg.Pool, position: LogPosition, withinMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const checkpoints = await readCheckpoints(pool);
    if (checkpoints.every((c) => c.position && comparePositions(c.position, position) >= 0)) return performance.now() - started;
    if (performance.now() - started > withinMs)
      throw new Error(`read models did not reach ${position.commit}:${position.prepare} within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe("in-process projector", () => {
  it("is woken by an announced append instead of waiting out its poll", async () => {
    const log = new AnnouncingLog();
    const pool = await readModels();
    const initial = await register();
    runners.push(new InProcessProjector(log, pool, allProjections, { idleMs: 60_000 }).start());
    await reached(pool, initial, 5_000); // the first look finds it without a wake
    const position = await register();
    log.announce(position);
    expect(await reached(pool, position, 5_000)).toBeLessThan(5_000);
  });

  it("applies an append announced while a batch is running without waiting out the poll", async () => {
    const log = new AnnouncingLog();
    const pool = await readModels();
    runners.push(new InProcessProjector(log, pool, allProjections, { idleMs: 60_000 }).start());
    const first = await register();
    log.announce(first);
    await reached(pool, first, 5_000);
    // The next read has already run its query when this append commits and is announced.
    let during: LogPosition | null = null;
    log.afterRead = async () => {
      during = await register();
      log.announce(during);
    };
    const second = await register();
    log.announce(second);
    await reached(pool, second, 5_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(during).not.toBeNull();
    expect(await reached(pool, during!, 5_000)).toBeLessThan(5_000);
  });

  it("looks again soon when an announced append is not readable yet behind an open transaction", async () => {
    const log = new AnnouncingLog();
    const pool = await readModels();
    runners.push(new InProcessProjector(log, pool, allProjections, { idleMs: 60_000 }).start());
    const first = await register();
    log.announce(first);
    await reached(pool, first, 5_000);
    // A transaction that began before the append keeps catch-up readers from seeing it until it ends.
    const older = new pg.Client({ connectionString: storeDb.url });
    await older.connect();
    try {
      await older.query("BEGIN");
      await older.query("SELECT pg_current_xact_id()");
      const position = await register();
      log.announce(position);
      await new Promise((r) => setTimeout(r, 100));
      await older.query("COMMIT");
      expect(await reached(pool, position, 5_000)).toBeLessThan(5_000);
    } finally {
      await older.end();
    }
  });

  it("polls a log that cannot announce appends", async () => {
    const pool = await readModels();
    runners.push(new InProcessProjector(silentLog(), pool, allProjections, { idleMs: 5 }).start());
    expect(await reached(pool, await register(), 5_000)).toBeLessThan(5_000);
  });

  it("follows the Postgres store's own announcements", async () => {
    const pool = await readModels();
    const initial = await register();
    runners.push(new InProcessProjector(store, pool, allProjections, { idleMs: 60_000 }).start());
    await reached(pool, initial, 5_000);
    expect(await reached(pool, await register(), 5_000)).toBeLessThan(5_000);
  });
});
