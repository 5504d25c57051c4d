import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../../api/src/main/seed.ts";
import { landmarkViolations, launchChromium } from "./chromium.ts";
import { callApi } from "./product-api.ts";
import { startProduct, type ProductServer } from "./product-server.ts";
import { signedInContext } from "./signed-in-browser.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 27.21: every screen had a banner inside a banner. axe's landmark rules on the web app's
// main screens, for a visitor, the demo creator and a demo expert, on the demo's experts and sessions.

type AuthSession = { access_token: string; user: { id: string } };

let product: ProductServer;
let browser: Browser;
const people: Record<"creator" | "expert", AuthSession | null> = { creator: null, expert: null };
const made = { slug: "", sessionId: "" };
const emails = { creator: DEMO_CREATOR.email, expert: "ava@example.com" };

beforeAll(async () => {
  product = await startProduct(testPostgresUrl());
  await seedDemoData(product.api.app, product.api.ctx, { history: false });
  const login = (email: string) => callApi<AuthSession>(product.url, "POST", "/auth/login", null, { email, password: DEMO_PASSWORD });
  people.creator = await login(emails.creator);
  people.expert = await login(emails.expert);
  const expert = await callApi<{ slug: string }>(product.url, "GET", "/experts/me", people.expert.access_token);
  made.slug = expert.slug;
  const sessions = await callApi<{ id: string }[]>(product.url, "GET", `/experts/${people.expert.user.id}/sessions`, null);
  made.sessionId = sessions[0]!.id;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function contextFor(who: "visitor" | "creator" | "expert"): Promise<BrowserContext> {
  const options = { viewport: { width: 1366, height: 768 }, timezoneId: "UTC", locale: "en-GB" };
  const context =
    who === "visitor"
      ? await browser.newContext(options)
      : (await signedInContext(browser, product.url, { email: emails[who], password: DEMO_PASSWORD }, options)).context;
  context.setDefaultTimeout(20_000);
  return context;
}

describe("the web app's landmarks", () => {
  it("has no landmark violation on its main screens", async () => {
    const screens: [who: "visitor" | "creator" | "expert", path: string][] = [
      ["visitor", "/"],
      ["visitor", "/login"],
      ["visitor", "/signup"],
      ["visitor", `/expert-profile/${made.slug}`],
      ["creator", "/search"],
      ["creator", `/book-session/${made.sessionId}`],
      ["creator", `/creator-dashboard/${people.creator!.user.id}`],
      ["creator", "/account"],
      ["expert", `/expert-dashboard/${people.expert!.user.id}`],
      ["expert", `/expert-dashboard/${people.expert!.user.id}/schedule`],
    ];
    const found: Record<string, string[]> = {};
    for (const [who, path] of screens) {
      const context = await contextFor(who);
      const page = await context.newPage();
      await page.goto(`${product.url}${path}`);
      const shown = await page
        .locator("main h1, main h2")
        .first()
        .waitFor()
        .then(() => true)
        .catch(() => false);
      await page.waitForLoadState("networkidle");
      const violations = (await landmarkViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      found[`${who} ${path}`] = shown
        ? violations
        : [`no heading in main: ${(await page.locator("body").innerText()).slice(0, 200)}`, ...violations];
      await context.close();
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });
});
