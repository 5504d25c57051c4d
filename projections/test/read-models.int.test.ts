import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { PostgresEventStore } from "@booking/event-store";
import {
  InProcessProjector,
  allProjections,
  applyBatch,
  projectionNamed,
  readCheckpoints,
  readGenerations,
  readModelDigest,
  rebuildProjection,
  rebuildProjections,
  migrateReadModels,
} from "../src/index.ts";
import { appendSynthetic, expertScenario, handlersFor } from "./workload.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

let storeDb: TestDatabase;
let store: PostgresEventStore;
const extraDbs: TestDatabase[] = [];
const pools: pg.Pool[] = [];

async function readModelDatabase(): Promise<pg.Pool> {
  const db = await createTestDatabase(testPostgresUrl(), "rm");
  extraDbs.push(db);
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on("error", () => undefined);
  pools.push(pool);
  await migrateReadModels(pool);
  return pool;
}

async function catchUp(projector: InProcessProjector): Promise<void> {
  while ((await projector.runOnce()) > 0);
}

async function everything() {
  const all = [];
  let after = null;
  for (;;) {
    const batch = await store.readAll(after, 1000);
    if (!batch.length) return all;
    all.push(...batch);
    after = batch[batch.length - 1]!.position;
  }
}

let live: pg.Pool;

beforeAll(async () => {
  storeDb = await createTestDatabase(testPostgresUrl(), "store");
  store = await PostgresEventStore.connect(storeDb.url);
  const handlers = handlersFor(store);
  for (let n = 0; n < 5; n++) await expertScenario(store, handlers, n);
  live = await readModelDatabase();
  await catchUp(new InProcessProjector(store, live, allProjections));
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await store.close();
  for (const db of [...extraDbs, storeDb]) await db.drop();
});

describe("read models after a real scenario", () => {
  const booking = async (id: string) => (await live.query("SELECT * FROM bookings WHERE booking_id = $1", [id])).rows[0];

  it("a completed booking: paid once although the webhook came twice, prep answers and notes kept", async () => {
    const b = await booking("b-0-1");
    expect(b).toMatchObject({
      status: "completed",
      payment_state: "paid",
      paid_cents: "15000",
      refund_due_cents: "0",
      prep_answers: ["Grow", "10k", "Time"],
    });
    expect(b.notes).toMatchObject({ summary: "Strong start", takeaways: ["Lead with numbers"] });
  });

  it("a booking that asked for more info and moved to a new time", async () => {
    const b = await booking("b-0-2");
    expect(b).toMatchObject({ status: "confirmed", info_request_note: "Which brands?", prep_answers: ["Nike", "Adidas", "Puma"] });
    expect(b.scheduled_time.toISOString()).toBe("2026-03-05T14:00:00.000Z");
    expect(b.previous_time.toISOString()).toBe("2026-03-04T10:00:00.000Z");
  });

  it("cancelled bookings: a paid one owes a refund, an expired hold owes nothing", async () => {
    expect(await booking("b-0-3")).toMatchObject({
      status: "cancelled",
      cancelled_by: "creator",
      payment_state: "refund_due",
      refund_due_cents: "15000",
    });
    expect(await booking("b-0-4")).toMatchObject({
      status: "cancelled",
      cancelled_by: "system",
      cancel_reason: "payment_timeout",
      payment_state: "unpaid",
    });
  });

  it("the booking's event history, in stream order, with who did what", async () => {
    const { rows } = await live.query("SELECT type, actor FROM booking_events WHERE booking_id = 'b-0-2' ORDER BY stream_version");
    expect(rows.map((r) => r.type)).toEqual([
      "BookingRequested",
      "PaymentSucceeded",
      "InfoRequested",
      "PrepSubmitted",
      "TimeProposed",
      "Confirmed",
    ]);
    expect(rows[2].actor).toEqual({ userId: "ux-0", role: "expert" });
  });

  it("experts, sessions, schedules, users, terms acceptances and earnings", async () => {
    const expert = (await live.query("SELECT * FROM experts WHERE expert_id = 'ex-0'")).rows[0];
    expect(expert).toMatchObject({ published: true, verified: true, vetted_by: "admin-1", first_name: "Ex0", tags: ["brand", "growth"] });
    expect(expert.slug).toMatch(/^ex0-pert-/);
    const sessions = (
      await live.query("SELECT session_id, status, deleted, price_cents FROM sessions WHERE expert_id = 'ex-0' ORDER BY session_id")
    ).rows;
    expect(sessions).toEqual([
      { session_id: "s-0", status: "published", deleted: false, price_cents: "15000" },
      { session_id: "s-0-draft", status: "draft", deleted: true, price_cents: "15000" },
    ]);
    expect((await live.query("SELECT timezone, jsonb_array_length(slots) AS n FROM schedules WHERE expert_id = 'ex-0'")).rows[0]).toEqual({
      timezone: "Europe/London",
      n: 5,
    });
    expect((await live.query("SELECT count(*)::int AS n FROM users")).rows[0].n).toBe(10);
    expect((await live.query("SELECT version_id FROM terms_acceptances WHERE user_id = 'c-0'")).rows).toEqual([{ version_id: "2025-01" }]);
    expect(
      (
        await live.query(
          "SELECT sum(payments_count)::int AS payments, sum(paid_cents)::int AS paid, sum(refunded_cents)::int AS refunded FROM earnings WHERE expert_id = 'ex-0'",
        )
      ).rows,
    ).toEqual([{ payments: 3, paid: 45000, refunded: 15000 }]);
  });

  it("every projection's checkpoint is at the head of the log", async () => {
    const head = await store.headPosition();
    for (const c of await readCheckpoints(live)) expect(c.position, c.name).toEqual(head);
  });
});

