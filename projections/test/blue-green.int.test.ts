import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresEventStore } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import {
  GenerationShapeChanged,
  InProcessProjector,
  OutdatedProjection,
  allProjections,
  applyBatch,
  bookingsProjection,
  evolveBooking,
  migrateReadModels,
  projectionNamed,
  readCheckpoints,
  readGenerations,
  readModelDigest,
  rebuildProjection,
  rebuildProjections,
  type Projection,
} from "../src/index.ts";
import { incomplete, readContinuously } from "./generation-reader.ts";
import { expertStream, sessionStream } from "@booking/engine";
import type { Actor } from "@booking/contracts";
import { appendSynthetic, expertScenario, handlersFor } from "./workload.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Blue-green rebuilds: a new generation of each read model is built from the log while the live
// one serves and is projected; one transaction switches readers to it. Versions: a process whose
// rule has another version than the live generation's rebuilds it that way at start.

const dbs: TestDatabase[] = [];
const pools: pg.Pool[] = [];
let storeDb: TestDatabase;
let store: PostgresEventStore;
/** The store's database, for the reader's counts of the log. */
let storeSql: pg.Pool;

async function readModelDatabase(): Promise<pg.Pool> {
  const db = await createTestDatabase(testPostgresUrl(), "bg");
  dbs.push(db);
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  pool.on("error", () => undefined);
  pools.push(pool);
  await migrateReadModels(pool);
  return pool;
}

/** About `events` synthetic events from four writers at once (each its own experts). */
const write = (events: number, from: number) =>
  Promise.all([0, 1, 2, 3].map((w) => appendSynthetic(store, events / 4, from + w * 100_000))).then((n) => n.reduce((a, b) => a + b, 0));

async function caughtUp(pool: pg.Pool, names?: readonly string[]): Promise<void> {
  const head = await store.headPosition();
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const cps = await readCheckpoints(pool, names);
    if (cps.every((c) => c.position && head && c.position.commit === head.commit && c.position.prepare === head.prepare)) return;
  }
  throw new Error("the runner did not reach the head");
}

/** Read models projected up to the log's head by a runner that has stopped. */
async function projectedDatabase(projections: readonly Projection[] = allProjections): Promise<pg.Pool> {
  const pool = await readModelDatabase();
  const runner = new InProcessProjector(store, pool, projections, { batchSize: 1000, idleMs: 5 }).start();
  await caughtUp(pool);
  await runner.stop();
  return pool;
}

async function cleanDigest(projections: readonly Projection[], tables?: string[]) {
  const clean = await readModelDatabase();
  await rebuildProjections(store, clean, projections);
  return readModelDigest(clean, tables);
}

beforeAll(async () => {
  storeDb = await createTestDatabase(testPostgresUrl(), "bgstore");
  store = await PostgresEventStore.connect(storeDb.url);
  storeSql = new pg.Pool({ connectionString: storeDb.url, max: 2 });
  const handlers = handlersFor(store);
  for (let n = 0; n < 3; n++) await expertScenario(store, handlers, n);
  await write(10_000, 1);
}, 300_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await storeSql.end();
  await store.close();
  for (const db of [...dbs, storeDb]) await db.drop();
});

const indexNames = async (pool: pg.Pool, table: string) =>
  (
    await pool.query<{ relname: string }>(
      "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass ORDER BY 1",
      [table],
    )
  ).rows.map((r) => r.relname);
const generationTables = async (pool: pg.Pool) =>
  (
    await pool.query<{ relname: string }>("SELECT relname FROM pg_class WHERE relkind = 'r' AND relname ~ '__g[0-9]+$' ORDER BY 1")
  ).rows.map((r) => r.relname);

