import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, seriousViolations } from "./chromium.ts";
import { adminToken } from "./mailbox.ts";
import {
  addPasskeyOnAccountPage,
  addVirtualAuthenticator,
  signInWithPasskey,
  signInWithPasswordAndPasskey,
  type VirtualAuthenticator,
} from "./passkey-steps.ts";
import { ADMIN, startProduct, type ProductServer } from "./product-server.ts";
import { signedUpPerson } from "./walk-people.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Passkeys (issue 33.4), through the screens, on Chromium's virtual authenticator (passkey-steps.ts):
// Pia signs in with her password and adds a passkey on her account page; signed out, she signs in
// with the passkey alone (no address, no password); signed out again, her password now asks for a
// second step, which the passkey answers. Each use moves the passkey's signature count on, as the
// API's copy check expects.

const PIA = { first: "Pia", last: "Key", password: "Pia-password-1" };

let product: ProductServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let device: VirtualAuthenticator;
let email = "";

beforeAll(async () => {
  product = await startProduct(testPostgresUrl(), { host: "localhost" });
  const tag = Date.now().toString(36);
  await signedUpPerson(product.url, await adminToken(product.url, ADMIN), "creator", PIA.first, PIA.last, tag);
  email = `pia-${tag}@example.com`;
  browser = await launchChromium();
  context = await browser.newContext({ locale: "en-US", timezoneId: "Europe/Berlin", viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("[page error]", e.stack));
  device = await addVirtualAuthenticator(page);
});

afterAll(async () => {
  await device?.remove().catch(() => undefined);
  await context?.close();
  await browser?.close();
  await product?.stop();
});

const signOut = async () => {
  await page.getByRole("button", { name: "Logout" }).click();
  await page.waitForURL((url) => url.pathname === "/");
};

describe("a passkey, added and signed in with", () => {
  it("is added on the account page after a password sign-in, kept by the device as a discoverable passkey", async () => {
    await page.goto(`${product.url}/login?next=${encodeURIComponent("/account")}`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel(/^Password/).fill(PIA.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("heading", { name: "Your Account", exact: true }).waitFor();

    await addPasskeyOnAccountPage(page, "This laptop");
    const kept = await device.credentials();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
    await page
      .getByRole("region", { name: "Passkeys" })
      .getByText(/not used yet/)
      .waitFor();
    await screenshot(page, "passkeys-account");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("signs in alone, with no address and no password", async () => {
    await signOut();
    await signInWithPasskey(page, product.url);
    expect(new URL(page.url()).pathname).toMatch(/^\/creator-dashboard\//);
    await page.goto(`${product.url}/account`);
    await page
      .getByRole("region", { name: "Passkeys" })
      .getByText(/last used/)
      .waitFor();
    expect((await device.credentials())[0]!.signCount).toBeGreaterThan(0);
  });

  it("answers the second step after the password in place of a code", async () => {
    await signOut();
    const before = (await device.credentials())[0]!.signCount;
    await signInWithPasswordAndPasskey(page, product.url, email, PIA.password);
    expect(new URL(page.url()).pathname).toMatch(/^\/creator-dashboard\//);
    expect((await device.credentials())[0]!.signCount).toBeGreaterThan(before);
  });
});
