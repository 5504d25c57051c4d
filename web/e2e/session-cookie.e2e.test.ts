import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, takeCspViolations } from "./chromium.ts";
import { adminToken } from "./mailbox.ts";
import { ADMIN, startProduct, type ProductServer } from "./product-server.ts";
import { expectRefreshTokenOutOfScripts, REFRESH_COOKIES, SIGNED_IN_KEYS, type Credentials } from "./signed-in-browser.ts";
import { signedUpPerson } from "./walk-people.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 33.6 in a real Chromium: after signing in on the login page, no script can read the refresh
// token (document.cookie, localStorage, sessionStorage), a reload keeps the person signed in (the page
// takes the session up from the HttpOnly cookie, rotating it), a second tab is signed in too, and
// signing out clears the cookie. The console's counterpart is in admin/e2e/console.e2e.test.ts.

let product: ProductServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let person: Credentials;

beforeAll(async () => {
  product = await startProduct(testPostgresUrl());
  // A creator with the current terms accepted, so that signing in lands on the app's own pages.
  const admin = await adminToken(product.url, ADMIN);
  person = (await signedUpPerson(product.url, admin, "creator", "Cleo", "Kim", Date.now().toString(36))).credentials;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "en-US", timezoneId: "UTC" });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("[page error]", e.stack));
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** The signed-in header's Logout button; the page's address and text when it does not come, to say where the page is instead. */
const signedInHeader = (p: Page) =>
  p
    .getByRole("button", { name: "Logout" })
    .waitFor()
    .catch(async (e: unknown) => {
      throw new Error(`not signed in at ${p.url()}: ${(await p.locator("body").innerText()).slice(0, 300)}`, { cause: e });
    });

describe("the refresh token, out of scripts' reach", () => {
  it("after signing in, lives in an HttpOnly cookie that no script can read", async () => {
    await page.goto(`${product.url}/login`);
    await page.getByLabel("Email").fill(person.email);
    await page.getByLabel(/^Password/).fill(person.password);
    await page.getByRole("button", { name: "Login" }).click();
    await signedInHeader(page);
    await expectRefreshTokenOutOfScripts(page, "web");
    // The console's cookie is the console's: signing in to the web app leaves it unset.
    expect((await context.cookies()).map((c) => c.name)).not.toContain(REFRESH_COOKIES.console);
  });

  it("a reload keeps the person signed in, taking the session up from the cookie (rotated), still out of reach", async () => {
    const before = await expectRefreshTokenOutOfScripts(page, "web");
    const refreshed = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/refresh"));
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await signedInHeader(page);
    const after = await expectRefreshTokenOutOfScripts(page, "web");
    expect(after).not.toBe(before);
  });

  it("a second tab is signed in too, and signing out in one signs both out and clears the cookie", async () => {
    const other = await context.newPage();
    await other.goto(`${product.url}/account`);
    await other.getByRole("heading", { name: "Your Account", exact: true }).waitFor();
    await signedInHeader(page);
    await page.getByRole("button", { name: "Logout" }).click();
    await other.waitForURL(/\/login/);
    // The other tab hears of it from the marker at once; the cookie goes with the sign-out's reply.
    await expect.poll(async () => (await context.cookies()).map((c) => c.name)).not.toContain(REFRESH_COOKIES.web);
    expect(await page.evaluate((key) => localStorage.getItem(key), SIGNED_IN_KEYS.web)).toBeNull();
    // A new load stays signed out: no marker, so no refresh is even tried; the visitor's header shows Login.
    // (A load of the landing page: signing out may end on it or on /login, whose header has no Login link.)
    const refreshes: string[] = [];
    page.on("request", (r) => void (r.url().endsWith("/api/v1/auth/refresh") && refreshes.push(r.url())));
    await page.goto(`${product.url}/`);
    await page.getByRole("link", { name: "Login", exact: true }).filter({ visible: true }).waitFor();
    expect(refreshes).toEqual([]);
    await other.close();
  });

  it("reported no Content-Security-Policy violations", () => {
    expect(takeCspViolations(browser)).toEqual([]);
  });
});