describe("a blue-green rebuild of every read model while events flow", () => {
  it("readers only ever see complete generations, the runner's batches land in the new one, and the result equals a clean replay", async () => {
    const pool = await readModelDatabase();
    const runner = new InProcessProjector(store, pool, allProjections, { batchSize: 200, idleMs: 5 }).start();
    await caughtUp(pool);
    const reader = readContinuously(pool, storeSql);
    const writing = write(2000, 500_000);
    const states = new Set<string>();
    const started = performance.now();
    const result = await rebuildProjections(store, pool, allProjections, {
      batchSize: 500,
      onProgress: () =>
        void readGenerations(pool, allProjections).then((g) => g.forEach((x) => states.add(`${x.name} g${x.generation} ${x.state}`))),
    });
    const finished = performance.now();
    await writing;
    await caughtUp(pool);
    const reads = await reader.stop();
    await runner.stop();

    console.log(
      `[blue-green] rebuilt ${result.events} events in ${result.seconds.toFixed(1)} s; ${reads.length} reads, ${reads.filter((r) => r.at > started && r.at < finished).length} during the rebuild`,
    );
    expect(result.events).toBeGreaterThan(10_000);
    expect(states).toContain("bookings g2 building");
    expect(incomplete(reads)).toEqual([]);
    // Reads happened on the old generation during the rebuild and on the new one after the switch.
    expect(reads.filter((r) => r.at > started && r.at < finished && r.generation === 1).length).toBeGreaterThan(20);
    expect(reads.some((r) => r.generation === 2)).toBe(true);
    expect(new Set((await readCheckpoints(pool)).map((c) => `${c.status} g${c.generation}`))).toEqual(new Set(["live g2"]));
    expect(await readModelDigest(pool)).toEqual(await cleanDigest(allProjections));

    // The live table keeps its index names (migrations may name them); the retired one is kept with its own.
    expect(await indexNames(pool, "bookings")).toEqual([
      "bookings_creator",
      "bookings_disputed",
      "bookings_expert",
      "bookings_expert_user",
      "bookings_no_show_open",
      "bookings_pkey",
      "bookings_status",
    ]);
    expect(await indexNames(pool, "bookings__g1")).toEqual([
      "bookings_creator__g1",
      "bookings_disputed__g1",
      "bookings_expert__g1",
      "bookings_expert_user__g1",
      "bookings_no_show_open__g1",
      "bookings_pkey__g1",
      "bookings_status__g1",
    ]);
    expect((await readGenerations(pool, allProjections)).map((g) => `${g.name} g${g.generation} ${g.state}`)).toEqual(
      allProjections.map((p) => `${p.name} g1 retired`).sort(),
    );

    // The next rebuild drops the retired generation and retires the one it replaces.
    await rebuildProjection(store, pool, projectionNamed("bookings")!);
    expect((await generationTables(pool)).filter((t) => t.startsWith("bookings__"))).toEqual(["bookings__g2"]);
    expect((await readCheckpoints(pool, ["bookings"]))[0]).toMatchObject({ generation: 3, status: "live" });
  }, 300_000);
});

