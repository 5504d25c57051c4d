import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, watchStatements, type TestDatabase } from "@booking/testkit";
import { comparePositions, formatPosition, type AppendResult, type LogPosition, type NewEvent, type StoredEvent } from "../src/port.ts";
import { PostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import { eventStoreContract } from "./event-store-contract.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

eventStoreContract("postgres", async () => {
  const db = await createTestDatabase(testPostgresUrl(), "es");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 12 });
  return {
    store,
    holdAppendOpen: async (streamId, events) => store.beginAppend(streamId, events, "no_stream"),
    teardown: async () => {
      await store.close();
      await db.drop();
    },
  };
});

type Query = (...args: unknown[]) => Promise<unknown>;

/** Puts `intercept` between `store` and its pool: it sees each statement's name (or its text) and runs it when it likes. */
function interceptQueries(
  store: PostgresEventStore,
  intercept: (statement: string, run: () => Promise<unknown>) => Promise<unknown>,
): void {
  const pool = store.pool as unknown as { query: Query };
  const query = pool.query.bind(pool);
  pool.query = (...args) => {
    const asked = args[0] as string | { name?: string; text?: string };
    return intercept(typeof asked === "string" ? asked : (asked.name ?? asked.text ?? ""), () => query(...args));
  };
}

/** Holds back the reply to `store`'s first batch statement (after its commit) until released. */
function holdFirstBatchReply(store: PostgresEventStore): { held: Promise<void>; release: () => void } {
  let holding!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  interceptQueries(store, async (statement, run) => {
    const result = await run();
    if (first && statement === "append-batch") {
      first = false;
      holding();
      await released;
    }
    return result;
  });
  return { held, release };
}

