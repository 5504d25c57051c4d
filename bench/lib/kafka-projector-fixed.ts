import type pg from "pg";
import { Kafka, logLevel, type Consumer } from "kafkajs";
import { decodeBusMessage } from "@booking/contracts";
import { applyBatch, ensureCheckpoints, recordProjectionError, type Projection, type RunnerHandle } from "@booking/projections";

// An experiment, not the fix itself: projections/src/runners/kafka-consumer.ts with ONE change,
// to show its effect in the same run. With `eachBatchAutoResolve: false`, kafkajs fetches each
// partition from its last *resolved* offset, and the runner never resolves one: every fetch
// starts again where the consumer joined, so the same messages (up to maxBytesPerPartition,
// 1 MB) are applied again and again, and once a partition holds more than 1 MB after that point
// the newer events are never fetched at all (until a rebalance). The change: resolveOffset(last)
// once the batch is applied, before its offset is committed.

export async function startKafkaProjectorResolvingOffsets(
  pool: pg.Pool,
  projections: readonly Projection[],
  options: { brokers: string[]; topic: string; groupId: string; onError?: (e: unknown) => void },
): Promise<RunnerHandle> {
  await ensureCheckpoints(pool, projections);
  const kafka = new Kafka({ clientId: "projector", brokers: options.brokers, logLevel: logLevel.ERROR });
  const consumer: Consumer = kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: true });
  await consumer.connect();
  await consumer.subscribe({ topic: options.topic, fromBeginning: true });
  let failures = 0;
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset }) => {
      if (!isRunning() || isStale() || batch.messages.length === 0) return;
      const events = batch.messages.flatMap((m) => (m.value ? [decodeBusMessage(m.value.toString("utf8"))] : []));
      try {
        await applyBatch(pool, projections, events, "bus");
        failures = 0;
      } catch (e) {
        options.onError?.(e);
        await recordProjectionError(pool, projections, e);
        failures++;
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** failures)));
        throw e;
      }
      const last = batch.messages[batch.messages.length - 1]!;
      resolveOffset(last.offset); // the one change
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() }]);
      await heartbeat();
    },
  });
  let stopping: Promise<void> | null = null;
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((r) => (resolveDone = r));
  return { done, stop: () => (stopping ??= consumer.disconnect().finally(resolveDone)) };
}