describe("the read models' rules", () => {
  it("every projection writes every column of its table", async () => {
    for (const p of allProjections) {
      const { rows } = await live.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
        [p.table],
      );
      expect([...p.columns].sort(), p.name).toEqual(rows.map((r) => r.column_name).sort());
    }
  });
});

describe("exactly-once effect", () => {
  it("a rebuild from the event log gives the same read models as the live runner", async () => {
    const rebuilt = await readModelDatabase();
    await rebuildProjections(store, rebuilt, allProjections);
    expect(await readModelDigest(rebuilt)).toEqual(await readModelDigest(live));
  });

  it("delivering every event three times leaves every read model identical", async () => {
    const events = await everything();
    const tripled = await readModelDatabase();
    // As Kafka could: each event redelivered at once, then the whole log again, twice.
    for (let i = 0; i < events.length; i += 50) {
      const chunk = events.slice(i, i + 50);
      await applyBatch(
        tripled,
        allProjections,
        chunk.flatMap((e) => [e, e]),
        "bus",
      );
    }
    await applyBatch(tripled, allProjections, events, "bus");
    expect(await readModelDigest(tripled)).toEqual(await readModelDigest(live));
  });

  it("a batch writes what its events would one at a time: batches of 1 and of 500 give identical read models", async () => {
    const oneByOne = await readModelDatabase();
    await catchUp(new InProcessProjector(store, oneByOne, allProjections, { batchSize: 1 }));
    const batched = await readModelDatabase();
    await catchUp(new InProcessProjector(store, batched, allProjections, { batchSize: 500 }));
    expect(await readModelDigest(batched)).toEqual(await readModelDigest(oneByOne));
    // The same through the bus: one event per batch, then everything redelivered as one batch.
    const bus = await readModelDatabase();
    const events = await everything();
    for (const e of events) await applyBatch(bus, allProjections, [e], "bus");
    await applyBatch(bus, allProjections, events, "bus");
    expect(await readModelDigest(bus)).toEqual(await readModelDigest(oneByOne));
  });

  it("an older event arriving after a newer one changes nothing", async () => {
    const events = (await everything()).filter((e) => e.streamId === "calendar-ex-1");
    const reordered = await readModelDatabase();
    await applyBatch(reordered, allProjections, events, "bus");
    const before = await readModelDigest(reordered);
    await applyBatch(reordered, allProjections, [...events].reverse(), "bus");
    expect(await readModelDigest(reordered)).toEqual(before);
  });
});

describe("rebuilding while events flow", () => {
  it("the live runner keeps projecting the live generation while a new one is built, and continues on the new one with nothing lost or doubled", async () => {
    const pool = await readModelDatabase();
    const projector = new InProcessProjector(store, pool, allProjections, { batchSize: 200, idleMs: 5 });
    const running = projector.start();
    const writing = appendSynthetic(store, 3000, 10_000);
    const bookings = projectionNamed("bookings")!;
    const seen: string[] = [];
    const look = () =>
      void Promise.all([readCheckpoints(pool, ["bookings"]), readGenerations(pool, [bookings])]).then(([[c], g]) =>
        seen.push(`${c!.status} g${c!.generation}${g.map((x) => ` g${x.generation} ${x.state}`).join("")}`),
      );
    await rebuildProjection(store, pool, bookings, { batchSize: 300, onProgress: look });
    await writing;
    // Let the runner reach the head, then compare with a clean rebuild of everything.
    const head = await store.headPosition();
    for (let i = 0; i < 400; i++) {
      const cps = await readCheckpoints(pool);
      if (cps.every((c) => c.position && head && c.position.commit === head.commit && c.position.prepare === head.prepare)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await running.stop();
    expect(seen).toContain("live g1 g2 building");
    expect((await readCheckpoints(pool, ["bookings"]))[0]).toMatchObject({ status: "live", generation: 2 });
    const clean = await readModelDatabase();
    await rebuildProjections(store, clean, allProjections);
    expect(await readModelDigest(pool)).toEqual(await readModelDigest(clean));
  });
});
