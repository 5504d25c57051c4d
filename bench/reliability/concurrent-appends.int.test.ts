import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresEventStore, type LogPosition, type StoredEvent, type Subscription } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { elapsed, printFigure } from "./figure.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// 10,000 concurrent appends while catch-up readers follow the log from the start. One append in
// five holds its transaction open for up to 40 ms before committing, so commits land out of
// global-position order: a reader that trusted positions alone would skip those events for good.

const APPENDS = 10_000;
const STREAMS = 500;

let db: TestDatabase;
const writers: PostgresEventStore[] = [];
let reader: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "rel_appends");
  for (let i = 0; i < 4; i++) writers.push(await PostgresEventStore.connect(db.url, { poolSize: 10, pollIntervalMs: 20 }));
  reader = await PostgresEventStore.connect(db.url, { poolSize: 6, pollIntervalMs: 20 });
});
afterAll(async () => {
  await reader?.close();
  await Promise.all(writers.map((w) => w.close()));
  await db?.drop();
});

type Seen = { events: StoredEvent[] };

/** A reader of its own: readAll in a loop from the start, as the relay and projector read. */
function pollingReader(store: PostgresEventStore, batch: number, until: () => boolean): { seen: Seen; done: Promise<void> } {
  const seen: Seen = { events: [] };
  const done = (async () => {
    let after: LogPosition | null = null;
    while (!until()) {
      const events = await store.readAll(after, batch);
      if (events.length) {
        seen.events.push(...events);
        after = events[events.length - 1]!.position;
      } else await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return { seen, done };
}

describe("catch-up readers during 10,000 concurrent appends", () => {
  it("no reader skips or repeats an event, and each stream arrives in version order", async () => {
    const expected = new Set<string>();
    let appended = 0;
    // Readers: three subscriptions with different batch sizes, and a bare readAll loop.
    const subscribed: Record<string, Seen> = {};
    const subscriptions: Subscription[] = [];
    for (const batchSize of [7, 100, 500]) {
      const seen: Seen = { events: [] };
      subscribed[`subscribe, batch ${batchSize}`] = seen;
      subscriptions.push(reader.subscribe({ after: null, batchSize, onEvents: async (events) => void seen.events.push(...events) }));
    }
    let finished = false;
    const polling = pollingReader(reader, 250, () => finished && polled() >= APPENDS);
    const polled = () => polling.seen.events.length;
    const readers: Record<string, Seen> = { ...subscribed, "readAll loop, batch 250": polling.seen };

    const t0 = performance.now();
    let held = 0;
    await Promise.all(
      Array.from({ length: APPENDS }, async (_, i) => {
        const store = writers[i % writers.length]!;
        const eventId = randomUUID();
        expected.add(eventId);
        const stream = `race-${i % STREAMS}`;
        const events = [
          {
            eventId,
            type: "UserRenamed",
            data: { userId: `u${i}`, firstName: "A", lastName: `${i}` },
            metadata: { at: new Date().toISOString() },
          },
        ];
        if (i % 5 === 0) {
          const pending = await store.beginAppend(stream, events, "any");
          held++;
          await new Promise((r) => setTimeout(r, Math.random() * 40));
          await pending.commit();
        } else await store.append(stream, events, "any");
        appended++;
      }),
    );
    const appendTime = elapsed(t0);
    const deadline = Date.now() + 120_000;
    const total = () => Math.min(...Object.values(readers).map((s) => s.events.length));
    while (total() < APPENDS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300)); // anything extra (a repeat) would arrive now
    finished = true;
    await Promise.all(subscriptions.map((s) => s.stop()));
    await polling.done;

    const report: Record<
      string,
      { seen: number; skipped: number; repeated: number; outOfStreamOrder: number; deliveredOutOfPositionOrder: number }
    > = {};
    for (const [name, seen] of Object.entries(readers)) {
      const ids = seen.events.map((e) => e.eventId);
      const unique = new Set(ids);
      const lastVersion = new Map<string, number>();
      let outOfStreamOrder = 0;
      let outOfPositionOrder = 0;
      let maxPrepare = 0n;
      for (const e of seen.events) {
        if ((lastVersion.get(e.streamId) ?? 0) >= e.version) outOfStreamOrder++;
        lastVersion.set(e.streamId, e.version);
        if (e.position.prepare < maxPrepare) outOfPositionOrder++;
        if (e.position.prepare > maxPrepare) maxPrepare = e.position.prepare;
      }
      report[name] = {
        seen: ids.length,
        skipped: [...expected].filter((id) => !unique.has(id)).length,
        repeated: ids.length - unique.size,
        outOfStreamOrder,
        deliveredOutOfPositionOrder: outOfPositionOrder,
      };
    }
    printFigure("10,000 concurrent appends, catch-up readers", {
      appended,
      "appends holding their transaction open before commit": held,
      "append time": appendTime,
      readers: report,
      legend:
        "deliveredOutOfPositionOrder: events read after one with a higher global position (their commit landed out of order, and they were still read)",
    });
    expect(appended).toBe(APPENDS);
    for (const r of Object.values(report)) expect(r).toMatchObject({ seen: APPENDS, skipped: 0, repeated: 0, outOfStreamOrder: 0 });
  });
});
