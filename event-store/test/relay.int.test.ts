import { randomBytes, randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { LogPosition, StoredEvent } from "@booking/contracts";
import { announceSkip, createTestDatabase } from "@booking/testkit";
import { PostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import type { NewEvent } from "../src/port.ts";
import type { BusPublisher } from "../src/relay/bus.ts";
import { decodeBusMessage } from "../src/relay/bus-message.ts";
import { KafkaBusPublisher } from "../src/relay/kafka-publisher.ts";
import { PostgresRelayCheckpoints } from "../src/relay/relay-checkpoints.ts";
import { Relay, type RelayCheckpoints } from "../src/relay/relay.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

const at = new Date(0).toISOString();
const event = (n: number): NewEvent => ({
  type: n % 2 ? "BookingRequested" : "BookingConfirmed",
  data: { bookingId: `b${n}`, n },
  metadata: { at },
});

type Log = { store: PostgresEventStore; checkpoints: PostgresRelayCheckpoints };

/** A fresh database per test: "everything in the log" is then exactly what the test wrote. */
async function freshLog(): Promise<Log> {
  const db = await createTestDatabase(testPostgresUrl(), "relay");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 4 });
  const checkpoints = await PostgresRelayCheckpoints.connect(store.pool);
  onTestFinished(async () => {
    await store.close();
    await db.drop();
  });
  return { store, checkpoints };
}

/** Append `count` events to each stream, a few at a time, streams interleaved (some concurrently). */
async function appendInterleaved(store: PostgresEventStore, streams: string[], count: number): Promise<void> {
  let n = 0;
  for (let written = 0; written < count;) {
    const size = Math.min(1 + (written % 3), count - written);
    await Promise.all(
      streams.map((s) =>
        store.append(
          s,
          Array.from({ length: size }, () => event(n++)),
          "any",
        ),
      ),
    );
    written += size;
  }
}

async function everything(store: PostgresEventStore): Promise<StoredEvent[]> {
  return store.readAll(null, 10_000);
}

async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const samePosition = (a: LogPosition | null, b: LogPosition | null | undefined) =>
  a !== null && !!b && a.commit === b.commit && a.prepare === b.prepare;

/** Keeps what it is given; `failing` makes it refuse like a bus that is down. */
class RecordingPublisher implements BusPublisher {
  readonly published: StoredEvent[] = [];
  failing = false;
  attempts = 0;
  constructor(private readonly delayMs = 0) {}
  async publish(events: readonly StoredEvent[]): Promise<void> {
    this.attempts += 1;
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failing) throw new Error("broker unreachable\n(simulated)");
    this.published.push(...events);
  }
  async close(): Promise<void> {}
}

