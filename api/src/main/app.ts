import { randomUUID } from "node:crypto";
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from "fastify";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { IMAGE_MAX_BYTES, errorBody, refusal } from "@booking/contracts";
import type { AppContext } from "./context.ts";
import { adminTwoFactorGate, familyEnded, authRoutes, type AdminTwoFactor } from "../auth/index.ts";
import {
  installAuthGuard,
  installErrorHandling,
  rateLimitCounters,
  installRequestLog,
  logDestination,
  loggerOptions,
  type LogDestination,
  installSecurityHeaders,
  boundaryValidatorCompiler,
  installConsistencyPosition,
} from "../http/index.ts";
import { adminRoutes } from "../admin/index.ts";
import { calendarInviteRoutes } from "../calendar-invites/index.ts";
import { earlyAccessRoutes } from "../early-access/index.ts";
import { DEFAULT_SUPPORT_ADDRESS, supportRoutes } from "../support/index.ts";
import { devMailboxOn, unsubscribeRoutes } from "../mail/index.ts";
import { paymentsRoutes } from "../payments/index.ts";
import { payoutAdminRoutes, payoutRoutes, stripePayoutWebhook } from "../payouts/index.ts";
import { receiptRoutes } from "../receipts/index.ts";
import { reconciliationRoutes } from "../reconciliation/index.ts";
import { statementRoutes } from "../statements/index.ts";
import { bookingRoutes, rescheduleRoutes, cancellationRoutes } from "../bookings/index.ts";
import { noShowRoutes } from "../no-shows/index.ts";
import { disputeRoutes, stripeDisputeWebhook } from "../disputes/index.ts";
import { conversationRoutes, infoRequestedAsMessage } from "../conversations/index.ts";
import { vettingRoutes } from "../vetting/index.ts";
import { earningsRoutes } from "../earnings/index.ts";
import { ledgerRoutes } from "../ledger/index.ts";
import { expertRoutes } from "../experts/index.ts";
import { healthRoutes } from "../health/index.ts";
import {
  installMetrics,
  metricsSettingsFromEnvironment,
  metricsSummaryRoutes,
  processRegistries,
  type MetricsSettings,
} from "../metrics/index.ts";
import { installRequestSpans, tracingIsOn } from "../tracing/index.ts";
import { proposableTimesRoutes } from "../availability/index.ts";
import { reviewRoutes } from "../reviews/index.ts";
import { sessionRoutes } from "../sessions/index.ts";
import { streamRoutes, type StreamLimits } from "../live-updates/index.ts";
import { termsRoutes } from "../terms/index.ts";
import { timeOffRoutes } from "../schedule/index.ts";
import { externalCalendarRoutes } from "../external-calendars/index.ts";
import { erasureRoutes, personalDataRoutes, type DataKeys } from "../personal-data/index.ts";

export const API_PREFIX = "/api/v1";
const BODY_LIMIT = 1024 * 1024;

export type AppOptions = {
  /** Log a line per request and every 5xx with its stack: true for stdout (pretty in a terminal), or a destination and level (tests). */
  logger?: boolean | { destination: LogDestination; level?: string };
  /** Proxy hops to trust for the client address (rate limits key on it); never trust a client's own X-Forwarded-For. */
  trustProxy?: boolean | number;
  /** REDIS_URL: count rate limits in Redis (Postgres stands in while it fails); absent: in Postgres. Either way every process sees the counts. */
  redisUrl?: string;
  /** Live streams per user and per process (defaults in ../live-updates/routes.ts). */
  streams?: Partial<StreamLimits>;
  /** ADMIN_TWO_FACTOR: admins use the console's routes only with two-factor sign-in on (default "required"). */
  adminTwoFactor?: AdminTwoFactor;
  /** Who may read /metrics (default: METRICS_TOKEN, METRICS_PORT and NODE_ENV from the environment). */
  metrics?: MetricsSettings;
};

/**
 * The Fastify app serving /api/v1: the composition root. The context's parts (built once by
 * createContext) are handed to each area as an object of exactly what its plugin declares, so an
 * area's signature says what it reads and which command handlers it sends to.
 */
