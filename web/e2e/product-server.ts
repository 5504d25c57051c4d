import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, freePort } from "@booking/testkit";
import { commandHandlers } from "../../api/src/main/commands.ts";
import { completeSessionsOver } from "../../api/src/bookings/completion-sweeper.ts";
import { apiConfig } from "../../api/src/main/config.ts";
import { BUILT_APPS } from "../../api/src/main/built-apps.ts";
import { runApi, type RunningApi } from "../../api/src/main/server.ts";
import { PayoutReactor, releaseEarnings } from "../../api/src/payouts/index.ts";

export const ADMIN = { email: "admin@example.com", password: "Admin-password-42" };

/** `webDir`: the web app's files this product serves (web/dist, or its own copy: see `ownWebBuild`). */
export type ProductServer = { url: string; api: RunningApi; webDir: string; stop: () => Promise<void> };

/** The whole product in this process: the API on a fresh database, serving the built web app at `/`. */
/** `calendarPlainHosts`: host:port pairs the expert's own calendars may be read from over plain http (the walk's own servers, issue 32). */
/**
 * `host`: the name the browser reaches the product by (default 127.0.0.1). "localhost" where a walk uses passkeys (issue 33.4):
 * WebAuthn takes a domain for the site a passkey belongs to, never an IP address. The API listens on 127.0.0.1 either way.
 */
export async function startProduct(
  serverUrl: string,
  options: { calendarPlainHosts?: readonly string[]; host?: "127.0.0.1" | "localhost"; ownWebBuild?: boolean } = {},
): Promise<ProductServer> {
  const host = options.host ?? "127.0.0.1";
  const database = await createTestDatabase(serverUrl, "web");
  const mediaDir = await mkdtemp(join(tmpdir(), "web-e2e-media-"));
  // A walk that serves a variant build (serveVariant) gets its own copy of web/dist to write over:
  // the walks run side by side, and the others go on serving the shared build.
  const webDir = options.ownWebBuild ? await mkdtemp(join(tmpdir(), "web-e2e-dist-")) : BUILT_APPS.web;
  if (options.ownWebBuild) await cp(BUILT_APPS.web, webDir, { recursive: true });
  const port = await freePort();
  const config = apiConfig.parse({
    DATABASE_URL: database.url,
    JWT_SECRET: "web-e2e-secret-that-is-long-enough-for-hs256",
    PORT: String(port),
    HOST: "127.0.0.1",
    // Links in mails point where the walk's browser opens the product.
    PUBLIC_URL: `http://${host}:${port}`,
    MEDIA_DIR: mediaDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // The walks sign the admin in with the password alone (the console's sign-in page, the mailbox through
    // the API): the console's routes need no second factor here (issue 33.4; the API suites enrol theirs).
    ADMIN_TWO_FACTOR: "optional",
    AUTH_RATE_LIMIT_MAX: "10000",
    // A walk pays its experts when it says so: a weekly payout (asked for within a minute of real
    // time, once money is available on its payout day) would race an expert's own request.
    PAYOUTS_WEEKDAY: "none",
    CALENDAR_FETCH_ALLOW_HTTP: (options.calendarPlainHosts ?? []).join(","),
  });
  const api = await runApi(config, { builtApps: { ...BUILT_APPS, web: webDir } });
  return {
    url: `http://${host}:${config.PORT}`,
    api,
    webDir,
    stop: async () => {
      await api.stop();
      await database.drop();
      await rm(mediaDir, { recursive: true, force: true });
      if (options.ownWebBuild) await rm(webDir, { recursive: true, force: true });
    },
  };
}

/**
 * One run of the completion sweeper as if the clock read `at`: a walk cannot wait for a session to
 * end, so the product's own sweep and the calendar's rules decide at that time. Returns how many
 * bookings it completed.
 */
export function sweepCompletionsAt(api: RunningApi, at: string): Promise<number> {
  const clock = () => at;
  return completeSessionsOver({ db: api.ctx.db, calendar: commandHandlers(api.ctx.store, clock).calendar, clock });
}

/**
 * The payouts area's sweep and its reactor, once, as if the clock read `at`: a walk cannot wait out
 * the clearing period, so the product's own release rule (completed, and the period over) decides
 * at that time, and the reactor transfers each share released then. Returns how many bookings it
 * released.
 */
export async function releaseEarningsAt(api: RunningApi, at: string): Promise<number> {
  const clock = () => at;
  const { store, db, payoutProvider } = api.ctx;
  const payouts = commandHandlers(store, clock).payouts;
  const reactor = new PayoutReactor({ log: store, db, payouts, provider: payoutProvider, clock }, { name: "payouts" });
  await reactor.runOnce(); // the payouts tables up to the end of the log: the booking's completion in them
  const released = await releaseEarnings({ db, payouts, clock });
  await reactor.runOnce();
  return released;
}