describe("relay checkpointing (Postgres, in-memory bus)", () => {
  it("does not advance its checkpoint while publishing fails, and catches up when the bus recovers", async () => {
    const { store, checkpoints } = await freshLog();
    await appendInterleaved(store, [`calendar-${randomUUID()}`, `session-${randomUUID()}`], 5);
    const firstPart = await everything(store);
    const bus = new RecordingPublisher();
    const warnings: string[] = [];
    const relay = new Relay(store, bus, checkpoints, { name: "flaky", batchSize: 4, maxBackoffMs: 200, warn: (l) => warnings.push(l) });

    // One clean batch first, so the checkpoint has somewhere to stay.
    expect(await relay.runOnce()).toBe(4);
    const before = await checkpoints.load("flaky");
    expect(before).toEqual(firstPart[3]!.position);

    bus.failing = true;
    const run = relay.start();
    await until(() => warnings.length >= 4, "four failed attempts");
    expect(await checkpoints.load("flaky")).toEqual(before);
    expect(bus.published).toHaveLength(4);
    expect(await relay.lag()).toBeGreaterThan(0);
    // One line per failure, saying the checkpoint stayed and when it retries; the back-off grows to its cap.
    expect(warnings[0]).toMatch(
      /^relay flaky: batch failed \(1 in a row\), checkpoint kept, retrying in 100 ms: Error: broker unreachable \(simulated\)$/,
    );
    expect(warnings[2]).toMatch(/\(3 in a row\).*retrying in 200 ms/);
    expect(warnings.every((l) => !l.includes("\n"))).toBe(true);

    await appendInterleaved(store, [`expert-${randomUUID()}`], 3); // the log moves on during the outage
    bus.failing = false;
    const all = await everything(store);
    await until(async () => samePosition(all[all.length - 1]!.position, await checkpoints.load("flaky")), "the relay to catch up");
    await run.stop();

    // Nothing failed half-way here, so each event went out exactly once and in log order.
    expect(bus.published.map((e) => e.eventId)).toEqual(all.map((e) => e.eventId));
    expect(await relay.lag()).toBe(0);
  });

  it("stop() lets the batch under way finish and checkpoints it", async () => {
    const { store, checkpoints } = await freshLog();
    await appendInterleaved(store, [`calendar-${randomUUID()}`], 6);
    const all = await everything(store);
    const bus = new RecordingPublisher(300);
    const relay = new Relay(store, bus, checkpoints, { name: "stopping", batchSize: 4 });
    const run = relay.start();
    await until(() => bus.attempts === 1, "the first publish to begin");
    await run.stop();
    expect(bus.published.map((e) => e.eventId)).toEqual(all.slice(0, 4).map((e) => e.eventId));
    expect(await checkpoints.load("stopping")).toEqual(all[3]!.position);
    await run.done;
    // Stopped for good: runOnce is allowed again, and picks up where the loop left off.
    expect(await relay.runOnce()).toBe(2);
    expect(await relay.runOnce()).toBe(0);
  });

  it("keeps one checkpoint per relay name, and its migrations apply once", async () => {
    const { store, checkpoints } = await freshLog();
    expect(await checkpoints.load("projections")).toBeNull();
    await checkpoints.save("projections", { commit: 12n, prepare: 3n });
    await checkpoints.save("projections", { commit: 18_446_744_073_709_551_615n, prepare: 9n });
    await checkpoints.save("audit", { commit: 1n, prepare: 1n });
    const again = await PostgresRelayCheckpoints.connect(store.pool);
    expect(await again.load("projections")).toEqual({ commit: 18_446_744_073_709_551_615n, prepare: 9n });
    expect(await again.load("audit")).toEqual({ commit: 1n, prepare: 1n });
  });
});

const brokers =
  process.env.KAFKA_BROKERS?.split(",")
    .map((b) => b.trim())
    .filter(Boolean) ?? [];

