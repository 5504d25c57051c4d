import type pg from "pg";
import { Kafka, logLevel, type Consumer } from "kafkajs";
import { BUS_TOPIC_PARTITIONS, decodeBusMessage, inBatchSpan, openEvents, type BatchKeyRing } from "@booking/event-store";
import { applyBatch, ensureCheckpoints, recordProjectionError } from "../apply.ts";
import type { Projection } from "../projection.ts";
import type { EventLog } from "@booking/contracts";
import type { VersionKeeping } from "../rebuild.ts";
import { withVersionsKept, type RunnerHandle } from "./in-process.ts";

export type KafkaProjectorOptions = {
  brokers: string[];
  topic: string;
  groupId?: string;
  clientId?: string;
  /** How long a silent member keeps its partitions (the broker allows 6 s to 300 s by default). */
  sessionTimeoutMs?: number;
  onError?: (error: unknown) => void;
  /**
   * The event log, to rebuild (blue-green, from the log, in the background) the read models whose
   * live generation was built by another version of their rule. Without it this process does not.
   */
  log?: EventLog;
  versions?: false | Omit<VersionKeeping, "onError">;
  /**
   * The data keys that open the personal fields of what the relay published (the log as stored: envelopes, issue
   * 33.1), before the read models apply it. Without them events are applied as they come (a log that seals nothing).
   */
  keys?: BatchKeyRing;
};

/**
 * The production runner: a Kafka consumer group. A batch is applied to Postgres in one
 * transaction, and only after that commit are its offsets committed; a crash in between means a
 * redelivery, which the rows' stream versions turn into a no-op.
 */
export async function startKafkaProjector(
  pool: pg.Pool,
  projections: readonly Projection[],
  options: KafkaProjectorOptions,
): Promise<RunnerHandle> {
  await ensureCheckpoints(pool, projections);
  const kafka = new Kafka({ clientId: options.clientId ?? "projector", brokers: options.brokers, logLevel: logLevel.ERROR });
  // The topic may not exist yet (the relay has not started): create it as the relay would, since a
  // subscription to a missing topic fails, or has the broker create it with its default partitions.
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: options.topic, numPartitions: BUS_TOPIC_PARTITIONS }] });
  } finally {
    await admin.disconnect();
  }
  const consumer: Consumer = kafka.consumer({
    groupId: options.groupId ?? "projector",
    allowAutoTopicCreation: false,
    // A projector that dies without leaving the group holds its partitions until the broker gives
    // up on it; kafkajs's defaults (30 s session, 60 s rebalance) stall the read models that long.
    sessionTimeout: options.sessionTimeoutMs ?? 10_000,
    rebalanceTimeout: options.sessionTimeoutMs ?? 10_000,
    heartbeatInterval: 1_000,
  });
  await consumer.connect();
  await consumer.subscribe({ topic: options.topic, fromBeginning: true });
  let failures = 0;
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset }) => {
      if (!isRunning() || isStale() || batch.messages.length === 0) return;
      const consumed = batch.messages.flatMap((m) => (m.value ? [decodeBusMessage(m.value.toString("utf8"))] : []));
      try {
        // An envelope that does not open (altered) fails the batch like any other error: retried, recorded, never skipped.
        const events = options.keys ? await openEvents(consumed, options.keys) : consumed;
        const attributes = { "projector.runner": "kafka", "messaging.destination.partition.id": String(batch.partition) };
        await inBatchSpan("projector batch", events, attributes, () => applyBatch(pool, projections, events, "bus"));
        failures = 0;
      } catch (e) {
        options.onError?.(e);
        await recordProjectionError(pool, projections, e);
        // Not committing the offsets makes Kafka deliver this batch again; back off first.
        failures++;
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** failures)));
        throw e;
      }
      const last = batch.messages[batch.messages.length - 1]!;
      // Resolve before committing: kafkajs fetches from the last resolved offset, so without this
      // every fetch starts over and a partition past the fetch size never advances.
      resolveOffset(last.offset);
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() }]);
      await heartbeat();
    },
  });
  let stopping: Promise<void> | null = null;
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((r) => (resolveDone = r));
  const runner: RunnerHandle = {
    done,
    stop: () => {
      // disconnect() lets the batch in flight finish (and commit) before leaving the group.
      stopping ??= consumer.disconnect().finally(resolveDone);
      return stopping;
    },
  };
  return options.log ? withVersionsKept(runner, options.log, pool, projections, options) : runner;
}
