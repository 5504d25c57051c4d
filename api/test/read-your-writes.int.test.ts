import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { formatPosition } from "@booking/contracts";
import { storedLogOf } from "@booking/event-store";
import { allProjections, applyBatch } from "@booking/projections";
import { waitForReadModels } from "../src/http/read-your-writes.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// Read-your-writes waits on the checkpoints. Concurrent writes must wait on shared reads of them
// (one statement answers every waiter), not each poll on its own: a booking request's statements
// should not grow with how many others are in flight.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  // The read models stand still: the test moves the checkpoints itself.
  await api.stopProjector();
});
afterAll(() => api?.close());

/** Counts the statements the API's pool sends while `work` runs. */
async function statementsDuring<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const db = api.ctx.db as unknown as { query: (...a: unknown[]) => unknown };
  const original = db.query;
  let statements = 0;
  db.query = function (this: unknown, ...a: unknown[]) {
    statements++;
    return original.apply(this, a);
  };
  try {
    return { result: await work(), statements };
  } finally {
    db.query = original;
  }
}

describe("waiting for the read models", () => {
  it("answers 200 concurrent waiters from shared reads of the checkpoints, at most one every 2 ms", async () => {
    // A probe of no product's type, so straight to the log as stored (the sealing store refuses types declared nowhere).
    const appended = await storedLogOf(api.ctx.store).append(
      `read-your-writes-${Date.now()}`,
      [{ type: "ProbeWritten", data: {}, metadata: { at: new Date().toISOString() } }],
      "any",
    );
    const started = Date.now();
    const { result, statements } = await statementsDuring(async () => {
      const waits = Array.from({ length: 200 }, () => waitForReadModels(api.ctx.db, appended, "log", 5_000));
      await new Promise((r) => setTimeout(r, 100));
      // The projector applies the append: every checkpoint reaches its position.
      await api.ctx.db.query("UPDATE projection_checkpoints SET position = $1", [formatPosition(appended.position)]);
      return Promise.all(waits);
    });
    const elapsed = Date.now() - started;
    expect(result).toEqual(Array(200).fill(true));
    // The UPDATE above, and the reads: shared, so no more than one every 2 ms and far fewer than the waiters
    // (each polling alone reads at once, then after 2, 4, 8 ... ms: over 1,000 reads in 100 ms).
    expect(statements - 1).toBeLessThanOrEqual(elapsed / 2 + 2);
    expect(statements).toBeLessThan(100);
  });

  it("answers false once the wait's own time is up, while later waiters keep waiting", async () => {
    // A probe of no product's type, so straight to the log as stored (the sealing store refuses types declared nowhere).
    const appended = await storedLogOf(api.ctx.store).append(
      `read-your-writes-${Date.now()}`,
      [{ type: "ProbeWritten", data: {}, metadata: { at: new Date().toISOString() } }],
      "any",
    );
    const short = waitForReadModels(api.ctx.db, appended, "log", 30);
    const long = waitForReadModels(api.ctx.db, appended, "log", 5_000);
    expect(await short).toBe(false);
    await api.ctx.db.query("UPDATE projection_checkpoints SET position = $1", [formatPosition(appended.position)]);
    expect(await long).toBe(true);
  });

  it("fed from Kafka, waits for the written stream's own version: a later position applied on another partition does not show it", async () => {
    const registered = (userId: string) => [
      {
        type: "UserRegistered",
        data: { userId, email: `${userId}@example.com`, role: "creator", firstName: "Ada", lastName: null },
        metadata: { at: new Date().toISOString() },
      },
    ];
    const [a, b] = [randomUUID(), randomUUID()];
    const first = await api.ctx.store.append(`user-${a}`, registered(a), "no_stream");
    const later = await api.ctx.store.append(`user-${b}`, registered(b), "no_stream");
    // Two partitions: the later write's batch is applied first; every checkpoint now stands past the first write.
    await applyBatch(api.ctx.db, allProjections, later.events, "bus");
    expect(await waitForReadModels(api.ctx.db, first, "log", 30)).toBe(true); // what a checkpoint wrongly says
    expect(await waitForReadModels(api.ctx.db, first, "bus", 100)).toBe(false);
    expect(await waitForReadModels(api.ctx.db, later, "bus", 100)).toBe(true);
    const waiting = waitForReadModels(api.ctx.db, first, "bus", 5_000);
    await applyBatch(api.ctx.db, allProjections, first.events, "bus");
    expect(await waiting).toBe(true);
  });
});
