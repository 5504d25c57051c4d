import type { FastifyInstance } from "fastify";
import pg from "pg";
import Stripe from "stripe";
import { PostgresSnapshotStore } from "@booking/event-store";
import { InProcessProjector, allProjections, type RunnerHandle } from "@booking/projections";
import { buildApp, type AppOptions } from "./app.ts";
import { serveBuiltApps, type BuiltApps } from "./built-apps.ts";
import { BookingFeed } from "../live-updates/index.ts";
import type { ApiConfig } from "./config.ts";
import { createContext, type AppContext } from "./context.ts";
import { openPersonalDataLog } from "./event-store.ts";
import { startHoldSweeper, startCompletionSweeper } from "../bookings/index.ts";
import { startNoShowSweeper } from "../no-shows/index.ts";
import { BookingCalendarWriter, startCalendarSyncSweeper } from "../external-calendars/index.ts";
import { ensureAdminAccount } from "../auth/index.ts";
import { paymentProviderFrom } from "../payments/index.ts";
import { mailSettings, runMail } from "../mail/index.ts";
import { RefundReactor } from "../refunds/index.ts";
import { startReconciliationSweeper } from "../reconciliation/index.ts";
import { PayoutReactor, payoutProviderFrom, payoutReactorOptions } from "../payouts/index.ts";
import { migrateApiDatabase } from "./schema.ts";
import { metricsSettings } from "../metrics/index.ts";

export type RunningApi = { app: FastifyInstance; ctx: AppContext; url: string; stop: () => Promise<void> };

/**
 * One API process. Without KAFKA_BROKERS it also keeps the read models itself (the embedded
 * default); with Kafka, a separate projector process does.
 */
