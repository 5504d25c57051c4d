import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_TERMS_VERSION, EXPERT_STANDARDS_VERSION, VETTING_CHECKLIST_LABELS, readDomainEvent } from "@booking/contracts";
import { calendarStream, expertStream, reviewStream, termsStream } from "@booking/engine";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../../api/src/main/seed.ts";
import type { RunningApi } from "../../api/src/main/server.ts";
import { launchChromium, takeCspViolations } from "../../web/e2e/chromium.ts";
import { replyOf } from "../../web/e2e/product-api.ts";
import { adminToken, signUpVerified, tokenOf } from "../../web/e2e/mailbox.ts";
import { ADMIN, startProduct, sweepCompletionsAt, type ProductServer } from "../../web/e2e/product-server.ts";
import { expectRefreshTokenOutOfScripts, REFRESH_COOKIES, SIGNED_IN_KEYS } from "../../web/e2e/signed-in-browser.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// The admin console in a real Chromium against the real API (startProduct: Fastify, Postgres event
// store, in-process projector, test payments) serving the built console at /admin/. Data is made
// the way the product makes it: demo seed, then bookings, payments and cancellations over HTTP.

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const artifacts = fileURLToPath(new URL("./artifacts/", import.meta.url));
const OLD_TERMS = "2024-06";
const TEST_CARD = "4242 4242 4242 4242";

type Session = { access_token: string; expires_at: number; user: { id: string; role: string } };
type Signed = { token: string; id: string };
type BookingReply = { booking: { id: string; status: string; scheduled_time: string } };

let product: ProductServer;
let api: RunningApi;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The scripts the console's page asked for, in order (paths under /admin/). */
const scriptsFetched: string[] = [];

/** What the suite made, to look for in the console. */
const made = {
  expertId: "",
  sessionTitle: "",
  bookings: { pending: "", confirmed: "", cancelled: "" },
  scheduled: { pending: "", confirmed: "", cancelled: "" },
  oldTermsUser: { id: "", email: "late-reader@example.com" },
  newcomer: { id: "", slug: "", email: "noor@example.com" },
  adminId: "",
};

const call = <T>(method: string, path: string, options: { body?: unknown; token?: string } = {}) =>
  replyOf<T>(base, method, path, options.token ?? null, options.body);

async function must<T>(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<T> {
  const r = await call<T>(method, path, options);
  if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

async function signIn(email: string, password: string): Promise<Signed> {
  const session = await must<Session>("POST", "/auth/login", { body: { email, password } });
  return { token: session.access_token, id: session.user.id };
}

/** The first bookable time on each of `count` different UTC days. */
function startsOnDistinctDays(times: string[], count: number): string[] {
  const picked = new Map<string, string>();
  for (const t of times) if (!picked.has(t.slice(0, 10))) picked.set(t.slice(0, 10), t);
  const starts = [...picked.values()].slice(1, count + 1); // skip today: keep clear of "now"
  if (starts.length < count) throw new Error(`only ${starts.length} bookable days`);
  return starts;
}

async function pay(creator: Signed, bookingId: string): Promise<void> {
  const intent = await must<{ clientSecret: string }>("POST", "/stripe/test-intent", { token: creator.token, body: { bookingId } });
  await must("POST", "/payments/test/confirm", {
    token: creator.token,
    body: { client_secret: intent.clientSecret, card_number: TEST_CARD },
  });
}

async function seed(): Promise<void> {
  // The three experts and the creator alone: this suite counts the rows it makes itself.
  await seedDemoData(api.app, api.ctx, { history: false });
  const creator = await signIn(DEMO_CREATOR.email, DEMO_PASSWORD);
  const ava = await signIn("ava@example.com", DEMO_PASSWORD);
  made.expertId = ava.id;
  const sessions = await must<{ id: string; title: string }[]>("GET", `/experts/${ava.id}/sessions`);
  const session = sessions.find((s) => s.title === "Audience growth plan")!;
  made.sessionTitle = session.title;
  const { times } = await must<{ times: string[] }>("GET", `/sessions/${session.id}/availability`);
  const [pendingAt, confirmedAt, cancelledAt] = startsOnDistinctDays(times, 3) as [string, string, string];

  const book = async (scheduled_time: string) =>
    (await must<BookingReply>("POST", "/bookings", { token: creator.token, body: { session_id: session.id, scheduled_time } })).booking;
  // Pending: requested, not paid.
  const pending = await book(pendingAt);
  // Confirmed: paid with the test card, then confirmed by the expert.
  const confirmed = await book(confirmedAt);
  await pay(creator, confirmed.id);
  await must("PATCH", `/bookings/${confirmed.id}/status`, { token: ava.token, body: { status: "confirmed" } });
  // Cancelled: paid, then cancelled by the creator (refund due).
  const cancelled = await book(cancelledAt);
  await pay(creator, cancelled.id);
  await must("PATCH", `/bookings/${cancelled.id}/status`, {
    token: creator.token,
    body: { status: "cancelled", reason: "Schedule clash" },
  });
  made.bookings = { pending: pending.id, confirmed: confirmed.id, cancelled: cancelled.id };
  made.scheduled = { pending: pendingAt, confirmed: confirmedAt, cancelled: cancelledAt };

  // A creator who accepted an earlier terms version, recorded when it was current (history: through the engine).
  const admin = await adminToken(base, ADMIN);
  const late = await signUpVerified<Session>(base, admin, {
    email: made.oldTermsUser.email,
    password: DEMO_PASSWORD,
    role: "creator",
    first_name: "Lee",
    last_name: "Late",
  });
  made.oldTermsUser.id = late.user.id;
  const actor = { userId: late.user.id, role: "creator" as const };
  const accepted = await api.ctx.terms.handle(
    termsStream(late.user.id),
    { type: "AcceptTerms", userId: late.user.id, actor, versionId: OLD_TERMS, currentVersionId: OLD_TERMS },
    { actor },
  );
  if (!accepted.ok) throw new Error(`old terms: ${JSON.stringify(accepted.refusal)}`);
  await api.ctx.projected(accepted.value);

  // An expert with a published profile, not vetted yet.
  const noor = await signUpVerified<Session>(base, admin, {
    email: made.newcomer.email,
    password: DEMO_PASSWORD,
    role: "expert",
    first_name: "Noor",
    last_name: "Haddad",
  });
  await must("POST", "/terms/accept", { token: noor.access_token, body: { version_id: CURRENT_TERMS_VERSION } });
  const profile = await must<{ slug: string; verified: boolean }>("PATCH", "/experts/me", {
    token: noor.access_token,
    body: {
      first_name: "Noor",
      last_name: "Haddad",
      title: "Podcast Producer",
      bio: "Launches and grows podcasts.",
      tags: ["Podcasting"],
      published: true,
    },
  });
  expect(profile.verified).toBe(false);
  made.newcomer = { ...made.newcomer, id: noor.user.id, slug: profile.slug };
  made.adminId = (await signIn(ADMIN.email, ADMIN.password)).id;
}

/** expect.poll with room for a debounced filter, a refetch or a polling interval. */
const eventually = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 15_000, interval: 100 });