describe("migrations and generations", () => {
  it("a migration written against the read model's name applies to the live generation after a switch", async () => {
    const pool = await readModelDatabase();
    await rebuildProjection(store, pool, bookingsProjection);
    await pool.query(
      "ALTER TABLE bookings ADD COLUMN extra int NOT NULL DEFAULT 7; DROP INDEX bookings_status; CREATE INDEX bookings_extra ON bookings (extra)",
    );
    expect(await indexNames(pool, "bookings")).toEqual([
      "bookings_creator",
      "bookings_disputed",
      "bookings_expert",
      "bookings_expert_user",
      "bookings_extra",
      "bookings_no_show_open",
      "bookings_pkey",
    ]);
    // The next generation is made like the live table, so it carries the migration.
    await rebuildProjection(store, pool, bookingsProjection);
    expect((await pool.query("SELECT DISTINCT extra FROM bookings")).rows).toEqual([{ extra: 7 }]);
    expect(await indexNames(pool, "bookings")).toEqual([
      "bookings_creator",
      "bookings_disputed",
      "bookings_expert",
      "bookings_expert_user",
      "bookings_extra",
      "bookings_no_show_open",
      "bookings_pkey",
    ]);
  }, 120_000);

  it("a migration run while a generation is built makes the switch refuse: the live generation stays, the new one is dropped", async () => {
    const pool = await projectedDatabase();
    const before = await readModelDigest(pool, ["bookings"]);
    let migrated = false;
    const rebuilding = rebuildProjection(store, pool, bookingsProjection, {
      batchSize: 1000,
      onProgress: () => {
        if (migrated) return;
        migrated = true;
        void pool.query("ALTER TABLE bookings ADD COLUMN later text");
      },
    });
    await expect(rebuilding).rejects.toBeInstanceOf(GenerationShapeChanged);
    expect(await generationTables(pool)).toEqual([]);
    expect(await readGenerations(pool, [bookingsProjection])).toEqual([]);
    expect((await readCheckpoints(pool, ["bookings"]))[0]!.generation).toBe(1);
    await pool.query("ALTER TABLE bookings DROP COLUMN later");
    expect(await readModelDigest(pool, ["bookings"])).toEqual(before);
  }, 120_000);

  it("a reader holding the live table past the switch's lock timeout makes the switch roll back and try again; it switches once the reader is done", async () => {
    const pool = await projectedDatabase();
    const reader = await pool.connect();
    await reader.query("BEGIN");
    await reader.query("SELECT count(*) FROM bookings");
    const head = await store.countEvents();
    const rebuilding = rebuildProjection(store, pool, bookingsProjection, { switchLockTimeoutMs: 100 });
    // Built up to the head, the switch now waits for the reader, times out and tries again.
    for (let built = 0; built < head; await new Promise((r) => setTimeout(r, 20)))
      built = (await readGenerations(pool, [bookingsProjection]))[0]?.eventsApplied ?? 0;
    await new Promise((r) => setTimeout(r, 400));
    expect((await readCheckpoints(pool, ["bookings"]))[0]!.generation).toBe(1);
    await reader.query("COMMIT");
    reader.release();
    await rebuilding;
    expect((await readCheckpoints(pool, ["bookings"]))[0]!.generation).toBe(2);
    expect(await readModelDigest(pool, ["bookings"])).toEqual(await cleanDigest([bookingsProjection], ["bookings"]));
  }, 120_000);

  it("a rebuild that is stopped drops its generation and leaves the live one as it was", async () => {
    const pool = await projectedDatabase();
    const before = await readModelDigest(pool);
    const stop = new AbortController();
    const rebuilding = rebuildProjections(store, pool, allProjections, {
      batchSize: 500,
      signal: stop.signal,
      onProgress: (p) => p.done >= 2000 && stop.abort(),
    });
    await expect(rebuilding).rejects.toThrow();
    expect(await generationTables(pool)).toEqual([]);
    expect(await readModelDigest(pool)).toEqual(before);
  }, 120_000);
});