export async function runApi(config: ApiConfig, options: Pick<AppOptions, "logger"> & { builtApps?: BuiltApps } = {}): Promise<RunningApi> {
  // Read by the auth routes.
  process.env.AUTH_RATE_LIMIT_MAX = String(config.AUTH_RATE_LIMIT_MAX);
  process.env.AUTH_MAIL_RATE_LIMIT_MAX = String(config.AUTH_MAIL_RATE_LIMIT_MAX);
  const db = new pg.Pool({ connectionString: config.DATABASE_URL, max: 10 });
  db.on("error", () => undefined);
  await migrateApiDatabase(db);
  // Everything this process reads from the log is opened, and everything it writes sealed (issue 33.1).
  const log = await openPersonalDataLog(config, db);
  const store = log.store;
  const projector: RunnerHandle | null = config.KAFKA_BROKERS ? null : new InProcessProjector(store, db, allProjections).start();
  // With Kafka, separate projector processes keep the read models from the bus.
  const readModelFeed = config.KAFKA_BROKERS ? "bus" : "log";
  const feed = new BookingFeed(store, db, readModelFeed);
  await feed.start();
  const payments = paymentProviderFrom(config, db);
  // Calendar snapshots beside the read models (derived data, like them): a cold process decides on a long calendar without folding it all.
  const snapshots = await PostgresSnapshotStore.connect(db, { seal: log.snapshotSeal });
  // A snapshot that could not be written goes to the app's log (set once the app is built).
  let logSnapshotError: (error: unknown) => void = () => undefined;
  const ctx = createContext({
    store,
    dataKeys: log.keys,
    db,
    snapshots,
    onSnapshotError: (error) => logSnapshotError(error),
    readModelFeed,
    clock: () => new Date().toISOString(),
    holdMinutes: config.HOLD_MINUTES,
    mediaDir: config.MEDIA_DIR,
    jwtSecret: config.JWT_SECRET,
    payments,
    payoutProvider: payoutProviderFrom(config, db),
    stripeBalances: config.STRIPE_SECRET_KEY ? new Stripe(config.STRIPE_SECRET_KEY) : null,
    stripeWebhookSecrets: [config.STRIPE_WEBHOOK_SECRET, config.STRIPE_CONNECT_WEBHOOK_SECRET].filter((s) => s !== undefined),
    readyMaxLagEvents: config.READY_MAX_LAG_EVENTS,
    feed,
    mail: mailSettings({ publicUrl: config.PUBLIC_URL, port: config.PORT, from: config.MAIL_FROM, smtpUrl: config.SMTP_URL }),
    meetingRoomUrlTemplate: config.MEETING_ROOM_URL_TEMPLATE ?? null,
    ...(config.SUPPORT_EMAIL && { supportAddress: config.SUPPORT_EMAIL }),
    ...(config.CALENDAR_SECRETS_KEY && { calendarSecretsKey: config.CALENDAR_SECRETS_KEY }),
    calendarPlainHosts: config.CALENDAR_FETCH_ALLOW_HTTP,
  });
  const { clock, calendar, projected } = ctx;
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD)
    await ensureAdminAccount({ db, store, clock, projected }, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  const app = await buildApp(ctx, {
    logger: options.logger,
    trustProxy: config.TRUST_PROXY || false,
    adminTwoFactor: config.ADMIN_TWO_FACTOR,
    metrics: metricsSettings(config),
    ...(config.REDIS_URL && { redisUrl: config.REDIS_URL }),
  });
  logSnapshotError = (error) => app.log.warn({ err: error }, "calendar snapshot not written");
  await serveBuiltApps(app, options.builtApps);
  const sweeper = startHoldSweeper({ db, calendar, clock }, ctx.sweepGate);
  // Refunds owed are paid from here in the embedded default; with Kafka, by the refunds process.
  const refunds = config.KAFKA_BROKERS ? null : new RefundReactor({ log: store, db, calendar, provider: payments, clock }).start();
  // Earnings are released, transferred and paid out from here too (with Kafka, by the refunds process).
  const payouts = config.KAFKA_BROKERS
    ? null
    : new PayoutReactor(
        { log: store, db, payouts: ctx.payouts, provider: ctx.payoutProvider, clock },
        { ...payoutReactorOptions(config), gate: ctx.sweepGate, warn: (line) => app.log.warn(line) },
      ).start();
  const completions = startCompletionSweeper({ db, calendar, clock }, ctx.sweepGate);
  const noShows = startNoShowSweeper({ db, calendar, clock }, ctx.sweepGate);
  // The experts' own calendars read again every few minutes, and their bookings written into the one they chose (issue 32).
  const calendarSync = startCalendarSyncSweeper({ db, calendar, clock, ...ctx.externalCalendars }, ctx.sweepGate);
  const bookingCopies = new BookingCalendarWriter(
    {
      log: store,
      db,
      clock,
      ...ctx.externalCalendars,
      invites: { publicUrl: ctx.mail.publicUrl, meetingRoomUrlTemplate: ctx.meetingRoomUrlTemplate ?? null },
    },
    { warn: (line) => app.log.warn(line) },
  ).start();
  // The ledger compared with the payment provider once a day (issue 29.6); an admin runs it on demand too.
  const reconciliation = startReconciliationSweeper(
    { db, provider: payments.name, stripe: ctx.stripeBalances, clock },
    { warn: (line) => app.log.warn(line) },
  );
  // Mail is queued and sent from here in the embedded default; with Kafka, by the mail process.
  const mail = config.KAFKA_BROKERS
    ? null
    : runMail({
        log: store,
        db,
        settings: ctx.mail,
        linkSecret: config.JWT_SECRET,
        clock,
        meetingRoomUrlTemplate: config.MEETING_ROOM_URL_TEMPLATE ?? null,
      });
  const url = await app.listen({ port: config.PORT, host: config.HOST });
  return {
    app,
    ctx,
    url,
    stop: async () => {
      sweeper.stop();
      completions.stop();
      noShows.stop();
      calendarSync.stop();
      await bookingCopies.stop();
      reconciliation.stop();
      await refunds?.stop();
      await payouts?.stop();
      await mail?.stop();
      await app.close();
      await feed.stop();
      await projector?.stop();
      await ctx.calendar.snapshotsWritten();
      await log.close();
      await db.end();
    },
  };
}
