import pg from "pg";
import { InProcessProjector, allProjections, migrateReadModels, startKafkaProjector } from "@booking/projections";
import { loadConfig, projectorConfig, warnOfDevelopmentSecret } from "../main/config.ts";
import { openPersonalDataLog } from "../main/event-store.ts";
import { stopOnSignals } from "./lifecycle.ts";
import { startProcessTracing } from "../tracing/index.ts";
import { processLog } from "./process-log.ts";
import { OK, databaseCheck, kafkaCheck, readModelChecks, readinessOf } from "../health/index.ts";
import { projectorReadsCounted, serveProcessMetrics } from "../metrics/index.ts";

// Traces by OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 35.3); off, no SDK is registered.
startProcessTracing("booking-projector");

// The projector: keeps the read models up to date, from Kafka when KAFKA_BROKERS is set, else by
// following the event store directly.

const log = processLog("projector");
const config = loadConfig("projector", projectorConfig);
warnOfDevelopmentSecret("projector", config);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 4 });
pool.on("error", () => undefined);
await migrateReadModels(pool);
// Read models hold plain text: what the log and the bus carry sealed is opened with the data keys first (issue 33.1).
const personalDataLog = await openPersonalDataLog(config, pool);
const store = personalDataLog.store;

const onError = (e: unknown) => log.error({ err: e }, `projector: ${e instanceof Error ? e.message : String(e)}`);
const runner = config.KAFKA_BROKERS
  ? await startKafkaProjector(pool, allProjections, {
      brokers: config.KAFKA_BROKERS,
      topic: config.KAFKA_TOPIC,
      groupId: config.PROJECTOR_GROUP,
      onError,
      log: store,
      keys: personalDataLog.keys,
    })
  : new InProcessProjector(projectorReadsCounted(store), pool, allProjections, { batchSize: config.PROJECTOR_BATCH_SIZE, onError }).start();
// Ready while the read models are within READY_MAX_LAG_EVENTS of the log (and Kafka answers, when it feeds them).
const brokers = config.KAFKA_BROKERS;
const metrics = await serveProcessMetrics(config, {
  db: pool,
  log: store,
  readiness: async () => {
    const database = await databaseCheck(pool);
    const readModels = database === OK ? await readModelChecks(pool, store, config.READY_MAX_LAG_EVENTS) : { checks: {}, lagEvents: null };
    return readinessOf({ database, ...readModels.checks, ...(brokers && { kafka: await kafkaCheck(brokers) }) }, readModels.lagEvents);
  },
});
log.info(
  `projector: running (${config.KAFKA_BROKERS ? `Kafka topic ${config.KAFKA_TOPIC}, group ${config.PROJECTOR_GROUP}` : "following the event store"})`,
);

stopOnSignals("projector", async () => {
  await metrics?.close();
  await runner.stop();
  await personalDataLog.close();
  await pool.end();
});
