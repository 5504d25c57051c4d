import pg from "pg";
import { KafkaBusPublisher, PostgresRelayCheckpoints, Relay } from "@booking/event-store";
import { loadConfig, relayConfig } from "../main/config.ts";
import { openEventStore } from "../main/event-store.ts";
import { stopOnSignals } from "./lifecycle.ts";
import { startProcessTracing } from "../tracing/index.ts";
import { processLog } from "./process-log.ts";
import { databaseCheck, kafkaCheck, readinessOf } from "../health/index.ts";
import { relayBatchesCounted, serveProcessMetrics } from "../metrics/index.ts";

// Traces by OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 35.3); off, no SDK is registered.
startProcessTracing("booking-relay");

// The relay: publishes the event log to Kafka, at least once, checkpointed in Postgres.

const log = processLog("relay");
const config = loadConfig("relay", relayConfig);
const store = await openEventStore(config);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
pool.on("error", () => undefined);
const checkpoints = await PostgresRelayCheckpoints.connect(pool);
const publisher = await KafkaBusPublisher.connect({ brokers: config.KAFKA_BROKERS, topic: config.KAFKA_TOPIC });
const run = new Relay(store, relayBatchesCounted(publisher), checkpoints, {
  batchSize: config.RELAY_BATCH_SIZE,
  warn: (line) => log.warn(`relay: ${line}`),
}).start();
// Ready while it can read its checkpoints and reach Kafka (issue 35.5).
const metrics = await serveProcessMetrics(config, {
  db: pool,
  log: store,
  readiness: async () => readinessOf({ database: await databaseCheck(pool), kafka: await kafkaCheck(config.KAFKA_BROKERS) }),
});
log.info(`relay: publishing to ${config.KAFKA_TOPIC} on ${config.KAFKA_BROKERS.join(",")}`);

stopOnSignals("relay", async () => {
  await metrics?.close();
  await run.stop();
  await publisher.close();
  await store.close();
  await pool.end();
});