describe("the fill: the log folded in memory and written with COPY, indexes after", () => {
  it("writes text with tabs, line breaks, backslashes and quotes, arrays with commas, braces and NULL, and JSON exactly as the runners' batches do", async () => {
    const db = await createTestDatabase(testPostgresUrl(), "bgodd");
    dbs.push(db);
    const odd = await PostgresEventStore.connect(db.url);
    try {
      const strange = 'tab\there, line\nbreak\r\n, back\\slash, "quoted", {braces}, comma,NULL, \\N, ünïcödé 🎉';
      const tags = ["a,b", "{x}", "NULL", "back\\slash", 'quo"te', "tab\tin", "\\N"];
      const expert: Actor = { userId: "ux-odd", role: "expert" };
      const now = "2026-03-02T08:00:00.000Z";
      await odd.append(
        "user-ux-odd",
        [
          {
            type: "UserRegistered",
            data: { userId: "ux-odd", email: "odd@example.com", role: "expert", firstName: strange, lastName: "\\N" },
            metadata: { at: now },
          },
        ],
        "no_stream",
      );
      const h = handlersFor(odd);
      const profile = { firstName: strange, lastName: "NULL", title: strange, bio: strange, tags, profileImage: null };
      expect(
        (
          await h.expert.handle(
            expertStream("ex-odd"),
            { type: "SaveExpertProfile", expertId: "ex-odd", actor: expert, userId: "ux-odd", profile, published: true },
            { now, actor: expert },
          )
        ).ok,
      ).toBe(true);
      const definition = {
        title: strange,
        description: strange,
        priceCents: 5000,
        lengthMinutes: 60 as const,
        prepQuestions: [strange, "NULL", "\\N"],
        sessionDetails: strange,
        idealFor: tags,
      };
      expect(
        (
          await h.session.handle(
            sessionStream("s-odd"),
            { type: "CreateSession", sessionId: "s-odd", expertId: "ex-odd", actor: expert, definition, status: "draft" },
            { now, actor: expert },
          )
        ).ok,
      ).toBe(true);

      const live = await readModelDatabase();
      const runner = new InProcessProjector(odd, live, allProjections, { versions: false });
      while ((await runner.runOnce()) > 0);
      const rebuilt = await readModelDatabase();
      await rebuildProjections(odd, rebuilt, allProjections);

      const { rows } = await rebuilt.query(
        "SELECT e.first_name, e.last_name, e.bio, e.tags, s.prep_questions, s.ideal_for FROM experts e JOIN sessions s USING (expert_id)",
      );
      expect(rows).toEqual([
        { first_name: strange, last_name: "NULL", bio: strange, tags, prep_questions: [strange, "NULL", "\\N"], ideal_for: tags },
      ]);
      expect(await readModelDigest(rebuilt)).toEqual(await readModelDigest(live));
    } finally {
      await odd.close();
    }
  }, 60_000);

  it("a row Postgres refuses fails the rebuild with Postgres's error: its generation is dropped and the live one is as it was", async () => {
    const pool = await projectedDatabase();
    const before = await readModelDigest(pool, ["bookings"]);
    const refused = {
      ...bookingsProjection,
      evolve: (row, e) => {
        const after = evolveBooking(row as Parameters<typeof evolveBooking>[0], e);
        return after && after !== row ? { ...after, length_minutes: "an hour" } : after;
      },
    } as Projection;
    await expect(rebuildProjection(store, pool, refused)).rejects.toThrow(/invalid input syntax for type integer/);
    expect(await generationTables(pool)).toEqual([]);
    expect(await readModelDigest(pool, ["bookings"])).toEqual(before);
  }, 120_000);

  it("a log larger than the fill may hold in memory: it writes what it holds and goes on batch by batch, and the result equals the live runner's", async () => {
    const live = await projectedDatabase();
    const pool = await readModelDatabase();
    const total = await store.countEvents();
    // Halfway through the log, the rows held so far are in the new generation's tables already.
    const halfway: Promise<number>[] = [];
    const result = await rebuildProjections(store, pool, allProjections, {
      batchSize: 500,
      heldRowsLimit: 2000,
      onProgress: (p) => {
        if (halfway.length === 0 && p.done >= total / 2)
          halfway.push(pool.query<{ n: string }>("SELECT count(*) AS n FROM bookings__g2").then((r) => Number(r.rows[0]!.n)));
      },
    });
    expect(result.events).toBe(total);
    expect(await Promise.all(halfway)).toEqual([expect.any(Number)]);
    expect((await halfway[0])!).toBeGreaterThan(0);
    expect(await readModelDigest(pool)).toEqual(await readModelDigest(live));
  }, 120_000);
});

/** The next version of the bookings read model ("version 2" below): a changed rule (titles in capitals). */
const bookingsV2: Projection = {
  ...bookingsProjection,
  version: bookingsProjection.version + 1,
  evolve: (row, e) => {
    const after = evolveBooking(row as Parameters<typeof evolveBooking>[0], e);
    return after && after !== row ? { ...after, session_title: after.session_title.toUpperCase() } : after;
  },
} as Projection;
const withV2 = allProjections.map((p) => (p.name === "bookings" ? bookingsV2 : p));