/** The money flow as the OpenAPI document tells it (issue 29); docs/money.md draws the ledger's postings. */
const MONEY_FLOW = [
  "Money (integer minor units with an ISO 4217 currency: USD, EUR, GBP, CAD, AUD; never added across currencies):",
  "a creator pays a session's price (POST /stripe/test-intent or Stripe Elements) and the booking records the platform fee rate",
  "(15 % today). Once the session is completed and 7 days of clearing have passed, what was kept (paid − refunds) splits into",
  "the fee and the expert's share, which is transferred to the expert's payout account (POST /experts/me/payout-account) and",
  "paid out weekly or on request (POST /experts/me/payouts; GET /experts/me/balance, /experts/me/payouts). A refund after the",
  "release reverses that share of the transfer (until it is reversed, that part is not payable). Every movement is posted to a",
  "double-entry ledger (GET /admin/ledger/trial-balance, /admin/bookings/{id}/money-trail), reconciled with the provider's",
  "report (the test provider's tables or Stripe's balance transactions; GET /admin/reconciliation), with receipts",
  "(GET /bookings/{id}/receipts) and monthly statements (GET /experts/me/statements lists the months, from the first money",
  "released; GET /experts/me/statements/{YYYY-MM}.pdf|.csv).",
].join(" ");

