import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import pg from "pg";
import { CONSISTENCY_POSITION_HEADER, CURRENT_TERMS_VERSION, ClientPositions } from "@booking/contracts";
import { expertStream } from "@booking/engine";
import {
  PostgresEventStore,
  PostgresKeyRing,
  PostgresSnapshotStore,
  SnapshotSeal,
  masterKeyFromSecret,
  snapshotKeyFromSecret,
} from "@booking/event-store";
import { InProcessProjector, allProjections } from "@booking/projections";
import { TEST_DATA_KEY_SECRET, createTestDatabase } from "@booking/testkit";
import { newSecret, sealSecret, twoFactorKey } from "../src/auth/authenticator.ts";
import { confirmEnrolment, startEnrolment } from "../src/auth/two-factor-table.ts";
import { buildApp, type AppOptions } from "../src/main/app.ts";
import { createContext, type AppContext, type ContextInput } from "../src/main/context.ts";
import { sealedEventStore } from "../src/main/event-store.ts";
import type { PaymentProvider } from "../src/payments/provider.ts";
import type { PayoutProvider } from "../src/payouts/provider.ts";
import { migrateApiDatabase } from "../src/main/schema.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

export type Role = "creator" | "expert" | "admin";
export type TestUser = { id: string; role: Role; email: string; token: string };

export type TestApi = {
  app: FastifyInstance;
  ctx: AppContext;
  databaseUrl: string;
  call: (
    method: InjectOptions["method"],
    url: string,
    options?: { user?: TestUser; body?: unknown; headers?: Record<string, string> },
  ) => Promise<LightMyRequestResponse>;
  /** A user known to the read models, with an access token (no auth routes needed); an admin has two-factor sign-in on. */
  user: (role: Role, options?: { acceptTerms?: boolean; firstName?: string }) => Promise<TestUser>;
  /**
   * Our team approves the expert (their profile saved first), so creators can book them: the console's
   * Verify, which counts as an approval (issue 30). Tests of the application itself go through its routes.
   */
  approve: (expert: TestUser | string) => Promise<void>;
  /** Stop keeping the read models up to date (to see what a lagging projector looks like). */
  stopProjector: () => Promise<void>;
  close: () => Promise<void>;
};

/** A stand-in provider until a test needs the real test provider. */
export const stubPayments: PaymentProvider = {
  name: "test",
  publishableKey: null,
  createIntent: async ({ bookingId }) => ({ paymentId: `pi_${bookingId}`, clientSecret: `pi_${bookingId}_secret_stub` }),
};

export const TEST_JWT_SECRET = "test-secret-that-is-long-enough-for-hs256!";

/**
 * Two-factor sign-in on for `userId`, straight in its table (what enrolling and confirming leave), with
 * `secret` (base32; a new one by default, returned so a test can make codes). Admins need it for the
 * console's routes (issue 33.4): the harness's admins get one, as a real admin sets one up.
 */
export async function turnOnTwoFactor(db: pg.Pool, userId: string, at: string, secret = newSecret()): Promise<string> {
  const sealed = sealSecret(twoFactorKey(TEST_JWT_SECRET), secret);
  await startEnrolment(db, userId, sealed, at);
  await confirmEnrolment(db, { userId, sealedSecret: sealed, step: 0, recoveryHashes: [] }, at);
  return secret;
}

