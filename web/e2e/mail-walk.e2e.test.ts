import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { MailboxListItem, MeReply } from "@booking/contracts";
import { signLink } from "../../api/src/auth/signed-links.ts";
import { launchChromium, screenshot, seriousViolations, takeCspViolations, type AxeViolation } from "./chromium.ts";
import { adminToken, mailedLink } from "./mailbox.ts";
import { ADMIN, startProduct, type ProductServer } from "./product-server.ts";
import { expectRefreshTokenOutOfScripts, SIGNED_IN_KEYS } from "./signed-in-browser.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 16's walk, in Chromium against the built app and the real API with the dev mailbox on (no
// SMTP_URL): a visitor signs up and is asked to check their inbox, cannot log in before confirming,
// follows the verification mail's link (read from the dev mailbox through the console's API as the
// admin) and is signed in; turns reminders off from a reminder's unsubscribe link and on again with
// a new zone in the account's email preferences; forgets the password, follows the reset mail's
// link, sets a new one; the new password logs in and the old one no longer does.

const ZONE = "America/Chicago";
const run = Date.now().toString(36);
const visitor = {
  first: "Nia",
  last: `Mailer${run}`,
  email: `nia-${run}@example.com`,
  password: "nia-password-1",
  newPassword: "nia-new-password-2",
};

let product: ProductServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin = "";
let userId = "";
/** The access token the verification link's sign-in gave the page (read off the reply): the walk's own calls as the visitor. */
let visitorToken = "";
let verifyLink = "";
let resetLink = "";
const axeReport: Record<string, AxeViolation[]> = {};

const url = (path: string) => `${product.url}${path}`;
const pathOf = () => new URL(page.url()).pathname;

async function expectPath(path: string) {
  await expect.poll(pathOf, { timeout: 15_000 }).toBe(path);
}

async function checkAxe(name: string) {
  const violations = await seriousViolations(page);
  axeReport[name] = violations;
  expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  await screenshot(page, `mail-${name}`);
}

/** The web app's signed-in marker (the session itself is in the page's memory and the HttpOnly cookie, issue 33.6). */
const signedInMarker = () => page.evaluate((key) => localStorage.getItem(key), SIGNED_IN_KEYS.web);

async function me(): Promise<MeReply> {
  const reply = await fetch(url("/api/v1/auth/me"), { headers: { authorization: `Bearer ${visitorToken}` } });
  expect(reply.status).toBe(200);
  return (await reply.json()) as MeReply;
}

async function mailsTo(kind: string): Promise<MailboxListItem[]> {
  const query = new URLSearchParams({ filter: JSON.stringify({ to: visitor.email, kind }) });
  const reply = await fetch(url(`/api/v1/admin/mailbox?${query}`), { headers: { authorization: `Bearer ${admin}` } });
  return (await reply.json()) as MailboxListItem[];
}

