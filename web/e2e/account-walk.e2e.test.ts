import { readFile } from "node:fs/promises";
import { generate } from "otplib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, seedDemoData } from "../../api/src/main/seed.ts";
import { launchChromium, screenshot } from "./chromium.ts";
import { startProduct, type ProductServer } from "./product-server.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// A person's own account (issue 33), on the seeded demo marketplace, through the screens only: Hana
// (a creator with past sessions) turns two-factor sign-in on with an authenticator app and signs in
// with it on a second device; from the first she sees both sign-ins and ends the other one; she
// downloads her data. Every step is what a user does: the login page, the account page, a download.

const HANA = { email: "hana@example.com", name: "Hana Sato" };

let product: ProductServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  product = await startProduct(testPostgresUrl());
  expect(await seedDemoData(product.api.app, product.api.ctx)).toBe(true);
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await product?.stop();
});

/** A browser of its own (a device, as the sign-ins list names it by its user agent). */
async function device(userAgent: string): Promise<Page> {
  const context = await browser.newContext({ userAgent, locale: "en-US", timezoneId: "Asia/Tokyo", acceptDownloads: true });
  context.setDefaultTimeout(30_000);
  contexts.push(context);
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("[page error]", e.stack));
  return page;
}

/** The login page, as a person fills it in; with a code when their account asks for a second factor. */
async function signInThroughPage(page: Page, email: string, code?: string): Promise<void> {
  await page.goto(`${product.url}/login?next=${encodeURIComponent("/account")}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  if (code !== undefined) {
    await page.getByRole("form", { name: "Two-factor sign-in" }).waitFor();
    await page.getByLabel("6-digit code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
  }
  await page.getByRole("heading", { name: "Your Account", exact: true }).waitFor();
}

/** The code an authenticator app shows for `secret`, `stepsAhead` time-steps (30 s) from now. */
const codeOf = (secret: string, stepsAhead = 0): Promise<string> =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

const LAPTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describe("a person's own account", () => {
  let laptop: Page;
  let phone: Page;
  let secret = "";
  let enrolmentCode = "";
  let recoveryCodes: string[] = [];

  it("turns on two-factor sign-in by scanning (here: reading) the key, and is shown ten recovery codes", async () => {
    laptop = await device(LAPTOP);
    await signInThroughPage(laptop, HANA.email);
    await laptop.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();
    const enrol = laptop.getByRole("form", { name: "Set up two-factor sign-in" });
    await enrol.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await enrol.getByRole("button", { name: "Continue" }).click();
    const confirm = laptop.getByRole("form", { name: "Confirm two-factor sign-in" });
    await expect.poll(() => confirm.getByRole("img", { name: "QR code to scan with your authenticator app" }).isVisible()).toBe(true);
    secret = ((await confirm.getByLabel("Key for your authenticator app").textContent()) ?? "").replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    enrolmentCode = await codeOf(secret);
    await confirm.getByLabel("6-digit code").fill(enrolmentCode);
    await confirm.getByRole("button", { name: "Turn On" }).click();
    await expect.poll(() => laptop.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").count()).toBe(10);
    recoveryCodes = await laptop.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allTextContents();
    await screenshot(laptop, "account-two-factor-codes");
    await laptop.getByRole("button", { name: "I Saved Them" }).click();
    await laptop.getByText(/Two-factor sign-in is on \(since/).waitFor();
  });

  it("signs in on a second device with the password and a code from the app; a code already used is refused", async () => {
    phone = await device(PHONE);
    await phone.goto(`${product.url}/login`);
    await phone.getByLabel("Email").fill(HANA.email);
    await phone.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await phone.getByRole("button", { name: "Login" }).click();
    await phone.getByRole("form", { name: "Two-factor sign-in" }).waitFor();
    // The enrolment spent its code: the same code again is refused, as a stolen one would be (the very
    // code, not this moment's: on a loaded machine the 30-second step may have turned since).
    await phone.getByLabel("6-digit code").fill(enrolmentCode);
    await phone.getByRole("button", { name: "Verify" }).click();
    await phone.getByRole("alert").filter({ hasText: /code/i }).waitFor();
    // The app's next code (one step ahead is within the clock tolerance) signs in.
    await phone.getByLabel("6-digit code").fill(await codeOf(secret, 1));
    await phone.getByRole("button", { name: "Verify" }).click();
    await phone.waitForURL((url) => url.pathname !== "/login");
    await phone.goto(`${product.url}/account`);
    await phone.getByRole("heading", { name: "Your Account", exact: true }).waitFor();
  });

  it("sees both sign-ins and ends the other one, which is signed out", async () => {
    await laptop.reload();
    const list = laptop.getByRole("list", { name: "Your sign-ins" });
    // Each device named from its user agent; the laptop is this device (the seed's own sign-in is a third, unnamed one).
    const phoneRow = list.getByRole("listitem").filter({ hasText: "Safari on iPhone" });
    const laptopRow = list.getByRole("listitem").filter({ hasText: "Chrome on Linux" });
    await phoneRow.waitFor();
    expect(await laptopRow.getByText("This device").count()).toBe(1);
    await screenshot(laptop, "account-sign-ins");
    await phoneRow.getByRole("button", { name: /^Sign out Safari on iPhone/ }).click();
    await expect.poll(() => phoneRow.count()).toBe(0);
    expect(await laptopRow.count()).toBe(1);
    // The phone's sign-in is over: its next visit to a signed-in page lands on the login page.
    await phone.goto(`${product.url}/account`);
    await phone.waitForURL((url) => url.pathname === "/login");
  });

  it("downloads everything the product holds about them as one JSON file", async () => {
    const [download] = await Promise.all([
      laptop.waitForEvent("download"),
      laptop.getByRole("button", { name: "Download your data" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^expert-sessions-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile((await download.path())!, "utf8")) as { format: string; sections: Record<string, unknown> };
    expect(data.format).toBe("expert-sessions-export/1");
    expect(Object.keys(data.sections)).toEqual(expect.arrayContaining(["account", "bookings", "messages", "reviews", "mails", "sign_ins"]));
    const text = JSON.stringify(data);
    expect(text).toContain(HANA.email);
    expect(text).toContain("Plan the launch of my second channel."); // a prep answer she wrote
    expect(text).toContain("Two hours that saved me months."); // a review she wrote
  });

  it("deletes the account (password and a recovery code), and the expert she met sees Deleted user where her name was", async () => {
    await laptop.getByRole("button", { name: "Delete your account" }).click();
    const form = laptop.getByRole("form", { name: "Delete your account" });
    await form.getByLabel(/^Your Password/).fill(DEMO_PASSWORD);
    await form.getByRole("button", { name: "Use a recovery code instead" }).click();
    await form.getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await form.getByRole("button", { name: "Delete My Account for Good" }).click();
    await laptop.waitForURL((url) => url.pathname === "/");
    // Ava, the expert of one of Hana's past sessions: the booking stays on her dashboard, its creator no longer named.
    const ava = await device(LAPTOP);
    await ava.goto(`${product.url}/login`);
    await ava.getByLabel("Email").fill("ava@example.com");
    await ava.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await ava.getByRole("button", { name: "Login" }).click();
    await ava.getByRole("tab", { name: "Bookings" }).click();
    await ava.getByRole("heading", { name: "Past and cancelled" }).waitFor();
    await ava.getByText("Deleted user").first().waitFor();
    expect(await ava.getByText(HANA.name).count()).toBe(0);
    await screenshot(ava, "account-erased-on-expert-dashboard");
    // Hana's sign-ins ended with her account: her password no longer signs in.
    await laptop.goto(`${product.url}/login`);
    await laptop.getByLabel("Email").fill(HANA.email);
    await laptop.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await laptop.getByRole("button", { name: "Login" }).click();
    await laptop.getByRole("alert").first().waitFor();
    expect(laptop.url()).toContain("/login");
  });
});
