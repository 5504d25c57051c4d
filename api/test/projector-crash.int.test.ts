import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announceSkip, testDatabases } from "@booking/testkit";
import { PostgresEventStore } from "@booking/event-store";
import { allProjections, migrateReadModels, readModelDigest, rebuildProjections } from "@booking/projections";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { projectorCaughtUp, sleep, startProcess, stopGracefully, waitFor, type Running } from "./processes.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Crash safety: projector processes killed with SIGKILL at random points while 5,000 events flow
// end with read models identical to a clean replay.

const databases = testDatabases(testPostgresUrl(), { poolSize: 4 });
afterAll(() => databases.dropAll());
const database = databases.open;

/** Append ~5,000 events slowly enough that the kills land while they flow. */
async function flow(store: PostgresEventStore, events = 5000): Promise<number> {
  let written = 0;
  for (let n = 0; written < events; n++) {
    written += await appendSynthetic(store, 1, n * 1000 + 7);
    await sleep(4);
  }
  return written;
}

async function cleanReplayDigest(store: PostgresEventStore) {
  const { pool } = await database("clean");
  await migrateReadModels(pool);
  await rebuildProjections(store, pool, allProjections);
  return readModelDigest(pool);
}

async function killRepeatedly(start: () => Running, kills: number, until: Promise<unknown>): Promise<{ running: Running; killed: number }> {
  let running = start();
  let killed = 0;
  let finished = false;
  void until.then(() => (finished = true));
  while (killed < kills) {
    await sleep(200 + Math.random() * 900);
    if (finished && killed >= kills) break;
    running.child.kill("SIGKILL");
    await running.exited;
    killed++;
    running = start();
  }
  return { running, killed };
}

describe("projector killed with SIGKILL while events flow", () => {
  let storeDb: { url: string };
  let store: PostgresEventStore;
  let pool: pg.Pool;
  beforeAll(async () => {
    ({ db: storeDb, pool } = await database("crash"));
    store = await PostgresEventStore.connect(storeDb.url);
    await migrateReadModels(pool);
  });
  afterAll(async () => store.close());

  it("in-process: five kills, five restarts, read models equal a clean replay", async () => {
    const writing = flow(store);
    const { running, killed } = await killRepeatedly(() => startProcess("projector", { DATABASE_URL: storeDb.url }), 5, writing);
    const written = await writing;
    await waitFor("the projector to catch up", () => projectorCaughtUp(pool, store), 120_000);
    expect(await stopGracefully(running, "projector")).toBe(0); // a graceful stop after the last restart
    expect(killed).toBe(5);
    expect(written).toBeGreaterThanOrEqual(5000);
    expect(await readModelDigest(pool)).toEqual(await cleanReplayDigest(store));
  });
});

const brokers = process.env.KAFKA_BROKERS;
if (!brokers) {
  announceSkip(
    "projector and relay crashes through Kafka",
    "KAFKA_BROKERS is not set (`bash scripts/kafka/broker.sh start` runs a broker)",
  );
  describe("projector and relay killed with SIGKILL, through Kafka", () => it.skip("skipped: KAFKA_BROKERS is not set", () => undefined));
} else {
  describe("projector and relay killed with SIGKILL, through Kafka", () => {
    it("five projector kills and three relay kills: read models equal a clean replay", async () => {
      const { db, pool } = await database("kcrash");
      const store = await PostgresEventStore.connect(db.url);
      try {
        await migrateReadModels(pool);
        const env = {
          DATABASE_URL: db.url,
          KAFKA_BROKERS: brokers,
          KAFKA_TOPIC: `crash-${randomUUID()}`,
          PROJECTOR_GROUP: `crash-${randomUUID()}`,
        };
        const writing = flow(store);
        const relays = killRepeatedly(() => startProcess("relay", env), 3, writing);
        const projectors = killRepeatedly(() => startProcess("projector", env), 5, writing);
        const [relay, projector] = await Promise.all([relays, projectors]);
        await writing;
        // Kafka orders events per partition only, so no single position says "caught up":
        // wait for the read models to equal a clean replay (or time out and show the difference).
        const clean = await cleanReplayDigest(store);
        // Each killed consumer's partitions return only after a group rebalance: allow for eight of them on a loaded machine.
        const converging = Date.now();
        await waitFor(
          "the read models to equal a clean replay",
          async () => JSON.stringify(await readModelDigest(pool)) === JSON.stringify(clean),
          240_000,
        ).catch(() => undefined);
        console.log(`[kafka crash] converged ${Date.now() - converging} ms after the last write`);
        const [relayExit, projectorExit] = await Promise.all([
          stopGracefully(relay.running, "relay"),
          stopGracefully(projector.running, "projector"),
        ]);
        const exits = { relay: relayExit, projector: projectorExit };
        if (exits.relay !== 0 || exits.projector !== 0)
          console.log(
            `[kafka crash] exits ${JSON.stringify(exits)}\nrelay: ${relay.running.output().slice(-3000)}\nprojector: ${projector.running.output().slice(-3000)}`,
          );
        expect(exits).toEqual({ relay: 0, projector: 0 });
        expect(relay.killed + projector.killed).toBe(8);
        expect(await readModelDigest(pool)).toEqual(clean);
      } finally {
        await store.close();
      }
    }, 420_000);
  });
}
