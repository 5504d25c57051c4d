import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, takeCspViolations } from "../../web/e2e/chromium.ts";
import { addVirtualAuthenticator, type VirtualAuthenticator } from "../../web/e2e/passkey-steps.ts";
import { callApi } from "../../web/e2e/product-api.ts";
import { ADMIN, startProduct, type ProductServer } from "../../web/e2e/product-server.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 33.4: the console's sign-in takes a passkey as its second step. The admin adds a passkey (through the API,
// from a page of the product's own site, as the account page would: Chromium's virtual authenticator makes it), then
// signs in to the console with the password and "Use a passkey", and the console opens. The product is reached at
// "localhost": WebAuthn refuses an IP address as a passkey's site.

let product: ProductServer;
let browser: Browser;
let page: Page;
let device: VirtualAuthenticator;

beforeAll(async () => {
  product = await startProduct(testPostgresUrl(), { host: "localhost" });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US", timezoneId: "UTC" });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
  device = await addVirtualAuthenticator(page);
});

afterAll(async () => {
  await device?.remove().catch(() => undefined);
  await browser?.close();
  await product?.stop();
});

/** A passkey for the signed-in admin, made by the page's device: the options, navigator.credentials.create(), the answer kept. */
async function addPasskeyFromPage(accessToken: string): Promise<void> {
  await page.goto(`${product.url}/admin/`);
  const status = await page.evaluate(async (token) => {
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const options = await (await fetch("/api/v1/auth/passkeys/options", { method: "POST", headers, body: "{}" })).json();
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
    const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential;
    const body = JSON.stringify({ name: "Console laptop", response: credential.toJSON() });
    return (await fetch("/api/v1/auth/passkeys", { method: "POST", headers, body })).status;
  }, accessToken);
  expect(status).toBe(201);
}

describe("the console's sign-in with a passkey", () => {
  it("asks an admin with a passkey for it after the password, and opens the console", async () => {
    const { access_token } = await callApi<{ access_token: string }>(product.url, "POST", "/auth/login", null, ADMIN);
    await addPasskeyFromPage(access_token);
    const [made] = await device.credentials();
    expect(made).toMatchObject({ isResidentCredential: true, rpId: "localhost" });

    await page.goto(`${product.url}/admin/#/login`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const step = page.getByRole("form", { name: "Two-factor sign-in" });
    await step.waitFor();
    // The admin's only second factor is the passkey: no code is asked.
    expect(await step.getByLabel("6-digit code").count()).toBe(0);
    await step.getByRole("button", { name: "Use a passkey" }).click();
    await page.getByTestId("bookings-by-status").waitFor();
    expect((await device.credentials())[0]!.signCount).toBeGreaterThan(made!.signCount);
    expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
  });
});