export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === true
        ? loggerOptions(logDestination())
        : options.logger
          ? loggerOptions(options.logger.destination, options.logger.level)
          : false,
    // Fastify's own two lines per request would log the URL unredacted; installRequestLog writes one.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    routerOptions: { maxParamLength: 500 },
    // Errors raised by the router itself (a malformed URL, an overlong parameter) in our shape too.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply)
        .status(error.code === "FST_ERR_MAX_PARAM_LENGTH" ? 414 : 400)
        .send(errorBody(refusal("invalid_request")));
    },
    trustProxy:
      typeof options.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (options.trustProxy as number)
        : (options.trustProxy ?? false),
  }).withTypeProvider<ZodTypeProvider>();

  const { db, store, clock, calendar, sessions, experts, terms, reviews, projected, listings, creatorBookings, payments, feed } = ctx;
  const { mediaDir, jwtSecret, holdMinutes, stripeWebhookSecrets, readyMaxLagEvents, mail } = ctx;
  const meetingRoomUrlTemplate = ctx.meetingRoomUrlTemplate ?? null;

  app.setValidatorCompiler(boundaryValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installRequestLog(app);
  // A span per request, only while tracing is on (issue 35.3): off, the API adds no hooks at all.
  if (tracingIsOn()) installRequestSpans(app);
  // Prometheus' /metrics and the console's summary read the same registries (issue 35.4).
  const metricsRegistries = processRegistries(db, store);
  await installMetrics(app, { registries: metricsRegistries, settings: options.metrics ?? metricsSettingsFromEnvironment() });
  await installSecurityHeaders(app, { stripe: payments.publishableKey !== null, publicUrl: mail.publicUrl });
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  // A reply names where its writes went in the log; a request naming one waits for the read models to reach it.
  installConsistencyPosition(app, { db, feed: ctx.readModelFeed });

  await app.register(fastifySwagger, {
    openapi: { info: { title: "Expert sessions API", version: "1.0.0", description: MONEY_FLOW }, servers: [{ url: API_PREFIX }] },
    transform: jsonSchemaTransform,
  });
  const rateLimits = await rateLimitCounters(db, options.redisUrl);
  app.addHook("onClose", rateLimits.close);
  await app.register(fastifyRateLimit, { global: false, store: rateLimits.store });
  await app.register(fastifyMultipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  await installAuthGuard(app, jwtSecret, (sid) => familyEnded(db, sid));
  const adminTwoFactor = options.adminTwoFactor ?? "required";
  // After the guard, before every route: an admin reaches /admin/... only with a second factor (issue 33.4).
  if (adminTwoFactor === "required") app.addHook("onRequest", adminTwoFactorGate(db, API_PREFIX));

  await app.register(
    async (root) => {
      const v1 = root.withTypeProvider<ZodTypeProvider>();
      await healthRoutes(v1, { db, store, readyMaxLagEvents });
      await termsRoutes(v1, { terms, projected });
      await expertRoutes(v1, { db, experts, calendar, terms, projected, listings, clock, mediaDir });
      await vettingRoutes(v1, { db, experts, projected });
      await sessionRoutes(v1, { db, sessions, experts, terms, calendar, projected, clock, log: store });
      await bookingRoutes(v1, {
        db,
        calendar,
        sessions,
        experts,
        terms,
        projected,
        appended: ctx.appended,
        clock,
        holdMinutes,
        creatorBookings,
        meetingRoomUrlTemplate,
        infoRequestedAsMessage: infoRequestedAsMessage({ conversations: ctx.conversations, projected }),
      });
      await rescheduleRoutes(v1, { db, calendar, projected, clock, creatorBookings, meetingRoomUrlTemplate });
      await proposableTimesRoutes(v1, { db, calendar, clock });
      await timeOffRoutes(v1, { calendar, terms, projected, clock });
      await personalDataRoutes(v1, { db, store, clock });
      // TODO(issue 33.1, crypto-shredding): the context's data keys and snapshot store, read here until the context declares them.
      const shredding = ctx as AppContext & { dataKeys?: DataKeys; snapshots?: { forgetMentioning: (id: string) => Promise<unknown> } };
      const snapshots = shredding.snapshots;
      await erasureRoutes(v1, {
        db,
        store,
        clock,
        jwtSecret,
        publicUrl: mail.publicUrl,
        projected,
        sessions,
        dataKeys: shredding.dataKeys ?? null,
        forgetSnapshots: snapshots ? (userId) => snapshots.forgetMentioning(userId) : null,
      });
      await externalCalendarRoutes(v1, { db, calendar, terms, clock, projected, ...ctx.externalCalendars });
      await cancellationRoutes(v1, { db, calendar, clock });
      await noShowRoutes(v1, { db, calendar, projected, clock, meetingRoomUrlTemplate });
      await disputeRoutes(v1, { db, store, calendar, projected });
      await conversationRoutes(v1, { db, conversations: ctx.conversations, projected });
      await reviewRoutes(v1, { db, reviews, projected });
      await streamRoutes(v1, { feed, ...(options.streams && { limits: options.streams }) });
      await authRoutes(v1, { db, store, clock, projected, jwtSecret, terms, mail, adminTwoFactor });
      await unsubscribeRoutes(v1, { db, store, clock, projected, jwtSecret });
      await earlyAccessRoutes(v1, { db, clock });
      await supportRoutes(v1, { db, clock, mail, supportAddress: ctx.supportAddress ?? DEFAULT_SUPPORT_ADDRESS });
      // Stripe's payout events, then its dispute events (issue 31.2): each handler takes the events that are its own.
      const payouts = stripePayoutWebhook({ db, payouts: ctx.payouts });
      const disputes = stripeDisputeWebhook({ db, calendar, projected });
      const otherStripeEvents = async (event: Parameters<typeof payouts>[0], log: Parameters<typeof payouts>[1]) =>
        (await payouts(event, log)) || (await disputes(event, log));
      await paymentsRoutes(v1, { db, calendar, projected, payments, stripeWebhookSecrets, clock, otherStripeEvents });
      await earningsRoutes(v1, { db });
      await ledgerRoutes(v1, { db });
      await payoutRoutes(v1, { db, payouts: ctx.payouts, payoutProvider: ctx.payoutProvider, projected, publicUrl: mail.publicUrl });
      await payoutAdminRoutes(v1, { db, payouts: ctx.payouts, projected });
      await receiptRoutes(v1, { db });
      await reconciliationRoutes(v1, { db, provider: payments.name, stripe: ctx.stripeBalances, clock });
      await statementRoutes(v1, { db, clock });
      await calendarInviteRoutes(v1, { db, jwtSecret, mail, clock, meetingRoomUrlTemplate });
      await adminRoutes(v1, { db, store, experts, reviews, calendar, projected, mail });
      await metricsSummaryRoutes(v1, { registries: metricsRegistries });
      v1.get("/docs", { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: API_PREFIX },
  );
  // Where a developer (or a mail's reader in a dev setup) finds the mail that was not sent.
  if (devMailboxOn(mail)) app.get("/dev/mailbox", { schema: { hide: true } }, (_request, reply) => reply.redirect("/admin/#/mailbox"));
  return app;
}
