import { DateTime } from "luxon";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AVAILABLE_SOON_DAYS, briefMomentText, type ExpertListItem } from "@booking/contracts";
import { launchChromium, screenshot, seriousViolations, takeCspViolations, type AxeViolation } from "./chromium.ts";
import { adminToken, signUpVerified } from "./mailbox.ts";
import { callApi } from "./product-api.ts";
import { ADMIN, startProduct, type ProductServer } from "./product-server.ts";
import { signedInContext } from "./signed-in-browser.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 30.5's walk, in Chromium against the built app served by the real API: three approved experts
// with different prices, session lengths and openings; a creator in New York sorts and filters the
// listing on /search, and the order and the set change as the rules say. The address keeps the choices
// (a reload and Back show the same listing), a refused price range shows the API's message, and the
// listing with filters set passes axe on a laptop and a phone. Screenshots go to e2e/artifacts/listing-*.png.

const CREATOR_ZONE = "America/New_York";
const run = Date.now().toString(36);
const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

type AuthSession = { access_token: string; user: { id: string } };
/** A listed expert as the walk made them: their card's name and what they offer. */
type Shop = { name: string; slug: string; priceDollars: number; lengthMinutes: number };

let product: ProductServer;
let browser: Browser;
let admin = "";
let page: Page;
const contexts: BrowserContext[] = [];
const axeReport: Record<string, AxeViolation[]> = {};

// Avery: 30 minutes for $40, open every day. Blake: 60 minutes for $150, open every day. Casey: 90 minutes
// for $90, open every day but away for the next ten days, so first bookable well after this week.
const AVERY = { first: "Avery", last: `Quick${run}`, price: 40, length: 30, awayDays: 0 };
const BLAKE = { first: "Blake", last: `Steady${run}`, price: 150, length: 60, awayDays: 0 };
const CASEY = { first: "Casey", last: `Later${run}`, price: 90, length: 90, awayDays: 10 };
let shops: { avery: Shop; blake: Shop; casey: Shop };
const nameOf = (who: typeof AVERY) => `${who.first} ${who.last}`;

const url = (path: string) => `${product.url}${path}`;
const call = <T>(method: string, path: string, token: string | null, body?: unknown) => callApi<T>(product.url, method, path, token, body);

/** What a person signs in with: the walk's own rule, so a browser of theirs can sign in again. */
const credentialsOf = (first: string) => ({ email: `${first.toLowerCase()}-listing-${run}@example.com`, password: `${first}-password-1` });
const CREATOR = credentialsOf("Cora");

async function signUp(role: "creator" | "expert", first: string, last: string): Promise<AuthSession> {
  const session = await signUpVerified<AuthSession>(product.url, admin, {
    ...credentialsOf(first),
    role,
    first_name: first,
    last_name: last,
  });
  const { version_id } = await call<{ version_id: string }>("GET", "/terms/latest", null);
  await call("POST", "/terms/accept", session.access_token, { version_id });
  return session;
}

/** A published, approved expert with one published session and a schedule open all day every day (UTC), away for `awayDays` from today. */
async function openShop(who: typeof AVERY): Promise<Shop> {
  const token = (await signUp("expert", who.first, who.last)).access_token;
  await call("PATCH", "/experts/me", token, {
    first_name: who.first,
    last_name: who.last,
    title: "Creator business advisor",
    bio: `${who.first} helps creators.`,
    tags: ["Brand deals"],
    published: true,
  });
  const me = await call<{ id: string; slug: string }>("GET", "/experts/me", token);
  // Approved by our team (issue 30): only approved experts are listed.
  await call("PUT", `/admin/experts/${me.id}`, admin, { verified: true, reason: "Vetted for the listing walk" });
  await call("POST", `/experts/${me.id}/schedule`, token, {
    timezone: "UTC",
    slots: DAYS.map((weekday) => ({ weekday, start_local: "00:00", end_local: "23:30" })),
  });
  if (who.awayDays > 0) {
    const today = DateTime.utc().startOf("day");
    await call("POST", `/experts/${me.id}/time-off`, token, {
      start_date: today.toISODate(),
      end_date: today.plus({ days: who.awayDays - 1 }).toISODate(),
      reason: "Travelling",
    });
  }
  await call("POST", "/sessions", token, {
    title: `${who.length} minutes with ${who.first}`,
    price: who.price,
    length_minutes: who.length,
    prep_question_1: "What is your goal?",
    status: "published",
  });
  return { name: nameOf(who), slug: me.slug, priceDollars: who.price, lengthMinutes: who.length };
}

async function checkAxe(on: Page, name: string) {
  const violations = await seriousViolations(on);
  axeReport[name] = violations;
  expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  await screenshot(on, `listing-${name}`);
}

