import pg from "pg";
import { migrate } from "@booking/event-store";
import { loadConfig, warnOfDevelopmentSecret } from "../main/config.ts";
import { openPersonalDataLog } from "../main/event-store.ts";
import { mailConfig, runMail, mailMigrations, mailSettings } from "../mail/index.ts";
import { stopOnSignals } from "./lifecycle.ts";
import { startProcessTracing } from "../tracing/index.ts";
import { processLog } from "./process-log.ts";
import { databaseCheck, readinessOf } from "../health/index.ts";
import { metricsConfig, serveProcessMetrics } from "../metrics/index.ts";

// Traces by OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 35.3); off, no SDK is registered.
startProcessTracing("booking-mail");

// The mail process of the production topology: turns the log's booking events into mail and
// delivers the outbox, through SMTP when SMTP_URL is set, else into the dev mailbox.

const log = processLog("mail");
const config = loadConfig("mail", mailConfig);
warnOfDevelopmentSecret("mail", config);
const db = new pg.Pool({ connectionString: config.DATABASE_URL, max: 4 });
db.on("error", () => undefined);
// Mails say what people wrote and are addressed by name: read from the log opened (issue 33.1).
const personalDataLog = await openPersonalDataLog(config, db);
const store = personalDataLog.store;
await migrate(db, "mail_migrations", mailMigrations);
const settings = mailSettings({ publicUrl: config.PUBLIC_URL, port: config.PORT, from: config.MAIL_FROM, smtpUrl: config.SMTP_URL });
const run = runMail(
  {
    log: store,
    db,
    settings,
    linkSecret: config.JWT_SECRET,
    clock: () => new Date().toISOString(),
    meetingRoomUrlTemplate: config.MEETING_ROOM_URL_TEMPLATE ?? null,
  },
  {
    idleMs: config.MAIL_IDLE_MS,
    leaseMs: config.MAIL_LEASE_MS,
    firstRetryMs: config.MAIL_FIRST_RETRY_MS,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    warn: (line) => log.warn(line),
  },
);
const metrics = await serveProcessMetrics(loadConfig("mail", metricsConfig), {
  db,
  log: store,
  readiness: async () => readinessOf({ database: await databaseCheck(db) }),
});
log.info(`mail: running (delivering to ${run.transport.name}, links to ${settings.publicUrl})`);

stopOnSignals("mail", async () => {
  await metrics?.close();
  await run.stop();
  await personalDataLog.close();
  await db.end();
});