const consoleUrl = (hashPath = "") => `${base}/admin/${hashPath ? `#${hashPath}` : ""}`;

/** The console's signed-in marker: the session itself is in the page's memory and its HttpOnly cookie (issue 33.6). */
async function signedInMarker(): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), SIGNED_IN_KEYS.console);
}

/** The console's refresh cookie in the browser, if it has one. */
async function consoleCookie(): Promise<string | null> {
  return (await context.cookies()).find((c) => c.name === REFRESH_COOKIES.console)?.value ?? null;
}

/** A refresh as the console's page sends it, with `token` in its cookie. */
const refreshWith = (token: string) =>
  fetch(`${base}/api/v1/auth/refresh`, {
    method: "POST",
    headers: { cookie: `${REFRESH_COOKIES.console}=${token}`, "x-session-app": "console" },
  });

/** The console's own chunk (app.tsx: react-admin's <Admin> and the resources' shell), as the build named it. */
function consoleChunk(): string {
  const name = readdirSync(join(repoRoot, "admin/dist/assets")).find((f) => /^app-[\w-]+\.js$/.test(f));
  if (!name) throw new Error("admin/dist has no console chunk (app-*.js)");
  return `/admin/assets/${name}`;
}

/** Whether a built script holds react-admin's code: its messages' keys (ra.auth.sign_in...) come with it. */
async function holdsReactAdmin(path: string): Promise<boolean> {
  return /\bra\.(auth|notification|action|page)\./.test(
    await readFile(join(repoRoot, "admin/dist", path.replace(/^\/admin\//, "")), "utf8"),
  );
}

async function fillSignIn(email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The record rows of the list on screen (not expanded panels), once it shows `count` of them. */
async function listRows(count: number) {
  const rows = page.locator("table tbody tr.RaDataTable-row");
  await eventually(() => rows.count()).toBe(count);
  return rows;
}

/** The record rows of the list on screen, once it shows at least `count` of them. */
async function listRowsAtLeast(count: number) {
  const rows = page.locator("table tbody tr.RaDataTable-row");
  await eventually(() => rows.count()).toBeGreaterThanOrEqual(count);
  return rows;
}

beforeAll(async () => {
  expect(existsSync(join(repoRoot, "admin/dist/index.html")), "the global setup builds admin/dist").toBe(true);
  // The same product server as the web app's walks: the API on a fresh database, serving the built apps.
  product = await startProduct(testPostgresUrl());
  api = product.api;
  base = api.url;
  await seed();
  await mkdir(artifacts, { recursive: true });
  // The shared launcher: every page reports what the API's Content-Security-Policy blocks.
  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 1440, height: 1000 },
    acceptDownloads: true,
    locale: "en-US",
    timezoneId: "UTC",
  });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on("request", (r) => {
    if (r.resourceType() === "script") scriptsFetched.push(new URL(r.url()).pathname);
  });
});

// The console runs under the API's Content-Security-Policy: anything it blocks fails the test.
afterEach(() => {
  expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe("the admin console", () => {
  it("refuses a creator's credentials on the sign-in page and ends the session they opened", async () => {
    await page.addInitScript(() => {
      const w = window as unknown as { pushes: number };
      w.pushes = 0;
      const push = history.pushState.bind(history);
      history.pushState = (...args: Parameters<History["pushState"]>) => {
        w.pushes++;
        push(...args);
      };
    });
    const opening = Date.now();
    await page.goto(consoleUrl());
    await page.getByLabel("Email").waitFor();
    expect(page.url()).toContain("#/login");
    // Straight to the sign-in page: one redirect, no sign-out loop (react-admin issue #10764).
    expect(await page.evaluate(() => (window as unknown as { pushes: number }).pushes)).toBeLessThanOrEqual(2);
    expect(Date.now() - opening).toBeLessThan(5_000);
    const login = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/login"));
    await fillSignIn(DEMO_CREATOR.email, DEMO_PASSWORD);
    const reply = await login;
    const opened = (await reply.json()) as Session;
    expect(opened.user.role).toBe("creator");
    // The session's refresh token came in the console's cookie, not in the reply's body.
    const openedToken = /console_refresh_token=([\w-]{43})/.exec((await reply.headerValue("set-cookie")) ?? "")?.[1];
    expect(openedToken).toBeDefined();

    await eventually(() => page.getByTestId("sign-in-error").textContent()).toBe("This console is for admins only.");
    expect(page.url()).toContain("#/login");
    expect(await signedInMarker()).toBeNull();
    // The console revoked that session and cleared its cookie: the refresh token no longer works.
    expect(await consoleCookie()).toBeNull();
    expect((await refreshWith(openedToken!)).status).toBe(401);

    // A wrong password is refused with the API's message.
    await fillSignIn(ADMIN.email, "not-the-password-1");
    await eventually(() => page.getByTestId("sign-in-error").textContent()).toBe("Email or password is incorrect.");

    // Issue 34: signed out, the page is the sign-in page alone; react-admin and the console come once an admin signs in.
    expect(scriptsFetched.length).toBeGreaterThan(0);
    expect(scriptsFetched).not.toContain(consoleChunk());
    for (const path of scriptsFetched) expect(await holdsReactAdmin(path), path).toBe(false);
  });

  it("signs the admin in to the dashboard: bookings by status, the last 30 days, projector lag", async () => {
    await fillSignIn(ADMIN.email, ADMIN.password);
    await page.getByTestId("bookings-by-status").waitFor();
    // Signing in loaded the console (issue 34), at the dashboard.
    expect(scriptsFetched).toContain(consoleChunk());
    expect(page.url()).toBe(consoleUrl("/"));
    // Issue 33.6: the console's refresh token is in its HttpOnly cookie, which no script of the page can read.
    const token = await expectRefreshTokenOutOfScripts(page, "console");
    expect((await context.cookies()).map((c) => c.name)).not.toContain(REFRESH_COOKIES.web);
    // A reload keeps the admin signed in: the page takes the session up from the cookie, rotating it.
    const refreshed = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/refresh"));
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await page.getByTestId("bookings-by-status").waitFor();
    expect(await expectRefreshTokenOutOfScripts(page, "console")).not.toBe(token);
    // The identity from /auth/me is in the app bar.
    await page.getByText("Admin", { exact: true }).first().waitFor();

    for (const status of ["pending", "confirmed", "cancelled", "completed"] as const) {
      const expected = status === "completed" ? "0" : "1";
      await eventually(() => page.getByTestId(`status-${status}`).getAttribute("data-count")).toBe(expected);
    }
    await eventually(() => page.getByTestId("bookings-30-days").textContent()).toBe("3");
    // Revenue: the confirmed booking's $150; the cancelled one was paid and is owed back.
    await eventually(() => page.getByTestId("revenue-30-days").textContent()).toBe("$150.00");
    await eventually(() => page.getByTestId("lag-bookings").getAttribute("data-lag")).toMatch(/^\d+$/);
    await page.screenshot({ path: join(artifacts, "dashboard.png"), fullPage: true, animations: "disabled" });
  });

  it("filters bookings by status and date, opens one, and shows a timeline that matches the event store", async () => {
    await page.goto(consoleUrl("/bookings"));
    await listRows(3);

    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Cancelled" }).click();
    const cancelledDay = made.scheduled.cancelled.slice(0, 10);
    await page.getByLabel("Scheduled from").fill(cancelledDay);
    await page.getByLabel("Scheduled to").fill(cancelledDay);
    await eventually(() => decodeURIComponent(page.url())).toContain(`"scheduled_to":"${cancelledDay}"`);
    const filter = JSON.parse(new URL(page.url().replace("#/", "")).searchParams.get("filter") ?? "{}") as Record<string, string>;
    expect(filter).toMatchObject({ status: "cancelled", scheduled_from: cancelledDay, scheduled_to: cancelledDay });
    const rows = await listRows(1);
    await eventually(() => rows.first().textContent()).toContain(made.sessionTitle);
    await eventually(() => rows.first().textContent()).toContain("Cancelled");
    await page.screenshot({ path: join(artifacts, "bookings-filtered.png"), fullPage: true, animations: "disabled" });

    // The same date with another status shows nothing.
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Confirmed" }).click();
    await eventually(() => page.getByText("No bookings found using the current filters.").count()).toBe(1);
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Cancelled" }).click();
    await (await listRows(1)).first().getByText(made.sessionTitle).click();

    await eventually(() => page.url()).toContain(`/bookings/${made.bookings.cancelled}/show`);
    const entries = page.getByTestId("timeline-entry");
    // The refund reactor pays the cancellation's refund back: its event ends the history.
    const history = async () =>
      (await api.ctx.store.readStream(calendarStream(made.expertId))).events.filter(
        (e) => (e.data as { bookingId?: string }).bookingId === made.bookings.cancelled,
      );
    await eventually(async () => (await history()).map((e) => e.type)).toEqual([
      "BookingRequested",
      "PaymentSucceeded",
      "Cancelled",
      "RefundIssued",
    ]);
    const expected = await history();
    await page.reload();
    await eventually(() => entries.count()).toBe(expected.length);

    const shown = await entries.evaluateAll((nodes) =>
      nodes.map((n) => ({
        eventId: n.getAttribute("data-event-id"),
        type: n.getAttribute("data-type"),
        version: Number(n.getAttribute("data-version")),
        time: n.getAttribute("data-time"),
        actor: n.getAttribute("data-actor"),
        payload: JSON.parse(n.querySelector("[data-testid=timeline-payload]")?.textContent ?? "null") as unknown,
        text: n.textContent ?? "",
      })),
    );
    // Same events, same (stream) order, newest last, each with its time, actor and payload.
    expect(shown.map(({ text: _text, ...rest }) => rest)).toEqual(
      expected.map((e) => ({
        eventId: e.eventId,
        type: e.type,
        version: e.version,
        time: e.metadata.at,
        actor: e.metadata.actor ? `${e.metadata.actor.role}:${e.metadata.actor.userId}` : "",
        payload: readDomainEvent(e.type, e.schemaVersion, e.data).data,
      })),
    );
    expect(shown.at(-2)!.text).toContain("Cancelled");
    // "Who": the creator who cancelled, by email; the refund was the system's.
    await eventually(() => entries.nth(2).textContent()).toContain(DEMO_CREATOR.email);
    await eventually(() => entries.first().textContent()).toContain("creator");
    await eventually(() => entries.last().textContent()).toContain("system");
    // The money trail: paid, owed back, refunded.
    const paid = (expected[1]!.data as { amountCents: number }).amountCents;
    const dollars = `$${(paid / 100).toFixed(2)}`;
    await eventually(() => page.getByText("Refunds owed").count()).toBeGreaterThan(0);
    await eventually(async () => (await page.getByText(dollars, { exact: true }).count()) >= 3).toBe(true);
    await eventually(() => page.getByText("Refunded", { exact: true }).count()).toBeGreaterThan(0);
    // Columns the page does not place by hand are shown as they are: a new read-model column needs no console edit.
    await page.getByText("Confirmed at", { exact: true }).waitFor();
    await page.getByText("Expert user id", { exact: true }).waitFor();
    await page.screenshot({ path: join(artifacts, "booking-timeline.png"), fullPage: true, animations: "disabled" });
  });

  it("refunds part of a paid booking from its page; the refunds list shows it paid back", async () => {
    await page.goto(consoleUrl(`/bookings/${made.bookings.confirmed}/show`));
    await page.getByRole("button", { name: "Refund" }).click();
    const dialog = page.getByRole("dialog", { name: "Refund this booking" });
    await dialog.getByLabel("Amount (USD)").fill("25");
    await dialog.getByLabel("Reason").fill("Started late");
    await dialog.getByRole("button", { name: "Refund" }).click();
    await page.getByText("A refund of $25.00 is owed; it is being paid back.").waitFor();
    // An amount above what is left is refused with the catalogue's words.
    await page.getByRole("button", { name: "Refund" }).click();
    await dialog.getByLabel("Amount (USD)").fill("100000");
    await dialog.getByLabel("Reason").fill("Too much");
    await dialog.getByRole("button", { name: "Refund" }).click();
    await page.getByText(/You can refund at most \$[\d,.]+ for this booking/).waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await page.goto(consoleUrl("/refunds"));
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Issued" }).click();
    await page.keyboard.press("Escape");
    const row = page.locator("table tbody tr.RaDataTable-row").filter({ hasText: "Started late" });
    await eventually(() => row.count()).toBe(1);
    await eventually(() => row.textContent()).toContain("$25.00");
    await eventually(() => row.getByTestId("refund-issued").count()).toBe(1);
    // The booking's own event says who refunded and why.
    const { events } = await api.ctx.store.readStream(calendarStream(made.expertId));
    const due = events.filter((e) => e.type === "RefundDue" && (e.data as { bookingId: string }).bookingId === made.bookings.confirmed);
    expect(due.map((e) => [e.data, e.metadata.actor])).toEqual([
      [expect.objectContaining({ amountCents: 2_500, reason: "Started late" }), { userId: made.adminId, role: "admin" }],
    ]);
    await page.screenshot({ path: join(artifacts, "refunds.png"), fullPage: true, animations: "disabled" });
  });

  it("hides a review with a reason: it leaves the expert's profile and rating, and the reason stays in its history", async () => {
    // The confirmed booking's session is over: the completion sweeper completes it, and its creator reviews it.
    const reviewed = made.bookings.confirmed;
    expect(await sweepCompletionsAt(api, new Date(Date.parse(made.scheduled.confirmed) + 2 * 3_600_000).toISOString())).toBe(1);
    const creator = await signIn(DEMO_CREATOR.email, DEMO_PASSWORD);
    await eventually(async () => (await must<{ status: string }>("GET", `/bookings/${reviewed}`, { token: creator.token })).status).toBe(
      "completed",
    );
    const text = "Rushed, and it named my sponsor's rival in public.";
    await must("POST", `/bookings/${reviewed}/review`, { token: creator.token, body: { rating: 2, text } });
    const listed = async () =>
      (await must<{ user_id: string; slug: string; rating: number | null; review_count: number }[]>("GET", "/experts")).find(
        (e) => e.user_id === made.expertId,
      )!;
    const { slug } = await listed();
    const profileReviews = async () =>
      (await must<{ reviews: { review: string }[] }>("GET", `/experts/${slug}`)).reviews.map((r) => r.review);
    expect(await profileReviews()).toEqual([text]);
    await eventually(async () => (await listed()).review_count).toBe(1);

    await page.goto(consoleUrl(`/reviews?filter=${encodeURIComponent("{}")}`));
    const row = (await listRows(1)).first();
    await eventually(() => row.textContent()).toContain(text);
    await row.getByTestId("review-visible").waitFor();
    await row.getByRole("button", { name: "Hide", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Hide this review" });
    // No reason, no hiding.
    expect(await dialog.getByRole("button", { name: "Hide review" }).isDisabled()).toBe(true);
    await dialog.getByLabel("Reason").fill("Names a third party");
    const put = page.waitForRequest((r) => r.method() === "PUT" && r.url().endsWith(`/admin/reviews/${reviewed}`));
    await dialog.getByRole("button", { name: "Hide review" }).click();
    expect((await put).postDataJSON()).toEqual({ reason: "Names a third party" });
    await page.getByText("The review is hidden from the profile and the rating.").waitFor();
    await row.getByTestId("review-hidden").waitFor();

    // It leaves the public profile and the listing's rating.
    await eventually(profileReviews).toEqual([]);
    await eventually(async () => [(await listed()).rating, (await listed()).review_count]).toEqual([null, 0]);
    // Its page keeps the reason and who hid it; so does the review's own stream.
    await row.getByText(text).click();
    await eventually(() => page.url()).toContain(`/reviews/${reviewed}/show`);
    await page.getByText("Names a third party", { exact: true }).first().waitFor();
    await page.getByText(ADMIN.email, { exact: true }).first().waitFor();
    const { events } = await api.ctx.store.readStream(reviewStream(reviewed));
    expect(events.map((e) => e.type)).toEqual(["ReviewLeft", "ReviewHidden"]);
    expect(events.at(-1)).toMatchObject({
      data: { reason: "Names a third party", by: made.adminId },
      metadata: { actor: { userId: made.adminId, role: "admin" } },
    });
    await page.screenshot({ path: join(artifacts, "review-hidden.png"), fullPage: true, animations: "disabled" });
  });

  it("filters terms acceptances by version and exports them as CSV", async () => {
    await page.goto(consoleUrl("/terms-acceptances"));
    // Three experts, the two applicants, the demo creator and the newcomer expert accepted the current version; one user an older one.
    await listRows(8);
    await page.getByRole("textbox", { name: "Terms version" }).fill(OLD_TERMS);
    await eventually(() => decodeURIComponent(page.url())).toContain(`"version_id":"${OLD_TERMS}"`);
    const rows = await listRows(1);
    await eventually(() => rows.first().textContent()).toContain(made.oldTermsUser.email);

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^terms-acceptances-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, "utf8");
    const { rows: stored } = await api.ctx.db.query<{ user_id: string; version_id: string; accepted_at: Date }>(
      "SELECT user_id, version_id, accepted_at FROM terms_acceptances WHERE version_id = $1",
      [OLD_TERMS],
    );
    expect(csv.trimEnd().split("\r\n")).toEqual([
      "user_id,email,version_id,accepted_at",
      ...stored.map((r) => `${r.user_id},${made.oldTermsUser.email},${r.version_id},${r.accepted_at.toISOString()}`),
    ]);

    // The current version: the export follows the filter.
    await page.getByRole("textbox", { name: "Terms version" }).fill(CURRENT_TERMS_VERSION);
    await listRows(7);
    const again = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const current = (await readFile((await (await again).path())!, "utf8")).trimEnd().split("\r\n");
    expect(current).toHaveLength(8);
    expect(current.slice(1).every((line) => line.split(",")[2] === CURRENT_TERMS_VERSION)).toBe(true);
    expect(current.join("\n")).not.toContain(made.oldTermsUser.id);
  });

  it("lists early-access requests sent through the landing page's form, filtered by role, with the versions a later request replaced", async () => {
    await must("POST", "/early-access", {
      body: { name: "Rosa Reel", email: "rosa-early@example.com", role: "creator", need: "Pricing my first brand deal" },
    });
    await must("POST", "/early-access", {
      body: { name: "Ezra Advisor", email: "ezra-early@example.com", role: "expert", need: "Meet podcasters who need a coach" },
    });
    await must("POST", "/early-access", {
      body: { name: "Rosa Reel", email: "rosa-early@example.com", role: "creator", need: "Pricing a podcast sponsorship" },
    });
    await page.goto(consoleUrl("/early-access"));
    const rows = await listRows(2);
    await eventually(() => rows.first().textContent()).toContain("ezra-early@example.com");
    await page.getByRole("combobox", { name: "Role" }).click();
    await page.getByRole("option", { name: "Creator" }).click();
    const creators = await listRows(1);
    await eventually(() => creators.first().textContent()).toMatch(
      /Rosa Reel.*rosa-early@example\.com.*creator.*Pricing a podcast sponsorship.*1, last changed/i,
    );
    // Issue 26 item 10: the request the later one replaced is kept, under the row.
    await creators.first().locator('[aria-label="Expand"]').click();
    await eventually(() => page.getByRole("region", { name: "Earlier versions" }).textContent()).toMatch(
      /Asked .* by Rosa Reel, as a creator.*Pricing my first brand deal/,
    );
  });

  it("verifies an expert: the decision is an event with the admin's id, and the public profile shows the badge", async () => {
    await page.goto(consoleUrl("/experts"));
    await page.getByPlaceholder("Name, title or slug").fill("Noor");
    const rows = await listRows(1);
    await eventually(() => rows.first().textContent()).toContain("Not verified");
    await rows.first().getByText("Noor Haddad").click();
    await eventually(() => page.url()).toContain(`/experts/${made.newcomer.id}/show`);

    const put = page.waitForRequest((r) => r.method() === "PUT" && r.url().endsWith(`/admin/experts/${made.newcomer.id}`));
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    // Issue 27.20: the decision is confirmed with a reason, kept with the event.
    const vetting = page.getByRole("dialog", { name: "Verify Noor Haddad?" });
    await vetting.getByLabel(/Reason/).fill("Portfolio and two references checked");
    await vetting.getByRole("button", { name: "Verify expert" }).click();
    expect((await put).postDataJSON()).toEqual({ verified: true, reason: "Portfolio and two references checked" });
    await page.getByTestId("verified-badge").first().waitFor();
    await page.getByRole("button", { name: "Unverify", exact: true }).waitFor();

    const { events } = await api.ctx.store.readStream(expertStream(made.newcomer.id));
    expect(events.at(-1)).toMatchObject({ type: "ExpertVerified", metadata: { actor: { userId: made.adminId, role: "admin" } } });
    const publicProfile = await must<{ verified: boolean; slug: string }>("GET", `/experts/${made.newcomer.slug}`);
    expect(publicProfile).toMatchObject({ verified: true, slug: made.newcomer.slug });
    expect((await must<{ id: string; verified: boolean }[]>("GET", "/experts")).find((e) => e.id === made.newcomer.id)?.verified).toBe(
      true,
    );
    // The vetting history on the page names the admin and the reason.
    await eventually(() => page.getByText(/Verified on .* by/).count()).toBeGreaterThan(0);
    // (in the history, and as the last decision's reason beside the status)
    await page
      .getByText(/Portfolio and two references checked/)
      .first()
      .waitFor();
    await page.screenshot({ path: join(artifacts, "expert-verified.png"), fullPage: true, animations: "disabled" });

    if (existsSync(join(repoRoot, "web/dist/index.html"))) {
      // The web app is built: its public profile page shows the badge too (the page needs a sign-in).
      const web = await context.newPage();
      const profileUrl = `${base}/expert-profile/${made.newcomer.slug}`;
      await web.goto(profileUrl);
      const password = web.locator("input[type=password]");
      await password.or(web.getByText("Noor Haddad")).first().waitFor({ timeout: 30_000 });
      if (await password.isVisible()) {
        await web.locator("input[type=email]").fill(DEMO_CREATOR.email);
        await password.fill(DEMO_PASSWORD);
        await password.press("Enter");
        await web.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 30_000 });
        if (!web.url().includes("/expert-profile/")) await web.goto(profileUrl);
      }
      await web.getByText("Noor Haddad").first().waitFor({ timeout: 30_000 });
      await web.getByText("Verified", { exact: true }).first().waitFor();
      await web.screenshot({ path: join(artifacts, "public-profile.png"), fullPage: true });
      await web.close();
    } else {
      console.warn("[admin-e2e] web/dist is not built: the badge is checked on GET /api/v1/experts/{slug} only");
    }
  });

  it("reviews an application: starts it, adds a note, asks for a change; the expert resubmits; approves it with the checklist", async () => {
    const lena = await signUpVerified<Session>(base, await adminToken(base, ADMIN), {
      email: "lena.applicant@example.com",
      password: DEMO_PASSWORD,
      role: "expert",
      first_name: "Lena",
      last_name: "Brook",
    });
    const token = lena.access_token;
    await must("POST", "/terms/accept", { token, body: { version_id: CURRENT_TERMS_VERSION } });
    await must("PATCH", "/experts/me", {
      token,
      body: { first_name: "Lena", last_name: "Brook", title: "Podcast editor", published: true },
    });
    const answers = {
      expertise: "Editing interview podcasts",
      title: "Podcast editor",
      bio: "I have edited over 400 interview episodes for independent shows, from rough cut to loudness-matched master.",
      links: ["https://example.com/lena"],
      years_of_experience: 6,
      creators_can_expect: "An edit plan for your next episode.",
      standards_version: EXPERT_STANDARDS_VERSION,
    };
    await must("POST", "/experts/me/application", { token, body: answers });

    // The queue, oldest first: the demo's waiting applicant, then Lena.
    await page.goto(consoleUrl("/applications"));
    const rows = await listRowsAtLeast(2);
    await eventually(async () =>
      (await rows.allTextContents()).map((t) => (t.includes("Lena Brook") ? "Lena" : t.includes("Quinn") ? "Quinn" : "?")),
    ).toEqual(["Quinn", "Lena"]);
    await page.getByText("Lena Brook").first().click();
    await eventually(() => page.url()).toContain(`/applications/${lena.user.id}/show`);
    await page.getByRole("link", { name: "https://example.com/lena" }).waitFor();
    await page.getByRole("button", { name: "Start review" }).click();
    await page.getByText("You are reviewing Lena Brook's application.").waitFor();
    await page.getByLabel("Note (for admins only)").fill("Portfolio loads; no show linked");
    await page.getByRole("button", { name: "Add note" }).click();
    await page.getByText("Note added.").waitFor();
    await page.getByRole("button", { name: "Request changes" }).click();
    const changes = page.getByRole("dialog", { name: "Request changes: Lena Brook?" });
    await changes.getByLabel(/Reason/).fill("Please add a link to a show you edited.");
    await changes.getByRole("button", { name: "Request changes" }).click();
    await page.getByText("Lena Brook is asked for changes.").waitFor();
    expect(await must<{ status: string; reason: string }>("GET", "/experts/me/application", { token })).toMatchObject({
      status: "changes_requested",
      reason: "Please add a link to a show you edited.",
    });

    await must("POST", "/experts/me/application", {
      token,
      body: { ...answers, links: [...answers.links, "https://example.com/lena/show"] },
    });
    await page.reload();
    await page.getByRole("link", { name: "https://example.com/lena/show" }).waitFor();
    for (const label of Object.values(VETTING_CHECKLIST_LABELS)) await page.getByLabel(label).check();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    const approve = page.getByRole("dialog", { name: "Approve: Lena Brook?" });
    await approve.getByLabel(/Reason/).fill("Strong editing portfolio");
    await approve.getByRole("button", { name: "Approve expert" }).click();
    await page.getByText("Lena Brook is approved.").waitFor();
    await page.screenshot({ path: join(artifacts, "application-approved.png"), fullPage: true, animations: "disabled" });

    const { events } = await api.ctx.store.readStream(expertStream(lena.user.id));
    const everyItem = Object.fromEntries(Object.keys(VETTING_CHECKLIST_LABELS).map((k) => [k, true]));
    expect(events.map((e) => e.type).slice(1)).toEqual([
      "ApplicationSubmitted",
      "ApplicationReviewStarted",
      "ApplicationNoted",
      "ApplicationChangesRequested",
      "ApplicationSubmitted",
      "ApplicationApproved",
    ]);
    expect(events.at(-1)).toMatchObject({
      data: { reason: "Strong editing portfolio", checklist: everyItem },
      metadata: { actor: { userId: made.adminId, role: "admin" } },
    });
    expect((await must<{ id: string }[]>("GET", "/experts")).some((e) => e.id === lena.user.id)).toBe(true);
  });

  it("rebuilds a read model and shows its progress until it is done", async () => {
    await page.goto(consoleUrl("/projections"));
    const row = page.locator("table tbody tr.RaDataTable-row", { hasText: /^bookings/ });
    await listRows(12); // every read model: the ledger (issue 29) and the conversation's two (issue 31.3) among them
    await row.first().waitFor();
    const token = (await signIn(ADMIN.email, ADMIN.password)).token;

    // A few dozen events rebuild in milliseconds: to watch the progress, the rebuild is held at its
    // start (this transaction holds a lock that the rebuild's TRUNCATE of the table waits for).
    const hold = await api.ctx.db.connect();
    try {
      await hold.query("BEGIN");
      await hold.query("LOCK TABLE bookings IN ACCESS SHARE MODE");
      const started = page.waitForResponse(
        (r) => r.request().method() === "POST" && r.url().endsWith("/admin/projections/bookings/rebuild"),
      );
      await row.getByRole("button", { name: "Rebuild bookings" }).click();
      await page.getByRole("dialog", { name: "Rebuild bookings?" }).getByRole("button", { name: "Rebuild", exact: true }).click();
      const accepted = await started;
      expect(accepted.status()).toBe(202);
      expect(((await accepted.json()) as { rebuild: { state: string } }).rebuild.state).toBe("running");

      await row.getByTestId("rebuild-running").waitFor();
      await row.getByRole("progressbar", { name: "Rebuild progress" }).waitFor();
      await eventually(() => row.getByTestId("rebuild-running").textContent()).toMatch(/^Rebuilding: \d+ \/ (\d+|\?) events/);
      expect(await row.getByRole("button", { name: "Rebuild bookings" }).isDisabled()).toBe(true);
      // One rebuild at a time.
      const second = await call<{ code: string }>("POST", "/admin/projections/bookings/rebuild", { token });
      expect(second).toEqual({
        status: 409,
        json: { code: "projection_rebuild_running", message: "This read model is already being rebuilt." },
      });
      await page.screenshot({ path: join(artifacts, "projections-rebuilding.png"), fullPage: true, animations: "disabled" });
    } finally {
      await hold.query("COMMIT");
      hold.release();
    }

    await row.getByTestId("rebuild-done").waitFor({ timeout: 60_000 });
    await page.getByText("Read model bookings rebuilt.").waitFor();
    await eventually(() => row.getByTestId("rebuild-done").textContent()).toMatch(/^Rebuilt from \d+ events/);
    const after = await must<{ status: string; lag: number; rebuild: { state: string; done: number; total: number } }>(
      "GET",
      "/admin/projections/bookings",
      { token },
    );
    expect(after.rebuild.state).toBe("done");
    expect(after.rebuild.done).toBe(after.rebuild.total);
    expect(after.status).toBe("live");
    await eventually(() => row.textContent()).toContain("live");
    await page.screenshot({ path: join(artifacts, "projections.png"), fullPage: true, animations: "disabled" });

    // The rebuilt read model still lists every booking (the list remembers its filters: clear them).
    await page.goto(consoleUrl(`/bookings?filter=${encodeURIComponent("{}")}`));
    await listRows(3);
  });

  it("takes the session up from its cookie on a new page load, rotating the refresh token", async () => {
    // The access token is in the page's memory only: a new load (here a new tab) refreshes by the cookie.
    // Refreshing ahead of expiry within a page is the session client's (session-client's unit tests).
    const before = (await consoleCookie())!;
    const tab = await context.newPage();
    const refreshed = tab.waitForResponse((r) => r.url().endsWith("/api/v1/auth/refresh"));
    await tab.goto(consoleUrl(`/users?filter=${encodeURIComponent("{}")}`));
    expect((await refreshed).status()).toBe(200);
    // The demo's people and the admin, the suite's newcomer, late user and applicant.
    await expect.poll(() => tab.locator("table tbody tr.RaDataTable-row").count(), { timeout: 15_000 }).toBe(10);
    await tab.close();
    const after = (await consoleCookie())!;
    expect(after).not.toBe(before);
    // Rotation: the old refresh token is used up (presenting it again would end the whole session).
    const used = await api.ctx.db.query<{ used_at: Date | null }>("SELECT used_at FROM refresh_tokens WHERE token_hash = $1", [
      createHash("sha256").update(before).digest("hex"),
    ]);
    expect(used.rows[0]?.used_at).toBeInstanceOf(Date);
  });

  it("browses users, sessions and the event log: terms status, bookings, readable payloads", async () => {
    await page.goto(consoleUrl(`/users?filter=${encodeURIComponent("{}")}`));
    await listRows(10);
    await page.getByRole("combobox", { name: "Role" }).click();
    await page.getByRole("option", { name: "Creator" }).click();
    const creators = await listRows(2);
    await creators.filter({ hasText: DEMO_CREATOR.email }).getByText(DEMO_CREATOR.email).click();
    await page.getByText(`Accepted ${CURRENT_TERMS_VERSION}`).first().waitFor();
    await page.getByText("3 booked as creator · 0 hosted as expert").waitFor();
    // Its bookings: the three the suite made.
    await eventually(() => page.locator("table").last().locator("tbody tr.RaDataTable-row").count()).toBe(3);
    await page.screenshot({ path: join(artifacts, "user.png"), fullPage: true, animations: "disabled" });

    await page.goto(consoleUrl(`/sessions?filter=${encodeURIComponent(JSON.stringify({ q: made.sessionTitle }))}`));
    const sessionRows = await listRows(1);
    await sessionRows.first().getByText(made.sessionTitle).click();
    await page.getByText("What would make this session a success for you?").waitFor();
    await eventually(() => page.locator("table").last().locator("tbody tr.RaDataTable-row").count()).toBe(3);

    await page.goto(consoleUrl(`/events?filter=${encodeURIComponent("{}")}`));
    await page.getByRole("textbox", { name: "Stream (prefix)" }).fill(`calendar-${made.expertId}`);
    await page.getByRole("combobox", { name: "Type" }).click();
    await page.getByRole("option", { name: "Cancelled", exact: true }).click();
    await page.keyboard.press("Escape");
    const eventRows = await listRows(1);
    await eventRows.first().getByText("Cancelled", { exact: true }).click();
    // Expanded: the payload as indented JSON.
    await page.locator("tr.RaDataTable-expandRow pre", { hasText: '"reason": "Schedule clash"' }).waitFor();
    await page.screenshot({ path: join(artifacts, "event-log.png"), fullPage: true, animations: "disabled" });
  });

  it("reads the dev mailbox: a new account's mail, its headers, the HTML in a sandboxed frame whose link opens a new tab and verifies the address", async () => {
    const rae = { email: `rae-${Date.now().toString(36)}@example.com`, password: DEMO_PASSWORD };
    await must("POST", "/auth/signup", { body: { ...rae, role: "creator", first_name: "Rae", last_name: "Pending" } });
    // /dev/mailbox leads to the console's page; the menu offers it while no SMTP server is configured.
    await page.goto(`${base}/dev/mailbox`);
    await eventually(() => page.url()).toBe(consoleUrl("/mailbox"));
    await page.getByRole("menuitem", { name: "Mailbox" }).waitFor();
    // Newest first: the sign-up just now.
    const newest = (await listRowsAtLeast(3)).first();
    await eventually(() => newest.textContent()).toContain(rae.email);
    expect(await newest.textContent()).toContain("Confirm email");
    await page.getByLabel("To (address)").fill(made.newcomer.email);
    const noorRows = await listRows(1);
    await eventually(() => noorRows.first().textContent()).toContain("Confirm your email");
    await page.getByLabel("To (address)").fill(rae.email);
    await eventually(() => page.locator("table tbody tr.RaDataTable-row").first().textContent()).toContain(rae.email);
    await (await listRows(1)).first().click();

    await page.getByText("Expert Sessions <no-reply@localhost>").waitFor();
    const frame = page.getByTestId("mail-html");
    expect(await frame.getAttribute("sandbox")).toBe("allow-popups allow-popups-to-escape-sandbox");
    expect(await frame.getAttribute("srcdoc")).toContain('<base target="_blank">');
    const link = page.frameLocator("[data-testid=mail-html]").getByRole("link", { name: "Confirm my email" });
    const href = (await link.getAttribute("href")) ?? "";
    expect(href.startsWith(`${base}/verify-email?token=`), href).toBe(true);
    expect(await page.getByTestId("mail-text").textContent()).toContain(href);
    await page.screenshot({ path: join(artifacts, "mailbox-message.png"), fullPage: true, animations: "disabled" });
    // The link read here is the one that works.
    expect((await call("POST", "/auth/verify", { body: { token: tokenOf(href) } })).status).toBe(200);
    expect((await call("POST", "/auth/login", { body: rae })).status).toBe(200);
    // Links in the frame open in a new tab, outside the sandbox.
    const [opened] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await eventually(() => opened.url()).toBe(href);
    await opened.close();
  });

  it("leaves the mailbox out of its menu when the API has none (mail goes out by SMTP)", async () => {
    await page.route("**/api/v1/admin/mailbox?*", (route) =>
      route.fulfill({ status: 404, contentType: "application/json", body: JSON.stringify({ code: "not_found", message: "Not found." }) }),
    );
    try {
      await page.goto(consoleUrl("/refunds"));
      await page.reload();
      // Exact: "Unmatched refunds" is in the menu too.
      await page.getByRole("menuitem", { name: "Refunds", exact: true }).waitFor();
      expect(await page.getByRole("menuitem", { name: "Mailbox" }).count()).toBe(0);
    } finally {
      await page.unroute("**/api/v1/admin/mailbox?*");
    }
  });

  it("signs out: the session ends on the server too, and its cookie is cleared", async () => {
    const token = (await consoleCookie())!;
    await page.getByRole("button", { name: /account menu/ }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await eventually(() => page.url()).toContain("#/login");
    expect(await signedInMarker()).toBeNull();
    expect(await consoleCookie()).toBeNull();
    expect((await refreshWith(token)).status).toBe(401);
  });
});