/** The names on the listing's cards, in order. */
const cardNames = (on: Page) =>
  on.getByTestId("expert-card").evaluateAll((cards) => cards.map((c) => c.querySelector("h2")?.textContent ?? ""));

/** Waits until the cards read `names` in that order (the previous answer stays on screen while the next loads). */
async function expectCards(on: Page, names: string[]) {
  await expect.poll(() => cardNames(on), { timeout: 15_000 }).toEqual(names);
  await expect.poll(() => on.getByRole("region", { name: "Experts" }).getAttribute("aria-busy")).toBe("false");
}

/** The listing's call the page makes next: its path and query under /api/v1, exactly. */
const nextListingCall = (on: Page) =>
  on.waitForRequest(
    (r) => new URL(r.url()).pathname.startsWith("/api/v1/experts") && !/\/experts\/(?!search)/.test(new URL(r.url()).pathname),
  );
const asked = async (request: ReturnType<typeof nextListingCall>) => {
  const u = new URL((await request).url());
  return `${u.pathname.replace("/api/v1", "")}${u.search}`;
};

const listing = (query = "") => call<ExpertListItem[]>("GET", `/experts${query}`, null);

beforeAll(async () => {
  product = await startProduct(testPostgresUrl());
  browser = await launchChromium();
  admin = await adminToken(product.url, ADMIN);
  shops = { avery: await openShop(AVERY), blake: await openShop(BLAKE), casey: await openShop(CASEY) };
  await signUp("creator", "Cora", `Quinn${run}`);
  const options = { timezoneId: CREATOR_ZONE, locale: "en-US", viewport: { width: 1280, height: 900 } };
  const { context } = await signedInContext(browser, product.url, CREATOR, options);
  context.setDefaultTimeout(20_000);
  contexts.push(context);
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("[creator page error]", e.stack));
});

// The app runs under the API's Content-Security-Policy: anything it blocks on any page fails the test.
afterEach(() => {
  expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
});

afterAll(async () => {
  console.log(
    "[web-e2e] listing walk: axe serious/critical violations per page:",
    JSON.stringify(Object.fromEntries(Object.entries(axeReport).map(([k, v]) => [k, v.length]))),
  );
  for (const context of contexts) await context.close();
  await browser?.close();
  await product?.stop();
});

