import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { encodeBusMessage } from "@booking/event-store";
import { KafkaBusPublisher, PostgresEventStore, PostgresRelayCheckpoints, Relay, type StoredEvent } from "@booking/event-store";
import {
  allProjections,
  migrateReadModels,
  readCheckpoints,
  readModelDigest,
  rebuildProjections,
  startKafkaProjector,
} from "@booking/projections";
import { announceSkip, testDatabases } from "@booking/testkit";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { sleep, waitFor } from "../../api/test/processes.ts";
import { elapsed, printFigure } from "./figure.ts";
import { brokerControl } from "./kafka-broker.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Through Kafka (the relay and the Kafka projector, in this process): the broker is restarted
// with scripts/kafka/broker.sh in the middle of a steady load, and nothing may be lost; and a
// load past 1 MB per partition must reach the read models in full.

const databases = testDatabases(testPostgresUrl(), { poolSize: 6, prepare: async (pool) => void (await migrateReadModels(pool)) });
afterAll(() => databases.dropAll());
const database = databases.open;

async function cleanReplay(store: PostgresEventStore) {
  const clean = await database("rel_kafka_clean");
  await rebuildProjections(store, clean.pool, allProjections);
  return readModelDigest(clean.pool);
}

/** Relay and Kafka projector on a fresh topic, with their complaints collected. */
async function pipeline(store: PostgresEventStore, pool: pg.Pool, brokers: string[]) {
  const topic = `reliability-${randomUUID()}`;
  const complaints: string[] = [];
  const publisher = await KafkaBusPublisher.connect({ brokers, topic });
  const relay = new Relay(store, publisher, await PostgresRelayCheckpoints.connect(pool), {
    warn: (l) => complaints.push(`relay: ${l}`),
  }).start();
  const projector = await startKafkaProjector(pool, allProjections, {
    brokers,
    topic,
    groupId: `g-${topic}`,
    onError: (e) => complaints.push(`projector: ${(e as Error).message}`),
  });
  return {
    complaints,
    stop: async () => {
      await relay.stop();
      await projector.stop();
      await publisher.close();
    },
  };
}

const sameAs = (clean: Record<string, unknown>, pool: pg.Pool) => async () =>
  JSON.stringify(await readModelDigest(pool)) === JSON.stringify(clean);
const handed = async (pool: pg.Pool) => Math.max(...(await readCheckpoints(pool)).map((c) => c.eventsApplied));

const control = await brokerControl();
const brokers =
  process.env.KAFKA_BROKERS?.split(",")
    .map((b) => b.trim())
    .filter(Boolean) ?? [];

describe("Kafka broker restarted during a steady load", () => {
  if ("skip" in control) {
    announceSkip("reliability: Kafka broker restarted during a steady load", control.skip);
    it.skip(`skipped: ${control.skip}`, () => undefined);
    return;
  }
  it("the broker restarts mid-load (scripts/kafka/broker.sh restart): nothing is lost, the read models equal a clean replay", async () => {
    const t0 = performance.now();
    const { db, pool } = await database("rel_kafka_restart");
    const store = await PostgresEventStore.connect(db.url);
    const flow = await pipeline(store, pool, control.brokers);
    try {
      // About 100 events a second (one synthetic history, ~19 events, every 190 ms).
      const state: { phase: "before" | "during" | "after" | "done" } = { phase: "before" };
      const written = { before: 0, during: 0, after: 0 };
      const load = (async () => {
        for (let n = 0; state.phase !== "done"; n++) {
          const p = state.phase;
          written[p] += await appendSynthetic(store, 1, 20_000_000 + n);
          await sleep(190);
        }
      })();
      await sleep(5000);
      state.phase = "during";
      const restart = await control.restart();
      state.phase = "after";
      await sleep(5000);
      state.phase = "done";
      await load;
      const converge = performance.now();
      const clean = await cleanReplay(store);
      await waitFor("the Kafka-fed read models to equal a clean replay", sameAs(clean, pool), 240_000).catch(() => undefined);
      const live = await readModelDigest(pool);
      const total = written.before + written.during + written.after;
      printFigure("Kafka broker restarted during a steady load", {
        "events appended (before / during / after the restart)": `${total} (${written.before} / ${written.during} / ${written.after})`,
        "broker restart (stop + start, scripts/kafka/broker.sh)": `${restart.seconds} s, pid ${/stopping broker \(pid (\d+)/.exec(restart.output)?.[1] ?? "?"} -> ${/started broker pid (\d+)/.exec(restart.output)?.[1] ?? "?"}`,
        "read models equal a clean replay": JSON.stringify(live) === JSON.stringify(clean),
        "time to converge after the load stopped": elapsed(converge),
        "events handed to the projections (redeliveries included)": await handed(pool),
        "relay/projector complaints while the broker was away": flow.complaints.length,
        "first complaint": flow.complaints[0] ?? "none",
        time: elapsed(t0),
      });
      expect(live).toEqual(clean);
      expect(live.booking_events!.rows).toBeGreaterThan(0);
    } finally {
      await flow.stop();
      await store.close();
    }
  });
});

describe("Kafka pipeline past 1 MB per partition", () => {
  if (!brokers.length) {
    announceSkip("reliability: Kafka pipeline past 1 MB per partition", "KAFKA_BROKERS is not set");
    it.skip("skipped: KAFKA_BROKERS is not set", () => undefined);
    return;
  }
  it("20,000 events (more than kafkajs's 1 MB fetch per partition): every one reaches the read models", async () => {
    const t0 = performance.now();
    const { db, pool } = await database("rel_kafka_volume");
    const store = await PostgresEventStore.connect(db.url);
    try {
      const appended = await appendSynthetic(store, 20_000, 30_000_000);
      let bytes = 0;
      for (let after: StoredEvent["position"] | null = null; ;) {
        const batch = await store.readAll(after, 5000);
        if (!batch.length) break;
        for (const e of batch) bytes += Buffer.byteLength(encodeBusMessage(e));
        after = batch[batch.length - 1]!.position;
      }
      const clean = await cleanReplay(store);
      const flow = await pipeline(store, pool, brokers);
      try {
        const converged = await waitFor("the Kafka-fed read models to equal a clean replay", sameAs(clean, pool), 60_000).then(
          () => true,
          () => false,
        );
        const live = await readModelDigest(pool);
        printFigure("Kafka pipeline past 1 MB per partition", {
          "events appended": appended,
          "bus bytes per partition (6 partitions)": `${(bytes / 6 / 1024 / 1024).toFixed(2)} MB`,
          "read models equal a clean replay": converged,
          "booking_events rows (live / clean replay)": `${live.booking_events?.rows} / ${clean.booking_events?.rows}`,
          "events handed to the projections": `${await handed(pool)} for ${appended} appended`,
          time: elapsed(t0),
        });
        expect(live).toEqual(clean);
      } finally {
        await flow.stop();
      }
    } finally {
      await store.close();
    }
  });
});
