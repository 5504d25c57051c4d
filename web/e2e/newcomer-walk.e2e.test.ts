import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../../api/src/main/seed.ts";
import { launchChromium, screenshot, seriousViolations, takeCspViolations } from "./chromium.ts";
import { callApi } from "./product-api.ts";
import { startProduct, type ProductServer } from "./product-server.ts";
import { signedInContext } from "./signed-in-browser.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// What a newcomer meets (issue 27), on the seeded demo marketplace, at a phone's 390x844 and a
// laptop's 1366x900: the landing page, the help page, the wizard's hold countdown and its
// "Request sent" step, Manage Booking with Propose beside Accept, an en-GB expert's bookings, and
// the seeded dashboards. Screenshots go to e2e/artifacts/newcomer-*.png; each screen is checked
// for what the issue asked, so a screenshot of the wrong thing fails the walk.

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } } as const;
type Viewport = keyof typeof VIEWPORTS;
type AuthSession = { access_token: string; user: { id: string } };
type Booking = { id: string; status: string; scheduled_time: string; session_id: string };

let product: ProductServer;
let browser: Browser;

const call = <T>(method: string, path: string, token: string | null, body?: unknown) => callApi<T>(product.url, method, path, token, body);
const signIn = (email: string) => call<AuthSession>("POST", "/auth/login", null, { email, password: DEMO_PASSWORD });

/** A browser at `viewport`, signed in (a sign-in of its own) as the demo account `email`, or a visitor's. */
async function contextFor(
  viewport: Viewport,
  email: string | null,
  locale = "en-US",
  timezoneId = "America/New_York",
): Promise<BrowserContext> {
  const mobile = viewport === "phone" ? { isMobile: true, hasTouch: true } : {};
  const options = { viewport: VIEWPORTS[viewport], locale, timezoneId, ...mobile };
  const context = email
    ? (await signedInContext(browser, product.url, { email, password: DEMO_PASSWORD }, options)).context
    : await browser.newContext(options);
  // Generous: a screen of the seeded marketplace under a loaded CI machine, not a timing goal.
  context.setDefaultTimeout(60_000);
  return context;
}

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("[page error]", e.stack));
  await page.goto(`${product.url}${path}`);
  return page;
}

async function shoot(page: Page, name: string, viewport: Viewport): Promise<void> {
  await screenshot(page, `newcomer-${name}-${viewport}`);
  expect(await seriousViolations(page), `${name} (${viewport})`).toEqual([]);
}

/** A time the session offers in the coming days that the demo creator has not taken. */
async function freeTime(sessionId: string, creator: AuthSession): Promise<string> {
  const mine = await call<Booking[]>("GET", "/bookings/creator/me", creator.access_token);
  const taken = new Set(mine.map((b) => b.scheduled_time));
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const { times } = await call<{ times: string[] }>("GET", `/sessions/${sessionId}/availability?from=${from}&to=${to}`, null);
  const time = times.find((t) => !taken.has(t));
  if (!time) throw new Error("the demo session offers no free time");
  return time;
}