describe("postgres: followers in the appending process", () => {
  it("a subscriber and a watcher are woken by an append, not by their poll", async () => {
    const db = await createTestDatabase(testPostgresUrl(), "es_wake");
    // A poll far longer than the wait below: only the append's wake can deliver in time.
    const store = await PostgresEventStore.connect(db.url, { poolSize: 4, pollIntervalMs: 60_000 });
    try {
      const seen: string[] = [];
      let watched = 0;
      const unwatch = store.watchAppends(() => void watched++);
      const subscription = store.subscribe({ after: null, onEvents: async (events) => void seen.push(...events.map((e) => e.streamId)) });
      await new Promise((r) => setTimeout(r, 200)); // the subscriber has read the empty log and sleeps
      const metadata = { at: new Date().toISOString() };
      await store.append("wake-1", [{ type: "Probe", data: {}, metadata }], "no_stream");
      await vi.waitFor(() => expect(seen).toEqual(["wake-1"]), { timeout: 5_000 });
      unwatch();
      await store.append("wake-2", [{ type: "Probe", data: {}, metadata }], "no_stream");
      await vi.waitFor(() => expect(seen).toEqual(["wake-1", "wake-2"]), { timeout: 5_000 });
      expect(watched).toBe(1);
      await subscription.stop();
    } finally {
      await store.close();
      await db.drop();
    }
  });

  it("another process hears which streams were written, and a batch too large to name is announced as 'any stream'", async () => {
    const db = await createTestDatabase(testPostgresUrl(), "es_streams");
    const writer = await PostgresEventStore.connect(db.url, { poolSize: 4 });
    const reader = await PostgresEventStore.connect(db.url, { poolSize: 4 });
    const crossing = holdFirstBatchReply(writer);
    try {
      const heard: { position: LogPosition; streams: readonly string[] | undefined }[] = [];
      const unwatch = reader.watchAppends((position, streams) => void heard.push({ position, streams }));
      await new Promise((r) => setTimeout(r, 300)); // listening
      const metadata = { at: new Date().toISOString() };
      const append = (id: string) => writer.append(id, [{ type: "Probe", data: {}, metadata }], "no_stream");
      const one = await append("named-1");
      await vi.waitFor(
        () => expect(heard.find((h) => formatPosition(h.position) === formatPosition(one.position))?.streams).toEqual(["named-1"]),
        { timeout: 5_000 },
      );

      // Up to 4 batches are in flight, and each is announced when its reply comes back: a newer
      // batch can be announced before an older one. Here the older one's reply is held back.
      const early = Array.from({ length: 64 }, (_, i) => `early-${i}`);
      const late = Array.from({ length: 64 }, (_, i) => `late-${i}`);
      const earlyAppends = Promise.all(early.map(append));
      await crossing.held;
      const lateResults = await Promise.all(late.map(append));
      const newest = lateResults.map((r) => r.position).reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b));
      await vi.waitFor(() => expect(heard.some((h) => comparePositions(h.position, newest) >= 0)).toBe(true), { timeout: 5_000 });
      crossing.release();
      const earlyResults = await earlyAppends;
      // So hearing the newest append does not mean every stream was named: each must be, in time.
      const namedInAll = () => new Set(heard.flatMap((h) => h.streams ?? []));
      await vi.waitFor(() => expect([...early, ...late].filter((id) => !namedInAll().has(id))).toEqual([]), { timeout: 5_000 });
      const firstNaming = (id: string) => heard.findIndex((h) => h.streams?.includes(id));
      expect(firstNaming("early-0")).toBeGreaterThan(firstNaming("late-0"));
      expect(comparePositions(earlyResults[0]!.position, newest)).toBeLessThan(0);
      expect(heard.every((h) => h.streams !== undefined)).toBe(true);

      // 64 streams of 150 characters (one batch) do not fit a NOTIFY: their announcement names no stream.
      const long = Array.from({ length: 64 }, (_, i) => `long-${String(i).padStart(2, "0")}-${"x".repeat(142)}`);
      const longResults = await Promise.all(long.map(append));
      const newestLong = longResults.map((r) => r.position).reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b));
      const coversLong = (h: (typeof heard)[number]) => comparePositions(h.position, newestLong) >= 0;
      await vi.waitFor(() => expect(heard.find(coversLong)).toBeDefined(), { timeout: 5_000 });
      expect(heard.find(coversLong)!.streams).toBeUndefined();
      unwatch();
    } finally {
      crossing.release();
      await writer.close();
      await reader.close();
      await db.drop();
    }
  });

  it("an announcement whose NOTIFY fails is sent again, naming its stream, with no later append to carry it", async () => {
    const db = await createTestDatabase(testPostgresUrl(), "es_renotify");
    const writer = await PostgresEventStore.connect(db.url, { poolSize: 4 });
    const reader = await PostgresEventStore.connect(db.url, { poolSize: 4 });
    let failures = 0;
    interceptQueries(writer, (statement, run) =>
      statement.includes("pg_notify") && failures++ === 0 ? Promise.reject(new Error("connection lost")) : run(),
    );
    try {
      const heard: { position: LogPosition; streams: readonly string[] | undefined }[] = [];
      const unwatch = reader.watchAppends((position, streams) => void heard.push({ position, streams }));
      await new Promise((r) => setTimeout(r, 300)); // listening
      const written = await writer.append(
        "renotify-1",
        [{ type: "Probe", data: {}, metadata: { at: new Date().toISOString() } }],
        "no_stream",
      );
      const covering = () => heard.find((h) => comparePositions(h.position, written.position) >= 0);
      await vi.waitFor(() => expect(covering()?.streams).toEqual(["renotify-1"]), { timeout: 5_000 });
      expect(failures).toBeGreaterThan(1);
      unwatch();
    } finally {
      await writer.close();
      await reader.close();
      await db.drop();
    }
  });

  it("another process's subscriber is woken by the append's announcement, not by its poll", async () => {
    const db = await createTestDatabase(testPostgresUrl(), "es_wake2");
    const writer = await PostgresEventStore.connect(db.url, { poolSize: 4 });
    const reader = await PostgresEventStore.connect(db.url, { poolSize: 4, pollIntervalMs: 60_000 });
    try {
      const seen: string[] = [];
      const subscription = reader.subscribe({ after: null, onEvents: async (events) => void seen.push(...events.map((e) => e.streamId)) });
      await new Promise((r) => setTimeout(r, 300)); // listening, and asleep on an empty log
      await writer.append("elsewhere-1", [{ type: "Probe", data: {}, metadata: { at: new Date().toISOString() } }], "no_stream");
      await vi.waitFor(() => expect(seen).toEqual(["elsewhere-1"]), { timeout: 5_000 });
      await subscription.stop();
    } finally {
      await writer.close();
      await reader.close();
      await db.drop();
    }
  });
});