async function logIn(password: string) {
  await page.goto(url("/login"));
  await page.getByLabel("Email").fill(visitor.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

async function logOut() {
  await page.getByRole("button", { name: "Logout" }).click();
  await expectPath("/");
  await expect.poll(signedInMarker).toBeNull();
}

beforeAll(async () => {
  product = await startProduct(testPostgresUrl());
  browser = await launchChromium();
  context = await browser.newContext({ timezoneId: ZONE, locale: "en-US", viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("[page error]", e.stack));
  admin = await adminToken(product.url, ADMIN);
});

afterEach(() => {
  expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
});

afterAll(async () => {
  console.log(
    "[web-e2e] mail walk: axe serious/critical violations per page:",
    JSON.stringify(Object.fromEntries(Object.entries(axeReport).map(([k, v]) => [k, v.length]))),
  );
  await browser?.close();
  await product?.stop();
});

describe("confirming the address", () => {
  it("signing up ends on 'Check your inbox' with no session; logging in first is refused in the catalogue's words, with Send again", async () => {
    await page.goto(url("/signup"));
    await page.getByLabel("A creator").check();
    await page.getByLabel("First Name").fill(visitor.first);
    await page.getByLabel("Last Name").fill(visitor.last);
    await page.getByLabel("Email").fill(visitor.email);
    await page.getByLabel("Password").fill(visitor.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    await page.getByText(visitor.email).waitFor();
    expect(await signedInMarker()).toBeNull();
    await checkAxe("check-inbox");

    await logIn(visitor.password);
    await page.getByText("Please confirm your email before logging in.").waitFor();
    await page.getByRole("button", { name: "Send again" }).click();
    await page.getByText(`We sent a new link to ${visitor.email}.`).waitFor();
    await checkAxe("login-unconfirmed");
    expect(await signedInMarker()).toBeNull();
    // The sign-up's mail and the one sent again.
    await expect.poll(async () => (await mailsTo("verify_email")).length).toBe(2);
  });

  it("the verification mail's link signs the visitor in and leads through the terms to the experts, with the browser's zone kept for mails", async () => {
    verifyLink = await mailedLink(product.url, admin, visitor.email, "verify-email");
    expect(verifyLink.startsWith(`${product.url}/verify-email?token=`), verifyLink).toBe(true);
    const verified = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/verify"));
    await page.goto(verifyLink);
    const session = (await (await verified).json()) as { access_token: string; user: { id: string } };
    await expectPath("/confirm-terms");
    await page.getByRole("status").filter({ hasText: "Your email is confirmed." }).waitFor();
    await checkAxe("confirmed-terms");
    await page.getByLabel("I accept the Terms and Conditions").check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expectPath("/search");
    userId = session.user.id;
    visitorToken = session.access_token;
    await expectRefreshTokenOutOfScripts(page, "web");
    expect(await me()).toMatchObject({ email: visitor.email, email_verified: true, timezone: ZONE, reminder_mails: true });
  });

  it("the same link again says it is no longer valid and offers a new one", async () => {
    await page.goto(verifyLink);
    await page.getByText("This link is no longer valid. Please request a new one.").waitFor();
    await page.getByRole("button", { name: "Send a new link" }).waitFor();
    await checkAxe("verify-link-spent");
  });
});

describe("reminder mails", () => {
  it("a reminder's unsubscribe link turns them off on a button; the account turns them on again in another zone", async () => {
    // The link a reminder mail carries (this walk has no session due for one): signed as the mail's is.
    const token = signLink(product.api.ctx.jwtSecret, "unsubscribe", userId, new Date().toISOString());
    await page.goto(url(`/unsubscribe?token=${token}`));
    await page.getByRole("button", { name: "Stop reminder emails" }).waitFor();
    expect((await me()).reminder_mails).toBe(true);
    await page.getByRole("button", { name: "Stop reminder emails" }).click();
    await page.getByText(`Reminders are off for ${visitor.email}. You can turn them back on in your account.`).waitFor();
    await checkAxe("unsubscribed");
    expect((await me()).reminder_mails).toBe(false);

    await page.goto(url("/account"));
    const reminders = page.getByRole("switch", { name: "Send me reminders before sessions" });
    const zone = page.getByRole("combobox", { name: "Times in emails" });
    await expect.poll(() => reminders.isChecked()).toBe(false);
    expect(await zone.inputValue()).toMatch(/ America\/Chicago$/);
    await reminders.check();
    await zone.fill("Europe/Lisbon");
    await page.getByRole("option", { name: /Europe\/Lisbon/ }).click();
    await page.getByRole("button", { name: "Save Preferences" }).click();
    await page.getByText("Your email preferences have been saved.").waitFor();
    await checkAxe("account-preferences");
    expect(await me()).toMatchObject({ timezone: "Europe/Lisbon", reminder_mails: true });
    await page.reload();
    await expect.poll(() => reminders.isChecked()).toBe(true);
    expect(await zone.inputValue()).toMatch(/ Europe\/Lisbon$/);
  });
});

describe("a forgotten password", () => {
  it("Forgot password answers the same for any address and mails a link to the account's", async () => {
    await logOut();
    await page.goto(url("/login"));
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expectPath("/forgot-password");
    // Navigations are transitions: the login page (with its own Email field) stays on screen
    // until the forgot-password page's chunk has loaded, so wait for that page before typing.
    await page.getByRole("heading", { name: "Forgot Password" }).waitFor();
    await page.getByLabel("Email").fill(`nobody-${run}@example.com`);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await page.getByText(`If an account exists for nobody-${run}@example.com, we sent a link to reset the password.`).waitFor();
    await page.reload();
    await page.getByLabel("Email").fill(visitor.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await page.getByText(`If an account exists for ${visitor.email}, we sent a link to reset the password.`).waitFor();
    await checkAxe("forgot-password-sent");
    resetLink = await mailedLink(product.url, admin, visitor.email, "reset-password");
    expect(resetLink.startsWith(`${product.url}/reset-password?token=`), resetLink).toBe(true);
  });

  it("the reset mail's link sets a new password (the strength rule as everywhere) and signs in to the dashboard", async () => {
    await page.goto(resetLink);
    await page.getByRole("heading", { name: "Choose a New Password" }).waitFor();
    await checkAxe("reset-password");
    await page.getByLabel(/^New Password/).fill("short");
    await page.getByLabel("Confirm New Password").fill("short");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await page.getByText("Password is too weak. Please choose a stronger one.").waitFor();
    await page.getByLabel(/^New Password/).fill(visitor.newPassword);
    await page.getByLabel("Confirm New Password").fill(visitor.newPassword);
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expectPath(`/creator-dashboard/${userId}`);
    await page.getByRole("status").filter({ hasText: "Your password has been changed." }).waitFor();
    await checkAxe("dashboard-after-reset");

    // Spent once the password changed after it was issued.
    await page.goto(resetLink);
    await page.getByLabel(/^New Password/).fill("another-password-3");
    await page.getByLabel("Confirm New Password").fill("another-password-3");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await page.getByText("This link is no longer valid. Please request a new one.").waitFor();
    await page.getByRole("link", { name: "Request a new link" }).waitFor();
  });

  it("the new password logs in; the old one no longer does", async () => {
    await page.goto(url("/"));
    await logOut();
    await logIn(visitor.password);
    await page.getByText("Email or password is incorrect.").waitFor();
    expect(await signedInMarker()).toBeNull();
    await logIn(visitor.newPassword);
    await expectPath(`/creator-dashboard/${userId}`);
  });
});