describe("the experts listing's sort and filters", () => {
  it("lists the three approved experts by default from exactly /experts, each card saying when they are next free", async () => {
    const first = nextListingCall(page);
    await page.goto(url("/search"));
    expect(await asked(first)).toBe("/experts");
    await expect
      .poll(() => cardNames(page).then((names) => [...names].sort()))
      .toEqual([shops.avery.name, shops.blake.name, shops.casey.name]);
    expect(await page.getByLabel("Sort by").inputValue()).toBe("recommended");

    // The cards' next openings are the API's, in the creator's zone and words; Casey's is after this week.
    const byName = new Map((await listing()).map((e) => [e.name, e]));
    for (const shop of Object.values(shops)) {
      const next = byName.get(shop.name)?.next_available;
      expect(next, `${shop.name}'s next opening`).toEqual(expect.any(String));
      const card = page.getByTestId("expert-card").filter({ hasText: shop.name });
      expect(await card.getByTestId("next-available").textContent()).toBe(
        `Next available ${briefMomentText(next!, { zone: CREATOR_ZONE, locale: "en-US" })}`,
      );
    }
    const soon = Date.now() + AVAILABLE_SOON_DAYS * 86_400_000;
    expect(Date.parse(byName.get(shops.avery.name)!.next_available!)).toBeLessThanOrEqual(soon);
    expect(Date.parse(byName.get(shops.casey.name)!.next_available!)).toBeGreaterThan(soon);
    expect(await page.getByTestId("listing-zone").textContent()).toBe("Openings are shown in New York time (America/New_York).");
    expect(await page.getByTestId("expert-card").filter({ hasText: shops.blake.name }).textContent()).toContain("$150 per session");
  });

  it("'Lowest price' orders Avery ($40), Casey ($90), Blake ($150)", async () => {
    const call = nextListingCall(page);
    await page.getByLabel("Sort by").selectOption({ label: "Lowest price" });
    expect(await asked(call)).toBe("/experts?sort=price");
    await expectCards(page, [shops.avery.name, shops.casey.name, shops.blake.name]);
  });

  it("'Soonest available' puts the experts free today before Casey, who is away", async () => {
    const call = nextListingCall(page);
    await page.getByLabel("Sort by").selectOption({ label: "Soonest available" });
    expect(await asked(call)).toBe("/experts?sort=soonest");
    // Avery's 30 minutes fit wherever Blake's 60 do, so Avery is never later; a tie falls to the name.
    await expectCards(page, [shops.avery.name, shops.blake.name, shops.casey.name]);
  });

  it("a 60-minute session length leaves Blake only; back to any length, a $100 top price leaves Avery and Casey", async () => {
    let call = nextListingCall(page);
    await page.getByLabel("Session length").selectOption({ label: "60 min" });
    expect(await asked(call)).toBe("/experts?sort=soonest&length_minutes=60");
    await expectCards(page, [shops.blake.name]);

    // An answer already had: the page shows it again from its cache, without a call.
    await page.getByLabel("Session length").selectOption({ label: "Any length" });
    await expect.poll(() => new URL(page.url()).search).toBe("?sort=soonest");
    await expectCards(page, [shops.avery.name, shops.blake.name, shops.casey.name]);

    // Typed prices are asked once typing stops, in cents: one call for "100", none for "1" or "10".
    const calls: string[] = [];
    const watch = (r: { url: () => string }) => r.url().includes("/api/v1/experts?") && calls.push(new URL(r.url()).search);
    page.on("request", watch);
    call = nextListingCall(page);
    await page.getByLabel("Max price").pressSequentially("100", { delay: 30 });
    expect(await asked(call)).toBe("/experts?sort=soonest&max_price_cents=10000");
    await expectCards(page, [shops.avery.name, shops.casey.name]);
    page.off("request", watch);
    expect(calls).toEqual(["?sort=soonest&max_price_cents=10000"]);
  });

  it("'Available this week' drops Casey; the address keeps every choice through a reload and Back from a profile", async () => {
    const call = nextListingCall(page);
    // The switch follows the address, which the router updates in a transition: clicked, then read.
    await page.getByLabel("Available this week").click();
    await expect.poll(() => page.getByLabel("Available this week").isChecked()).toBe(true);
    expect(await asked(call)).toBe("/experts?sort=soonest&max_price_cents=10000&available=this_week");
    await expectCards(page, [shops.avery.name]);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ sort: "soonest", max_price: "100", available: "this_week" });

    await page.reload();
    await expectCards(page, [shops.avery.name]);
    expect(await page.getByLabel("Sort by").inputValue()).toBe("soonest");
    expect(await page.getByLabel("Max price").inputValue()).toBe("100");
    expect(await page.getByLabel("Available this week").isChecked()).toBe(true);
    await checkAxe(page, "filters-set");

    await page.getByTestId("expert-card").first().getByRole("link").click();
    await page.waitForURL((u) => u.pathname === `/expert-profile/${shops.avery.slug}`);
    await page.getByRole("heading", { name: shops.avery.name }).waitFor();
    await page.goBack();
    await expectCards(page, [shops.avery.name]);
    expect(new URL(page.url()).search).toBe("?sort=soonest&max_price=100&available=this_week");
  });

  it("with nothing left, says so and clears the filters (the sort stays)", async () => {
    await page.getByLabel("Session length").selectOption({ label: "120 min" });
    await page.getByText("No experts match these filters.").waitFor();
    await checkAxe(page, "nothing-matches");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => new URL(page.url()).search).toBe("?sort=soonest");
    await expectCards(page, [shops.avery.name, shops.blake.name, shops.casey.name]);
    expect(await page.getByLabel("Max price").inputValue()).toBe("");
    expect(await page.getByLabel("Available this week").isChecked()).toBe(false);
  });

  it("a price range the wrong way round shows the API's message, and the page goes on working", async () => {
    await page.getByLabel("Min price").fill("200");
    await page.getByLabel("Max price").fill("100");
    await page
      .getByRole("alert")
      .filter({ hasText: "Please give a price range of whole amounts, with the lowest price no higher than the highest." })
      .waitFor();
    await page.getByLabel("Min price").fill("");
    await expectCards(page, [shops.avery.name, shops.casey.name]);
  });

  it("fits a phone: the toolbar wraps, nothing overflows, and it passes axe with filters set", async () => {
    const { context } = await signedInContext(browser, product.url, CREATOR, {
      timezoneId: CREATOR_ZONE,
      locale: "en-US",
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    context.setDefaultTimeout(20_000);
    contexts.push(context);
    const phone = await context.newPage();
    await phone.goto(url("/search?sort=price&length=30&max_price=100&available=this_week"));
    await expectCards(phone, [shops.avery.name]);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Wrapped: the switch sits below the selects rather than beside them.
    const top = async (label: string) => (await phone.getByLabel(label).boundingBox())!.y;
    expect(await top("Available this week")).toBeGreaterThan(await top("Sort by"));
    await checkAxe(phone, "phone-filters-set");
  });
});