if (brokers.length === 0) {
  const reason = "KAFKA_BROKERS is not set (start one with `bash scripts/kafka/broker.sh start`)";
  announceSkip("relay to Kafka", reason);
  describe("relay to Kafka", () => {
    it.skip(`skipped: ${reason}`, () => undefined);
  });
} else {
  describe("relay to Kafka", () => {
    // The test's own reader stays quiet: a fresh broker answers "coordinator not available" until it has made its offsets topic.
    const kafka = new Kafka({ clientId: "relay-test-reader", brokers, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    beforeAll(() => admin.connect());
    afterAll(() => admin.disconnect());

    const uniqueTopic = () => `booking-events-test-${randomBytes(5).toString("hex")}`;

    async function connectPublisher(topic: string): Promise<KafkaBusPublisher> {
      const publisher = await KafkaBusPublisher.connect({ brokers, topic, partitions: 3, clientId: "relay-test" });
      onTestFinished(async () => {
        await publisher.close();
        await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      });
      return publisher;
    }

    /** How many messages the topic holds, from its offsets. */
    async function topicSize(topic: string): Promise<number> {
      const offsets = await admin.fetchTopicOffsets(topic);
      return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
    }

    type Received = { partition: number; offset: number; key: string; headers: Record<string, string>; event: StoredEvent };

    /** Read the topic from the start until `count` messages have arrived; in (partition, offset) order. */
    async function readTopic(topic: string, count: number): Promise<Received[]> {
      // Short fetch waits: disconnect waits for the fetch under way, 5 s by default.
      const consumer = kafka.consumer({ groupId: `relay-test-${randomUUID()}`, maxWaitTimeInMs: 100 });
      const received: Received[] = [];
      await consumer.connect();
      try {
        await consumer.subscribe({ topic, fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ partition, message }) => {
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
            received.push({
              partition,
              offset: Number(message.offset),
              key: String(message.key),
              headers,
              event: decodeBusMessage(String(message.value)),
            });
          },
        });
        await until(() => received.length >= count, `${count} messages on ${topic}`, 60_000);
      } finally {
        await consumer.disconnect();
      }
      return received.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
    }

    it("publishes every event exactly as stored, keyed by stream id, each stream in version order; the checkpoint is the last position", async () => {
      const { store, checkpoints } = await freshLog();
      const streams = [
        `calendar-${randomUUID()}`,
        `calendar-${randomUUID()}`,
        `session-${randomUUID()}`,
        `expert-${randomUUID()}`,
        `terms-${randomUUID()}`,
      ];
      await appendInterleaved(store, streams, 6);
      const topic = uniqueTopic();
      const relay = new Relay(store, await connectPublisher(topic), checkpoints, { name: "kafka", batchSize: 7 });
      const run = relay.start();
      await appendInterleaved(store, streams.slice(0, 3), 4); // and some while it runs
      const stored = await everything(store);
      expect(stored).toHaveLength(5 * 6 + 3 * 4);
      await until(
        async () => samePosition(stored[stored.length - 1]!.position, await checkpoints.load("kafka")),
        "the checkpoint to reach the head",
      );
      await run.stop();

      const received = await readTopic(topic, stored.length);
      expect(received).toHaveLength(stored.length);
      expect(await topicSize(topic)).toBe(stored.length);
      const byId = new Map(stored.map((e) => [e.eventId, e]));
      for (const m of received) {
        expect(m.event).toEqual(byId.get(m.event.eventId)); // eventId, streamId, version, position, type, data, metadata, recordedAt
        expect(m.key).toBe(m.event.streamId);
        expect(m.headers).toEqual({ type: m.event.type, eventId: m.event.eventId });
      }
      expect(new Set(received.map((m) => m.event.eventId)).size).toBe(stored.length);
      for (const stream of streams) {
        const own = received.filter((m) => m.event.streamId === stream);
        expect(new Set(own.map((m) => m.partition)).size).toBe(1);
        expect(own.map((m) => m.event.version)).toEqual(own.map((_, i) => i + 1));
      }
      expect(await checkpoints.load("kafka")).toEqual(stored[stored.length - 1]!.position);
    });

    it("a crash after the ack but before the checkpoint republishes the same events: duplicates, nothing missing", async () => {
      const { store, checkpoints } = await freshLog();
      const streams = [`calendar-${randomUUID()}`, `session-${randomUUID()}`];
      await appendInterleaved(store, streams, 5);
      const topic = uniqueTopic();
      const publisher = await connectPublisher(topic);
      expect(await new Relay(store, publisher, checkpoints, { name: "crashy" }).runOnce()).toBe(10);
      const firstCheckpoint = await checkpoints.load("crashy");

      await appendInterleaved(store, streams, 4);
      const stored = await everything(store);
      let crashes = 0;
      const crashOnSave: RelayCheckpoints = {
        load: (name) => checkpoints.load(name),
        save: async () => {
          crashes += 1;
          throw new Error("process killed before the checkpoint was written");
        },
      };
      await expect(new Relay(store, publisher, crashOnSave, { name: "crashy" }).runOnce()).rejects.toThrow(/process killed/);
      expect(crashes).toBe(1);
      expect(await topicSize(topic)).toBe(18); // the bus acknowledged the batch...
      expect(await checkpoints.load("crashy")).toEqual(firstCheckpoint); // ...the checkpoint never heard of it

      // The restarted process: a fresh relay from the stored checkpoint.
      const restarted = new Relay(store, publisher, checkpoints, { name: "crashy" });
      expect(await restarted.runOnce()).toBe(8);
      expect(await checkpoints.load("crashy")).toEqual(stored[stored.length - 1]!.position);
      expect(await restarted.runOnce()).toBe(0);
      expect(await new Relay(store, publisher, checkpoints, { name: "crashy" }).runOnce()).toBe(0);
      expect(await topicSize(topic)).toBe(26);

      const received = await readTopic(topic, 26);
      const copies = new Map<string, StoredEvent[]>();
      for (const m of received) copies.set(m.event.eventId, [...(copies.get(m.event.eventId) ?? []), m.event]);
      expect([...copies.keys()].sort()).toEqual(stored.map((e) => e.eventId).sort()); // nothing missing, nothing invented
      for (const [i, e] of stored.entries()) {
        const got = copies.get(e.eventId)!;
        expect(got).toHaveLength(i < 10 ? 1 : 2); // the crashed batch twice, identical both times
        for (const copy of got) expect(copy).toEqual(e);
      }
      // Each stream still reads in version order per partition, duplicates included: a consumer
      // that drops versions it has seen ends up with every event once.
      for (const stream of streams) {
        const seen: number[] = [];
        for (const m of received.filter((r) => r.event.streamId === stream))
          if (m.event.version > (seen[seen.length - 1] ?? 0)) seen.push(m.event.version);
        expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      }
    });
  });
}
