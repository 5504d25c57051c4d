import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_DATA_KEY_SECRET, announceSkip, testDatabases } from "@booking/testkit";
import {
  KafkaBusPublisher,
  PostgresEventStore,
  PostgresKeyRing,
  PostgresRelayCheckpoints,
  Relay,
  masterKeyFromSecret,
  storedLogOf,
} from "@booking/event-store";
import { InProcessProjector, allProjections, migrateReadModels, readModelDigest, startKafkaProjector } from "@booking/projections";
import { expertScenario, handlersFor } from "../../projections/test/workload.ts";
import { sealedEventStore } from "../src/main/event-store.ts";
import { waitFor } from "./processes.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Events appended through the engine reach every read model through relay, Kafka and consumer,
// and through the in-process runner, with the same result. Personal fields are sealed in the log (issue 33.1): the
// relay publishes them as stored, and the Kafka projector opens them with the data keys, as the in-process runner does.

const brokers = process.env.KAFKA_BROKERS?.split(",");

/** Every message of `topic` from its start, as the bytes a Kafka reader sees (values joined as text). */
async function topicText(brokerList: string[], topic: string): Promise<string> {
  const kafka = new Kafka({ brokers: brokerList, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const total = offsets.reduce((n, o) => n + Number(o.high) - Number(o.low), 0);
  const consumer = kafka.consumer({ groupId: `raw-${randomUUID()}` });
  const values: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await new Promise<void>((done) => {
    void consumer.run({
      eachMessage: async ({ message }) => {
        values.push(message.value?.toString("utf8") ?? "");
        if (values.length >= total) done();
      },
    });
  });
  await consumer.disconnect();
  return values.join("\n");
}
const databases = testDatabases(testPostgresUrl(), { poolSize: 4, prepare: async (pool) => void (await migrateReadModels(pool)) });
afterAll(() => databases.dropAll());
const database = databases.open;

if (!brokers) {
  announceSkip("engine -> relay -> Kafka -> projector", "KAFKA_BROKERS is not set (`bash scripts/kafka/broker.sh start` runs a broker)");
  describe("engine -> relay -> Kafka -> projector", () => it.skip("skipped: KAFKA_BROKERS is not set", () => undefined));
} else {
  describe("engine -> relay -> Kafka -> projector", () => {
    it("builds the same read models as the in-process runner, though a relay died twice between ack and checkpoint", async () => {
      const source = await database("kstore");
      const keys = await PostgresKeyRing.connect(source.pool, masterKeyFromSecret(TEST_DATA_KEY_SECRET));
      const store = sealedEventStore(await PostgresEventStore.connect(source.db.url), keys, null);
      const handlers = handlersFor(store);
      for (let n = 0; n < 6; n++) await expertScenario(store, handlers, n);

      const viaLog = await database("klog");
      const inProcess = new InProcessProjector(store, viaLog.pool, allProjections);
      while ((await inProcess.runOnce()) > 0);

      const viaKafka = await database("kbus");
      const topic = `pipeline-${randomUUID()}`;
      const publisher = await KafkaBusPublisher.connect({ brokers, topic });
      const checkpoints = await PostgresRelayCheckpoints.connect(source.pool);
      // A relay that dies between Kafka's ack and its checkpoint, twice: its batches go out again.
      for (let crash = 0; crash < 2; crash++) {
        const dying = new Relay(
          storedLogOf(store),
          publisher,
          {
            load: (n) => checkpoints.load(n),
            save: async () => {
              throw new Error("killed before the checkpoint");
            },
          },
          { batchSize: 100 },
        );
        await expect(dying.runOnce()).rejects.toThrow("killed before the checkpoint");
      }
      expect(await checkpoints.load("relay")).toBeNull();
      const relay = new Relay(storedLogOf(store), publisher, checkpoints).start();
      const consumer = await startKafkaProjector(viaKafka.pool, allProjections, { brokers, topic, groupId: `g-${topic}`, keys });
      try {
        const expected = await readModelDigest(viaLog.pool);
        expect(expected.bookings!.rows).toBe(24);
        // Kafka orders per partition only: wait until the read models match, or time out and show the difference.
        await waitFor(
          "the Kafka-fed read models to match",
          async () => JSON.stringify(await readModelDigest(viaKafka.pool)) === JSON.stringify(expected),
          120_000,
        ).catch(() => undefined);
        expect(await readModelDigest(viaKafka.pool)).toEqual(expected);
        // The topic itself carries personal fields only as envelopes: read raw, no name, address or text is in clear.
        const published = await topicText(brokers, topic);
        expect(published).toContain('"pd1:');
        for (const trace of ["creator0@example.com", "Clear next steps", "Double-booked myself", "Which brands?", "Nike"]) {
          expect(published, trace).not.toContain(trace);
        }
      } finally {
        await relay.stop();
        await consumer.stop();
        await publisher.close();
        await store.close();
        await keys.close();
      }
    });
  });
}