describe("postgres: round trips", () => {
  it("loading a stream is one statement, with or without events after the asked version", async () => {
    const db = await createTestDatabase(testPostgresUrl(), "es_trips");
    const store = await PostgresEventStore.connect(db.url, { poolSize: 2 });
    let statements = 0;
    try {
      const metadata = { at: new Date().toISOString() };
      await store.append(
        "trips-1",
        [
          { type: "Probe", data: {}, metadata },
          { type: "Probe", data: {}, metadata },
        ],
        "no_stream",
      );
      await new Promise((r) => setTimeout(r, 200)); // the append's announcement (a NOTIFY of its own) is sent
      await watchStatements(
        () => statements++,
        async () => {
          expect((await store.readStream("trips-1")).version).toBe(2);
          expect(await store.readStream("trips-1", { afterVersion: 2 })).toEqual({ version: 2, events: [] });
          expect(await store.readStream("trips-none")).toEqual({ version: 0, events: [] });
        },
      );
      expect(statements).toBe(3);
    } finally {
      await store.close();
      await db.drop();
    }
  });
});

describe("postgres: group commit", () => {
  const metadata = { at: new Date(0).toISOString() };
  const probe = (n: number, eventId?: string): NewEvent => ({ eventId, type: "Probe", data: { n }, metadata });
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase(testPostgresUrl(), "es_group");
    store = await PostgresEventStore.connect(db.url, { poolSize: 8 });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it("appends issued together share one commit; a stream whose expectation fails is refused alone", async () => {
    await store.append("g-taken", [probe(0)], "no_stream");
    const [a, refused, c, d] = await Promise.allSettled([
      store.append("g-a", [probe(1)], "no_stream"),
      store.append("g-taken", [probe(2)], 5),
      store.append("g-c", [probe(3), probe(4)], "no_stream"),
      store.append("g-taken-too", [probe(5)], "stream_exists"),
    ]);
    expect(a.status === "fulfilled" && c.status === "fulfilled").toBe(true);
    const [first, second] = [a, c].map((r) => (r as PromiseFulfilledResult<AppendResult>).value);
    expect(first!.position.commit).toBe(second!.position.commit);
    expect(second!.events.map((e) => e.version)).toEqual([1, 2]);
    expect(refused).toMatchObject({ status: "rejected", reason: { name: "WrongExpectedVersion", streamId: "g-taken", actual: 1 } });
    expect(d).toMatchObject({ status: "rejected", reason: { name: "WrongExpectedVersion", streamId: "g-taken-too", actual: null } });
    expect((await store.readStream("g-taken")).version).toBe(1);
    expect((await store.readStream("g-c")).events.map((e) => e.data)).toEqual([{ n: 3 }, { n: 4 }]);
  });

  it("appends to one stream issued together are decided in the order they were issued", async () => {
    await store.append("g-same", [probe(0)], "no_stream");
    const results = await Promise.all([
      store.append("g-same", [probe(1)], 1),
      store.append("g-same", [probe(2)], 2),
      store.append("g-same", [probe(3)], "any"),
      store.append("g-other", [probe(4)], "no_stream"),
    ]);
    expect(results.map((r) => r.nextVersion)).toEqual([2, 3, 4, 1]);
    // The first goes with the other stream's append; each later one waits for the next commit.
    expect(results[0]!.position.commit).toBe(results[3]!.position.commit);
    expect(new Set(results.slice(0, 3).map((r) => r.position.commit)).size).toBe(3);
    expect((await store.readStream("g-same")).events.map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
    const race = await Promise.allSettled([store.append("g-same", [probe(5)], 4), store.append("g-same", [probe(6)], 4)]);
    expect(race.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
  });

  it("a batch's written appends succeed and are announced even if reading a refused stream's version then fails", async () => {
    const own = await PostgresEventStore.connect(db.url, { poolSize: 4 });
    try {
      await own.append("g-heads-taken", [probe(0)], "no_stream");
      interceptQueries(own, (statement, run) =>
        statement.includes("FROM streams WHERE stream_id = ANY") ? Promise.reject(new Error("connection lost")) : run(),
      );
      const announced: string[] = [];
      const unwatch = own.watchAppends((_position, streams) => void announced.push(...(streams ?? [])));
      const [written, refused] = await Promise.allSettled([
        own.append("g-heads-new", [probe(1)], "no_stream"),
        own.append("g-heads-taken", [probe(2)], 5),
      ]);
      unwatch();
      expect(written).toMatchObject({ status: "fulfilled", value: { nextVersion: 1 } });
      expect(announced).toContain("g-heads-new");
      expect(refused).toMatchObject({ status: "rejected", reason: { message: "connection lost" } });
      expect((await own.readStream("g-heads-new")).version).toBe(1);
    } finally {
      await own.close();
    }
  });

  it("a duplicate event id fails only its own append", async () => {
    const taken = randomUUID();
    await store.append("g-dup-first", [probe(0, taken)], "no_stream");
    const [before, dup, after] = await Promise.allSettled([
      store.append("g-dup-before", [probe(1)], "no_stream"),
      store.append("g-dup", [probe(2), probe(3, taken)], "no_stream"),
      store.append("g-dup-after", [probe(4)], "no_stream"),
    ]);
    expect(before.status).toBe("fulfilled");
    expect(after.status).toBe("fulfilled");
    expect(dup).toMatchObject({ status: "rejected", reason: { code: "23505" } });
    expect(await store.readStream("g-dup")).toEqual({ version: 0, events: [] });
  });

  it("a catch-up reader sees batched appends once each, at the positions the appends returned, each stream in version order", async () => {
    const before = await store.headPosition();
    const returned = new Map<string, LogPosition>();
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 150; i++) {
          const r = await store.append(`g-load-${(w * 7 + i) % 20}`, [probe(i), probe(i + 1)], "any");
          for (const e of r.events) returned.set(e.eventId, e.position);
        }
      }),
    );
    const all: StoredEvent[] = [];
    // A transaction open anywhere on the server (another database's CREATE or DROP too) holds
    // catch-up reads, and so the head read before, back for a while; never for good.
    await vi.waitFor(
      async () => {
        for (
          let batch = await store.readAll(all.at(-1)?.position ?? before, 97);
          batch.length;
          batch = await store.readAll(all.at(-1)!.position, 97)
        )
          all.push(...batch);
        expect(all.filter((e) => e.streamId.startsWith("g-load-"))).toHaveLength(2400);
      },
      { timeout: 30_000, interval: 100 },
    );
    const read = all.filter((e) => e.streamId.startsWith("g-load-"));
    expect(new Set(read.map((e) => e.eventId)).size).toBe(2400);
    for (const e of read) expect(formatPosition(returned.get(e.eventId)!)).toBe(formatPosition(e.position));
    const versions = new Map<string, number[]>();
    for (const e of read) versions.set(e.streamId, [...(versions.get(e.streamId) ?? []), e.version]);
    for (const v of versions.values()) expect(v).toEqual(v.map((_, i) => i + 1));
    // Fewer commits than appends: the appends were grouped.
    expect(new Set(read.map((e) => e.position.commit)).size).toBeLessThan(1200);
  });
});
