import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PostgresKeyRing, SealedEventStore, storedLogOf, type PostgresEventStore } from "@booking/event-store";
import { TEST_DATA_KEY_SECRET, createTestDatabase, freePort } from "@booking/testkit";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";
import { apiConfig } from "../src/main/config.ts";
import { runApi } from "../src/main/server.ts";

// The API process as `npm start` and the api process build it (runApi, issue 33.1): the context's store seals and
// opens, its data keys are the Postgres key ring, and its snapshots can forget a person. The test API (harness.ts) is
// composed apart; personal-data-in-log.int.test.ts walks a booking through it.

const run = randomUUID().slice(0, 8);

describe("the API process (runApi, as `npm start` and the api process run it)", () => {
  it("reads and writes the log through the sealing store, its data keys and sealed snapshots on the context", async () => {
    const database = await createTestDatabase(testPostgresUrl(), "api_sealed");
    const env = {
      DATABASE_URL: database.url,
      JWT_SECRET: "j".repeat(40),
      DATA_KEY_SECRET: TEST_DATA_KEY_SECRET,
      PORT: String(await freePort()),
    };
    const running = await runApi(apiConfig.parse({ ...env, HOST: "127.0.0.1", PAYOUTS_WEEKDAY: "none" }));
    try {
      expect(running.ctx.store).toBeInstanceOf(SealedEventStore);
      expect(running.ctx.dataKeys).toBeInstanceOf(PostgresKeyRing);
      const userId = randomUUID();
      const data = { userId, email: `runapi-${run}@example.com`, role: "creator", firstName: `Ysolde${run}`, lastName: "Test" };
      await running.ctx.store.append(
        `user-${userId}`,
        [{ type: "UserRegistered", data, metadata: { at: new Date().toISOString() } }],
        "no_stream",
      );
      const stored = storedLogOf(running.ctx.store) as PostgresEventStore;
      const { rows } = await stored.pool.query<{ t: string }>("SELECT data::text AS t FROM events WHERE stream_id = $1", [
        `user-${userId}`,
      ]);
      expect(rows[0]!.t).not.toContain(`Ysolde${run}`);
      expect((await running.ctx.store.readStream(`user-${userId}`)).events[0]!.data).toMatchObject({ firstName: `Ysolde${run}` });
      expect(await running.ctx.snapshots.forgetMentioning(userId)).toBe(0);
    } finally {
      await running.stop();
      await database.drop();
    }
  });
});