describe("projection versions", () => {
  it("processes starting with version 2 rebuild bookings once, blue-green: readers see version 1's rows until the switch, then rows equal to a clean replay of version 2", async () => {
    // Version 1 runs and stops (a deploy).
    const pool = await projectedDatabase();

    const titles: { generation: number; rows: number; capitals: number; at: number }[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const { rows } = await pool.query<{ generation: number; n: string; capitals: string }>(
          "SELECT c.generation, (SELECT count(*) FROM bookings) AS n, (SELECT count(*) FROM bookings WHERE session_title = upper(session_title)) AS capitals FROM projection_checkpoints c WHERE c.name = 'bookings'",
        );
        titles.push({
          generation: rows[0]!.generation,
          rows: Number(rows[0]!.n),
          capitals: Number(rows[0]!.capitals),
          at: performance.now(),
        });
      }
    })();

    // Two processes with version 2 start together: one claims the rebuild, the other finds it claimed.
    const rebuilt: string[][] = [];
    const errors: unknown[] = [];
    const options = {
      batchSize: 200,
      idleMs: 5,
      onError: (e: unknown) => errors.push(e),
      versions: { batchSize: 300, retryMs: 50, onRebuilt: (names: readonly string[]) => rebuilt.push([...names]) },
    };
    const a = new InProcessProjector(store, pool, withV2, options).start();
    const b = new InProcessProjector(store, pool, withV2, options).start();
    for (const deadline = Date.now() + 120_000; (await readCheckpoints(pool, ["bookings"]))[0]!.version !== bookingsV2.version;) {
      if (Date.now() > deadline) throw new Error("bookings did not reach version 2");
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 200));
    reading = false;
    await reader;
    await Promise.all([a.stop(), b.stop()]);

    expect(errors).toEqual([]);
    expect(rebuilt).toEqual([["bookings"]]);
    expect((await readCheckpoints(pool, ["bookings"]))[0]).toMatchObject({ generation: 2, version: bookingsV2.version, status: "live" });
    const before = titles.filter((t) => t.generation === 1);
    const after = titles.filter((t) => t.generation === 2);
    console.log(`[versions] ${before.length} reads of version 1, ${after.length} of version 2`);
    expect(before.length).toBeGreaterThan(5);
    expect(after.length).toBeGreaterThan(0);
    // Every read is one generation whole: version 1's titles, then version 2's, never a mixture.
    expect(before.every((t) => t.capitals === 0 && t.rows > 0)).toBe(true);
    expect(after.every((t) => t.capitals === t.rows && t.rows === before[0]!.rows)).toBe(true);
    expect(await readModelDigest(pool)).toEqual(await cleanDigest(withV2));

    // A process still on version 1 leaves the version 2 generation alone; the others it projects.
    const appended = await appendSynthetic(store, 10, 900_000);
    expect(appended).toBeGreaterThan(0);
    const old = new InProcessProjector(store, pool, allProjections, { versions: false });
    while ((await old.runOnce()) > 0);
    const head = await store.headPosition();
    const cps = new Map((await readCheckpoints(pool)).map((c) => [c.name, c.position]));
    expect(cps.get("bookings")).not.toEqual(head);
    expect(cps.get("booking_events")).toEqual(head);
    // From the bus the batch is refused instead (its offsets stay uncommitted, so the newer process gets it).
    const latest = await store.readAll(null, 100_000);
    await expect(applyBatch(pool, allProjections, latest.slice(-5), "bus")).rejects.toBeInstanceOf(OutdatedProjection);
    expect(new Map((await readCheckpoints(pool)).map((c) => [c.name, c.position]))).toEqual(cps);
    const current = new InProcessProjector(store, pool, withV2, { versions: false });
    while ((await current.runOnce()) > 0);
    expect((await readCheckpoints(pool, ["bookings"]))[0]!.position).toEqual(head);
    expect(await readModelDigest(pool)).toEqual(await cleanDigest(withV2));
  }, 300_000);
});
