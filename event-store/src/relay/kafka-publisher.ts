import { Kafka, Partitioners, logLevel, type LogEntry, type Producer } from "kafkajs";
import type { StoredEvent } from "@booking/contracts";
import { BUS_TOPIC_PARTITIONS, encodeBusMessage } from "./bus-message.ts";
import { DEFAULT_TOPIC, type BusPublisher } from "./bus.ts";

export type KafkaBusOptions = {
  brokers: string[];
  topic?: string;
  clientId?: string;
  /** Partitions of a topic created here (default 6); an existing topic is left as it is. */
  partitions?: number;
  /** Replication factor of a topic created here (default 1: a single broker). */
  replicationFactor?: number;
};

const REPEAT_QUIET_MS = 60_000;

/**
 * kafkajs logs every connect, group join and retry at INFO, as multi-line JSON; only its errors
 * reach us, one line each. While a broker is down it repeats the same two errors on every
 * reconnect attempt, so a line already printed in the last minute is dropped.
 */
function kafkaErrorLog(): () => (entry: LogEntry) => void {
  const printed = new Map<string, number>();
  return () => (entry) => {
    if (entry.level > logLevel.ERROR) return;
    // Its message names the request; the reason is in `error`.
    const { message, error, broker } = entry.log;
    const detail = [typeof error === "string" ? error : "", typeof broker === "string" ? `broker ${broker}` : ""]
      .filter(Boolean)
      .join(", ");
    const line = `kafkajs ${entry.namespace}: ${message}${detail ? ` (${detail})` : ""}`;
    const now = Date.now();
    if (now - (printed.get(line) ?? -Infinity) < REPEAT_QUIET_MS) return;
    for (const [old, at] of printed) if (now - at >= REPEAT_QUIET_MS) printed.delete(old);
    printed.set(line, now);
    console.warn(line);
  };
}

export class KafkaBusPublisher implements BusPublisher {
  private producer: Producer | null = null;

  private constructor(
    private readonly kafka: Kafka,
    readonly topic: string,
  ) {}

  /** Connect to the brokers, create the topic if it is missing, and start an idempotent producer. */
  static async connect(options: KafkaBusOptions): Promise<KafkaBusPublisher> {
    const topic = options.topic ?? DEFAULT_TOPIC;
    const kafka = new Kafka({
      clientId: options.clientId ?? "booking-relay",
      brokers: options.brokers,
      logLevel: logLevel.ERROR,
      logCreator: kafkaErrorLog(),
    });
    const admin = kafka.admin();
    await admin.connect();
    try {
      // Resolves false when the topic already exists.
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic, numPartitions: options.partitions ?? BUS_TOPIC_PARTITIONS, replicationFactor: options.replicationFactor ?? 1 }],
      });
    } finally {
      await admin.disconnect();
    }
    const publisher = new KafkaBusPublisher(kafka, topic);
    await publisher.connectedProducer();
    return publisher;
  }

  async publish(events: readonly StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    const producer = await this.connectedProducer();
    try {
      await producer.send({
        topic: this.topic,
        acks: -1, // every in-sync replica has it before we move the checkpoint
        messages: events.map((e) => ({
          key: e.streamId, // one stream, one partition: its events keep their order
          value: encodeBusMessage(e),
          headers: { type: e.type, eventId: e.eventId },
        })),
      });
    } catch (e) {
      // A failed send can leave the idempotent producer's sequence numbers out of step with the
      // broker; the next batch starts a fresh producer (new producer id) instead.
      this.producer = null;
      await producer.disconnect().catch(() => undefined);
      throw e;
    }
  }

  async close(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    await producer?.disconnect();
  }

  private async connectedProducer(): Promise<Producer> {
    if (this.producer) return this.producer;
    const producer = this.kafka.producer({
      idempotent: true, // a retried send is written once
      maxInFlightRequests: 1, // a retry can never overtake the request before it
      // Murmur2 like the Java client, named explicitly so kafkajs does not warn about its v2 change.
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    this.producer = producer;
    return producer;
  }
}