beforeAll(async () => {
  product = await startProduct(testPostgresUrl());
  expect(await seedDemoData(product.api.app, product.api.ctx)).toBe(true);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe.each(["desktop", "phone"] as const)("a newcomer's screens (%s)", (viewport) => {
  it("the landing page shows real verified experts and leads into the marketplace; the help page answers", async () => {
    const context = await contextFor(viewport, null);
    const page = await open(context, "/");
    await page.getByText("Ava Chen").first().waitFor();
    expect(
      await page
        .getByRole("link", { name: /Ava Chen/ })
        .first()
        .getAttribute("href"),
    ).toMatch(/^\/expert-profile\//);
    await shoot(page, "landing", viewport);
    const help = await open(context, "/help");
    await help.getByRole("heading", { level: 1, name: "Help" }).waitFor();
    await help.getByRole("button", { name: /Send/ }).waitFor();
    await shoot(help, "help", viewport);
    expect(takeCspViolations(browser)).toEqual([]);
    await context.close();
  });

  it("the wizard counts the hold down, and after paying says the request is sent and by when the expert answers", async () => {
    const creator = await signIn(DEMO_CREATOR.email);
    const experts = await call<{ id: string; name: string }[]>("GET", "/experts", null);
    const jordan = experts.find((e) => e.name.startsWith("Jordan"))!;
    const sessionId = (await call<{ id: string }[]>("GET", `/experts/${jordan.id}/sessions`, null))[0]!.id;
    // A hold made earlier: coming back to the session resumes it at the payment step.
    await call("POST", "/bookings", creator.access_token, { session_id: sessionId, scheduled_time: await freeTime(sessionId, creator) });
    const context = await contextFor(viewport, DEMO_CREATOR.email);
    const page = await open(context, `/book-session/${sessionId}`);
    const timer = page.getByRole("timer", { name: "Time left to pay" });
    await timer.waitFor();
    expect(await timer.textContent()).toMatch(/^1[0-5]:\d\d$|^\d{1,2}:\d\d$/);
    await page.getByRole("button", { name: "Release this time" }).waitFor();
    await shoot(page, "wizard-hold", viewport);

    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/30");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Confirm & Pay" }).click();
    await page.getByTestId("wizard-step-3").waitFor();
    for (const field of await page.getByRole("textbox").all()) await field.fill("Growing my show past 10,000 listeners");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Request sent" }).waitFor();
    await page.getByText(/Jordan has until .* to accept/).waitFor();
    await shoot(page, "wizard-request-sent", viewport);
    await context.close();
  });

  it("an expert's Manage Booking offers Propose another time beside Accept and Decline", async () => {
    const ava = await signIn("ava@example.com");
    const mine = await call<Booking[]>("GET", "/bookings/expert/me", ava.access_token);
    const pending = mine.find((b) => b.status === "pending")!;
    const context = await contextFor(viewport, "ava@example.com");
    const page = await open(context, `/manage-booking/${pending.id}`);
    for (const name of ["Accept Booking", "Propose another time", "Decline"]) await page.getByRole("button", { name }).waitFor();
    await shoot(page, "manage-booking", viewport);
    await context.close();
  });

  it("an expert in London reads their bookings with weekday and month name, in British order", async () => {
    const marcus = await signIn("marcus@example.com");
    const context = await contextFor(viewport, "marcus@example.com", "en-GB", "Europe/London");
    const page = await open(context, `/expert-dashboard/${marcus.user.id}/bookings`);
    const first = page.getByTestId("expert-booking").first();
    await first.waitFor();
    expect(await first.textContent()).toMatch(/(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),? \d{1,2} [A-Z][a-z]+ \d{4}/);
    expect(await first.textContent()).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{2}\b/);
    await shoot(page, "expert-bookings-en-gb", viewport);
    await context.close();
  });

  it("the seeded dashboards: the creator's completed sessions with notes and reviews, the expert's earnings", async () => {
    const creator = await signIn(DEMO_CREATOR.email);
    const creatorContext = await contextFor(viewport, DEMO_CREATOR.email);
    const dashboard = await open(creatorContext, `/creator-dashboard/${creator.user.id}`);
    await dashboard.getByTestId("booking-status").getByText("Complete", { exact: true }).first().waitFor();
    await shoot(dashboard, "creator-dashboard", viewport);
    // A completed session's notes and the creator's own review of it (the seed reviews some of them).
    const mine = await call<(Booking & { has_notes: boolean })[]>("GET", "/bookings/creator/me", creator.access_token);
    const noted = mine.filter((b) => b.status === "completed" && b.has_notes);
    const reviews = await Promise.all(noted.map((b) => call<{ review: unknown }>("GET", `/bookings/${b.id}/review`, creator.access_token)));
    const reviewed = noted.find((_, i) => reviews[i]!.review !== null);
    expect(reviewed, "a completed session with notes that the demo creator reviewed").toBeDefined();
    await dashboard.locator(`[data-booking-id="${reviewed!.id}"]`).getByRole("link", { name: "View Notes" }).click();
    await dashboard.getByRole("heading", { name: "Your review" }).waitFor();
    await shoot(dashboard, "creator-notes-and-review", viewport);
    await creatorContext.close();

    const marcus = await signIn("marcus@example.com");
    const expertContext = await contextFor(viewport, "marcus@example.com", "en-GB", "Europe/London");
    const payments = await open(expertContext, `/expert-dashboard/${marcus.user.id}/payments`);
    expect(await payments.getByTestId("earnings-total").textContent()).toMatch(/\$[1-9][\d,]*\.\d\d/);
    await shoot(payments, "expert-payments", viewport);
    await expertContext.close();
  });
});
