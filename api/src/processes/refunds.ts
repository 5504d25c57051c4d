import pg from "pg";
import { migrate } from "@booking/event-store";
import { commandHandlers } from "../main/commands.ts";
import { loadConfig, warnOfDevelopmentSecret } from "../main/config.ts";
import { openPersonalDataLog } from "../main/event-store.ts";
import { paymentProviderFrom, paymentsMigrations } from "../payments/index.ts";
import { refundsConfig, RefundReactor, refundsMigrations } from "../refunds/index.ts";
import { PayoutReactor, payoutProviderFrom, payoutReactorOptions, payoutsConfig, payoutsMigrations } from "../payouts/index.ts";
import { stopOnSignals } from "./lifecycle.ts";
import { startProcessTracing } from "../tracing/index.ts";
import { processLog } from "./process-log.ts";
import { databaseCheck, readinessOf } from "../health/index.ts";
import { metricsConfig, serveProcessMetrics } from "../metrics/index.ts";

// Traces by OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 35.3); off, no SDK is registered.
startProcessTracing("booking-refunds");

// The refunds process of the production topology: pays back what the log says is owed, through
// Stripe when STRIPE_SECRET_KEY is set, else the test provider (whose refunds live in Postgres).
// And pays experts: releases cleared earnings, transfers each share, reverses, pays out (payouts/).

const log = processLog("refunds");
const config = loadConfig("refunds", refundsConfig.extend(payoutsConfig.shape));
warnOfDevelopmentSecret("refunds", config);
const db = new pg.Pool({ connectionString: config.DATABASE_URL, max: 4 });
db.on("error", () => undefined);
// Its commands' events are sealed as the API's are, and what it reads opened (issue 33.1).
const personalDataLog = await openPersonalDataLog(config, db);
const store = personalDataLog.store;
await migrate(db, "payments_migrations", paymentsMigrations);
await migrate(db, "refunds_migrations", refundsMigrations);
await migrate(db, "payouts_migrations", payoutsMigrations);
const clock = () => new Date().toISOString();
const provider = paymentProviderFrom(config, db);
const reactor = new RefundReactor(
  { log: store, db, calendar: commandHandlers(store, clock).calendar, provider, clock },
  {
    idleMs: config.REFUNDS_IDLE_MS,
    leaseMs: config.REFUNDS_LEASE_MS,
    firstRetryMs: config.REFUNDS_FIRST_RETRY_MS,
    warn: (line) => log.warn(line),
  },
);
const run = reactor.start();
log.info(`refunds: running (provider ${provider.name})`);
const payoutProvider = payoutProviderFrom(config, db);
const payouts = new PayoutReactor(
  { log: store, db, payouts: commandHandlers(store, clock).payouts, provider: payoutProvider, clock },
  { ...payoutReactorOptions(config), warn: (line) => log.warn(line) },
).start();
const metrics = await serveProcessMetrics(loadConfig("refunds", metricsConfig), {
  db,
  log: store,
  readiness: async () => readinessOf({ database: await databaseCheck(db) }),
});
log.info(`payouts: running (provider ${payoutProvider.name})`);

stopOnSignals("refunds", async () => {
  await metrics?.close();
  await run.stop();
  await payouts.stop();
  await personalDataLog.close();
  await db.end();
});