/** The whole API over real Postgres: event store, read models kept by an in-process projector. */
export async function startTestApi(
  options: {
    clock?: () => string;
    payments?: PaymentProvider;
    /** Where experts are paid (default: the test payouts provider). */
    payoutProvider?: PayoutProvider;
    stripeWebhookSecret?: string;
    /** The Connect endpoint's secret, beside the platform's. */
    stripeConnectWebhookSecret?: string;
    listingsCache?: ContextInput["listingsCache"];
    logger?: AppOptions["logger"];
    /** host:port pairs a connected calendar may be read from over plain http (the test's own servers, issue 32). */
    calendarPlainHosts?: readonly string[];
    /** More routes or plugins (the built web app, a test-only route) before the app is ready. */
    beforeReady?: (app: FastifyInstance) => Promise<void> | void;
    /**
     * As in production (default true): personal fields sealed in the log with TEST_DATA_KEY_SECRET, snapshots too.
     * False: a store from before sealing began (the migration that seals it is tested on one).
     */
    sealPersonalData?: boolean;
    /** Another API process on the database of `databaseUrl` (migrated already; it is left for its owner to drop). */
    joinDatabase?: string;
  } = {},
): Promise<TestApi> {
  const database = options.joinDatabase
    ? { url: options.joinDatabase, drop: async () => undefined }
    : await createTestDatabase(testPostgresUrl(), "api");
  const db = new pg.Pool({ connectionString: database.url, max: 8 });
  db.on("error", () => undefined);
  await migrateApiDatabase(db);
  const stored = await PostgresEventStore.connect(database.url, { pollIntervalMs: 20 });
  const dataKeys = await PostgresKeyRing.connect(database.url, masterKeyFromSecret(TEST_DATA_KEY_SECRET), {
    keysCommitBeforeTheirEvents: true,
  });
  const sealing = options.sealPersonalData ?? true;
  const store = sealing ? sealedEventStore(stored, dataKeys, db) : stored;
  const projector = new InProcessProjector(store, db, allProjections, { idleMs: 5 }).start();
  // As in production: the calendar handler writes and reads snapshots.
  const seal = sealing ? new SnapshotSeal(snapshotKeyFromSecret(TEST_DATA_KEY_SECRET)) : undefined;
  const snapshots = await PostgresSnapshotStore.connect(db, seal && { seal });
  const mediaDir = await mkdtemp(join(tmpdir(), "api-media-"));
  const ctx = createContext({
    store,
    dataKeys,
    db,
    clock: options.clock ?? (() => new Date().toISOString()),
    holdMinutes: 15,
    mediaDir,
    jwtSecret: TEST_JWT_SECRET,
    snapshots,
    payments: options.payments ?? stubPayments,
    stripeWebhookSecrets: [options.stripeWebhookSecret, options.stripeConnectWebhookSecret].filter((s) => s !== undefined),
    ...(options.payoutProvider && { payoutProvider: options.payoutProvider }),
    feed: null,
    ...(options.listingsCache && { listingsCache: options.listingsCache }),
    ...(options.calendarPlainHosts && { calendarPlainHosts: options.calendarPlainHosts }),
  });
  // Tests give calls their own client address through X-Forwarded-For (rate limits key on it).
  const app = await buildApp(ctx, { trustProxy: true, logger: options.logger });
  await options.beforeReady?.(app);
  await app.ready();

  // As the product's clients do (issue 34.1): the newest position a reply named goes with every later call, so a test's
  // next step shows what its earlier steps wrote.
  const positions = new ClientPositions();
  const call: TestApi["call"] = async (method, url, o = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...(o.user ? { authorization: `Bearer ${o.user.token}` } : {}), ...positions.headers(), ...o.headers },
      ...(o.body === undefined ? {} : { payload: o.body as InjectOptions["payload"] }),
    });
    positions.heard(response.headers[CONSISTENCY_POSITION_HEADER] as string | undefined);
    return response;
  };

  const user: TestApi["user"] = async (role, o = {}) => {
    const id = randomUUID();
    const email = `${role}-${id.slice(0, 8)}@example.com`;
    await store.append(
      `user-${id}`,
      [
        {
          type: "UserRegistered",
          data: { userId: id, email, role, firstName: o.firstName ?? role, lastName: "Test" },
          metadata: { at: ctx.clock() },
        },
      ],
      "no_stream",
    );
    const u = { id, role, email, token: app.jwt.sign({ sub: id, role, email, sid: randomUUID() }) };
    if (role === "admin") await turnOnTwoFactor(db, id, ctx.clock());
    if (o.acceptTerms ?? true) {
      const r = await call("POST", "/api/v1/terms/accept", { user: u, body: { version_id: CURRENT_TERMS_VERSION } });
      if (r.statusCode !== 200) throw new Error(`terms: ${r.statusCode} ${r.body}`);
    }
    return u;
  };

  const approve: TestApi["approve"] = async (expert) => {
    const expertId = typeof expert === "string" ? expert : expert.id;
    const admin = { userId: "test-admin", role: "admin" as const };
    const r = await ctx.experts.handle(expertStream(expertId), { type: "VerifyExpert", expertId, actor: admin }, { actor: admin });
    if (!r.ok) throw new Error(`approve ${expertId}: ${r.refusal.code}`);
    await ctx.projected(r.value);
  };

  return {
    app,
    ctx,
    databaseUrl: database.url,
    call,
    user,
    approve,
    stopProjector: () => projector.stop(),
    close: async () => {
      await app.close();
      await projector.stop();
      await ctx.calendar.snapshotsWritten();
      await store.close();
      await dataKeys.close();
      await db.end();
      await database.drop();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}
