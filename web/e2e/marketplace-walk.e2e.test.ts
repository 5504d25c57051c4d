import { readFile } from "node:fs/promises";
import { DateTime } from "luxon";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLEARING_PERIOD_DAYS, monthText } from "@booking/contracts";
import { clockTime, localMoment, longDate } from "../src/shared/local-time.ts";
import { moneyText } from "../src/shared/money.ts";
import { serveVariant } from "./build-web.ts";
import { launchChromium, screenshot, seriousViolations, takeCspViolations, type AxeViolation, type CspViolation } from "./chromium.ts";
import { adminToken, mailedLink } from "./mailbox.ts";
import { callApi } from "./product-api.ts";
import { ADMIN, releaseEarningsAt, startProduct, sweepCompletionsAt, type ProductServer } from "./product-server.ts";
import { gradientPng } from "./test-image.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// The walk, in a real Chromium against the built app served by the real API:
// an expert sets up shop in London, a creator in New York books and pays, both sides work the
// booking through to confirmed, a cancellation frees its time, notes are written and read, and
// every guard redirect of spec section 4 is exercised. Screenshots go to e2e/artifacts/.

const EXPERT_ZONE = "Europe/London";
const CREATOR_ZONE = "America/New_York";
const run = Date.now().toString(36);
const expertUser = { first: "Maya", last: `Lind${run}`, email: `maya-${run}@example.com`, password: "maya-password-1" };
const creatorUser = { first: "Cora", last: "Quinn", email: `cora-${run}@example.com`, password: "cora-password-1" };

let product: ProductServer;
let browser: Browser;
let expertContext: BrowserContext;
let creatorContext: BrowserContext;
let expert: Page;
let creator: Page;
let expertId = "";
let creatorId = "";
let slug = "";
let sessionId = "";
let bookingId = "";
let requestedTime = "";
let proposedTime = "";
const axeReport: Record<string, AxeViolation[]> = {};

const url = (path: string) => `${product.url}${path}`;
/** US dollars as the en-GB expert reads them ("US$127.50"); `short` drops zero cents, as sentences do. */
const expertMoney = (cents: number, short = false) => moneyText(cents, "USD", { locale: "en-GB", short });
const pathOf = (page: Page) => new URL(page.url()).pathname;

async function expectPath(page: Page, path: string | RegExp) {
  await expect
    .poll(() => pathOf(page), { timeout: 15_000 })
    .toSatisfy((p: string) => (typeof path === "string" ? p === path : path.test(p)));
}

async function checkAxe(page: Page, name: string) {
  const violations = await seriousViolations(page);
  axeReport[name] = violations;
  expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

async function visible(page: Page, text: string | RegExp, timeout = 15_000) {
  await page.getByText(text).first().waitFor({ state: "visible", timeout });
}

/** Signs up through the screens and follows the verification mail's link; answers the new account's id, as the link's sign-in gave it to the page. */
async function signUp(page: Page, who: typeof expertUser, role: "A creator" | "An expert"): Promise<string> {
  await page.goto(url("/signup"));
  await page.getByLabel(role).check();
  await page.getByLabel("First Name").fill(who.first);
  await page.getByLabel("Last Name").fill(who.last);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
  // The verification mail's link, from the dev mailbox: it signs the new account in.
  const link = await mailedLink(product.url, await adminToken(product.url, ADMIN), who.email, "verify-email");
  const verified = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/verify"));
  await page.goto(link);
  const session = (await (await verified).json()) as { user: { id: string } };
  await expectPath(page, "/confirm-terms");
  return session.user.id;
}

async function acceptTerms(page: Page) {
  const continueButton = page.getByRole("button", { name: "Continue" });
  expect(await continueButton.isDisabled()).toBe(true);
  await page.getByLabel("I accept the Terms and Conditions").check();
  await continueButton.click();
}

/** The creator's wizard from a chosen time: paid with the test card, the three preparation questions answered, confirmed. */
async function payAndAnswer(answer: string) {
  await creator.getByRole("button", { name: "Continue" }).click();
  await creator.getByTestId("wizard-step-2").waitFor();
  await creator.getByLabel("Card number").fill("4242424242424242");
  await creator.getByLabel("Expiry (MM/YY)").fill("11/31");
  await creator.getByLabel("CVC").fill("321");
  await creator.getByRole("button", { name: "Confirm & Pay" }).click();
  await creator.getByTestId("wizard-step-3").waitFor({ timeout: 10_000 });
  for (const label of ["Which brand is it?", "What is the offer?", "What worries you about it?"])
    await creator.getByLabel(label).fill(answer);
  await creator.getByRole("button", { name: "Submit" }).click();
  await creator.getByTestId("wizard-step-4").waitFor();
}

beforeAll(async () => {
  product = await startProduct(testPostgresUrl(), { ownWebBuild: true });
  browser = await launchChromium();
  expertContext = await browser.newContext({ timezoneId: EXPERT_ZONE, locale: "en-GB", viewport: { width: 1280, height: 900 } });
  creatorContext = await browser.newContext({ timezoneId: CREATOR_ZONE, locale: "en-US", viewport: { width: 1280, height: 900 } });
  for (const c of [expertContext, creatorContext]) await c.grantPermissions(["clipboard-read", "clipboard-write"], { origin: product.url });
  for (const c of [expertContext, creatorContext]) c.setDefaultTimeout(30_000);
  expert = await expertContext.newPage();
  creator = await creatorContext.newPage();
  for (const [name, page] of [
    ["expert", expert],
    ["creator", creator],
  ] as const)
    page.on("pageerror", (e) => console.error(`[${name} page error]`, e.stack));
});

// The app runs under the API's Content-Security-Policy: anything it blocks on any page fails the test.
afterEach(() => {
  expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
});

afterAll(async () => {
  console.log(
    "[web-e2e] axe serious/critical violations per page:",
    JSON.stringify(Object.fromEntries(Object.entries(axeReport).map(([k, v]) => [k, v.length]))),
  );
  await browser?.close();
  await product?.stop();
});

describe("the content security policy", () => {
  it("is sent with the app, and what it blocks is reported (so the checks after each test can fail)", async () => {
    const page = await browser.newPage();
    const reply = await page.goto(url("/"));
    expect(reply?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(reply?.headers()["x-frame-options"]).toBe("DENY");
    await page.locator("h1").waitFor();
    expect(takeCspViolations(browser)).toEqual([]);
    // What an injected script would try: run inline code, and send data to another site through an image.
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.inlineScriptRan = true";
      document.head.append(script);
      const pixel = document.createElement("img");
      pixel.src = "https://tracker.example/pixel.png";
      document.body.append(pixel);
    });
    const seen: CspViolation[] = [];
    await expect.poll(() => seen.push(...takeCspViolations(browser)), { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(seen.map((v) => [v.directive, v.blocked]).sort()).toEqual([
      ["img-src", "https://tracker.example/pixel.png"],
      ["script-src-elem", "inline"],
    ]);
    expect(await page.evaluate(() => (window as unknown as { inlineScriptRan?: boolean }).inlineScriptRan)).toBeUndefined();
    await page.close();
  });
});

describe("visitors", () => {
  it("see the landing page with every section in order, on desktop and on a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url("/"));
    await expect.poll(() => page.locator("h1").textContent()).toContain("reach the right experts");
    const order = await page.evaluate(() => {
      const find = (text: string) => {
        const el = [...document.querySelectorAll("h1,h2,a,button,p,footer")].find((e) => e.textContent?.includes(text));
        return el ? el.getBoundingClientRect().top + window.scrollY : -1;
      };
      return [
        "easy for creators",
        "Reach more fans",
        "Explore our network",
        "Whatever you are working on",
        "A network of trusted professionals",
        "Find your perfect match",
        "Frequently asked questions",
        "Get expert support quickly",
        "All rights reserved",
      ].map(find);
    });
    expect(order.every((y) => y >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(await page.getByTestId("featured-expert").count()).toBe(3);
    expect(await page.getByTestId("challenge").count()).toBe(33);
    expect(await page.getByTestId("benefit").count()).toBe(3);
    expect(await page.getByTestId("faq-item").count()).toBe(7);
    // Issue 27.1: into the marketplace, in the same tab (the attribute is a path: the page is prerendered, its host unknown then).
    for (const [label, path] of [
      ["Explore our network", "/experts"],
      ["Find your perfect match", "/experts"],
      ["Get expert support quickly", "/signup?role=creator"],
    ] as const) {
      const cta = page.getByRole("link", { name: label });
      expect(await cta.getAttribute("target")).toBeNull();
      expect(await cta.evaluate((a) => (a as HTMLAnchorElement).href)).toBe(`${product.url}${path}`);
    }
    // Issue 27.2: no expert is published yet on this fresh product, so the hero keeps the sample cards, which lead nowhere.
    const featured = page.getByRole("list", { name: "Featured experts" });
    await expect.poll(() => featured.getAttribute("aria-busy")).toBe("false");
    expect(await featured.getByRole("link").count()).toBe(0);
    // The FAQ keeps one answer open at a time; clicking the open one closes it.
    const questions = page.locator("[data-testid=faq-item] button");
    expect(await questions.nth(0).getAttribute("aria-expanded")).toBe("true");
    await questions.nth(2).click();
    expect(await questions.nth(2).getAttribute("aria-expanded")).toBe("true");
    expect(await questions.nth(0).getAttribute("aria-expanded")).toBe("false");
    expect(await questions.nth(2).textContent()).toContain("−");
    await questions.nth(2).click();
    expect(await questions.nth(2).getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator("footer").textContent()).toContain(`© ${new Date().getFullYear()}`);
    // Fanned on wide screens: the outer cards are rotated.
    const fanned = await page
      .getByTestId("featured-expert")
      .first()
      .evaluate((e) => getComputedStyle(e).transform);
    expect(fanned).not.toBe("none");
    await page.mouse.move(0, 0);
    await screenshot(page, "landing-desktop");
    await checkAxe(page, "landing");
    await page.close();

    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(url("/"));
    await phone.getByTestId("featured-expert").first().waitFor();
    const lefts = await phone
      .getByTestId("featured-expert")
      .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().left)));
    expect(new Set(lefts).size).toBe(1); // stacked
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, "landing-phone");
    await checkAxe(phone, "landing (phone)");
    await phone.close();
  });

  it("are sent to /login by every guarded route; unknown paths are handled", async () => {
    const page = await browser.newPage();
    for (const path of [
      "/expert-dashboard/someone",
      "/expert-dashboard/someone/profile",
      "/creator-dashboard/someone",
      "/edit-session",
      "/manage-booking/some-booking",
      "/session-notes",
      "/add-session-notes/some-booking",
      "/release-notes",
    ]) {
      await page.goto(url(path));
      await expectPath(page, "/login");
    }
    // Visitors may browse the experts listing without signing in.
    await page.goto(url("/search"));
    await page.getByRole("heading", { name: "Find your expert" }).waitFor();
    expect(pathOf(page)).toBe("/search");
    await page.goto(url("/book-session/some-session"));
    await visible(page, "Please log in as a creator to book a session.");
    await page.goto(url("/no-such-page"));
    await visible(page, "Page not found");
    await page.goto(url("/terms"));
    // The page is a chunk of its own (issue 19): count once it is on screen.
    await page.locator("ol > li h2").first().waitFor();
    expect(await page.locator("ol > li h2").count()).toBe(17);
    await checkAxe(page, "terms");
    await page.goto(url("/about"));
    await visible(page, "About Expert Sessions");
    await page.goto(url("/login"));
    await page.getByRole("heading", { name: "Login", exact: true }).waitFor();
    await page.getByRole("button", { name: "Login" }).click();
    await visible(page, "Please enter your email address.");
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("wrong-password-1");
    await page.getByRole("button", { name: "Login" }).click();
    await visible(page, "Email or password is incorrect.");
    await checkAxe(page, "login");
    await page.goto(url("/signup"));
    await page.getByRole("heading", { name: "Create Your Account" }).waitFor();
    await checkAxe(page, "sign-up");
    await page.close();
  });
});

describe("the expert", () => {
  it("signs up, is held at the terms until accepting them, then lands on the profile tab", async () => {
    expertId = await signUp(expert, expertUser, "An expert");
    expect(expertId).not.toBe("");
    await expert.goto(url(`/expert-dashboard/${expertId}`));
    await expectPath(expert, "/confirm-terms");
    await checkAxe(expert, "confirm-terms");
    await acceptTerms(expert);
    await expectPath(expert, `/expert-dashboard/${expertId}/profile`);
    await expert.getByRole("heading", { name: "Your Profile" }).waitFor();
    // Issue 27.5: a first visit is welcomed, not welcomed back.
    expect(await expert.getByTestId("welcome").textContent()).toBe(`Welcome, ${expertUser.first}!`);
  });

  it("is locked out of sessions and schedule until the profile exists; other dashboards redirect to /", async () => {
    await expert.goto(url(`/expert-dashboard/${expertId}`));
    await visible(expert, "Complete your Expert Profile to unlock session creation.");
    expect(await expert.getByRole("button", { name: "Add New Session" }).isDisabled()).toBe(true);
    await expert.getByRole("tab", { name: "Schedule" }).click();
    await visible(expert, "Complete your Expert Profile to unlock schedule creation.");
    await expert.goto(url("/expert-dashboard/somebody-else"));
    await expectPath(expert, "/");
    await expert.goto(url(`/creator-dashboard/${expertId}`));
    await expectPath(expert, "/");
  });

  it("completes the profile with an image compressed in the browser, publishes and previews it", async () => {
    await expert.goto(url(`/expert-dashboard/${expertId}/profile`));
    await expert.getByLabel("First Name").fill("");
    await expert.getByRole("button", { name: "Save Profile" }).click();
    await visible(expert, "First and Last name are required.");
    await visible(expert, "Title is required.");
    expect(await expert.getByRole("button", { name: "Preview" }).isDisabled()).toBe(true);
    await visible(expert, "Profile must be saved before preview is available.");

    await expert.getByLabel("First Name").fill(expertUser.first);
    await expert.getByLabel("Last Name").fill(expertUser.last);
    await expert.getByLabel("Title").fill("Brand Partnerships Advisor");
    await expert.getByLabel("About").fill("I negotiate brand deals for podcasters.\n\nTen years at an agency, now on your side.");
    await expert.getByLabel("Tags").fill("Brand Strategy, Revenue Strategy, Fan Monetization");
    await expert
      .getByLabel("Profile Image")
      .setInputFiles({ name: "not-an-image.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await visible(expert, "Invalid file type. Please upload an image.");
    await expert
      .getByLabel("Profile Image")
      .setInputFiles({ name: "portrait.png", mimeType: "image/png", buffer: gradientPng(1800, 1400) });
    const preview = expert.getByTestId("profile-image-preview");
    await preview.waitFor();
    expect(await preview.getAttribute("src")).toMatch(/^blob:/);
    await expert.getByRole("button", { name: "Publish Profile" }).click();
    await visible(expert, "Your profile has been published!");
    await expect.poll(() => preview.getAttribute("src")).toMatch(new RegExp(`^/api/v1/media/experts/${expertId}/profile\\?v=\\d+$`));
    // Compressed to 1200 px on the long side, stored as JPEG.
    const size = await preview.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return { w: img.naturalWidth, h: img.naturalHeight };
    });
    expect(Math.max(size.w, size.h)).toBe(1200);
    const stored = await fetch(url((await preview.getAttribute("src"))!));
    expect(stored.headers.get("content-type")).toBe("image/jpeg");
    expect(Number((await stored.arrayBuffer()).byteLength)).toBeLessThanOrEqual(5 * 1024 * 1024);
    await screenshot(expert, "expert-profile-tab");
    await checkAxe(expert, "expert dashboard: profile");

    await expert.getByRole("button", { name: "Preview" }).click();
    await expectPath(expert, /^\/expert-profile\//);
    slug = pathOf(expert).split("/").pop()!;
    expect(new URL(expert.url()).searchParams.get("preview")).toBe("true");
    await expert.getByRole("heading", { name: `${expertUser.first} ${expertUser.last}` }).waitFor();
    expect(await expert.title()).toContain(`${expertUser.first} ${expertUser.last}`);
  });

  it("creates a 60-minute session with every field checked, publishes it, and deletes a throwaway one", async () => {
    await expert.goto(url(`/expert-dashboard/${expertId}`));
    await visible(expert, "Your sessions will appear here once you have created them.");
    await expert.getByRole("link", { name: "Add New Session" }).click();
    await expectPath(expert, "/edit-session");
    await expert.getByRole("button", { name: "Save Session" }).click();
    await visible(expert, "Please enter a session title.");
    await visible(expert, "Please enter a valid price of at least $1, in dollars and cents.");
    await visible(expert, "Add between one and three session questions.");
    // Issue 27.19: nothing to publish or delete before the first save.
    expect(await expert.getByRole("button", { name: "Publish Session" }).isDisabled()).toBe(true);
    await visible(expert, "Save the session first; then you can publish it.");
    expect(await expert.getByRole("button", { name: "Delete Session" }).count()).toBe(0);

    await expert.getByLabel("Session Title").fill("Brand deal review");
    await expert.getByLabel("Session Price (USD)").fill("1a5$0");
    expect(await expert.getByLabel("Session Price (USD)").inputValue()).toBe("150");
    // Issue 29.1: before publishing, what the expert receives of the price, the platform's fee named.
    await visible(
      expert,
      `You receive ${expertMoney(12_750, true)} of ${expertMoney(15_000, true)}. Platform fee 15 %: ${expertMoney(2_250, true)}.`,
    );
    await expert.getByLabel("Session Length").selectOption("60");
    // Issue 31.4: the session's own cut-offs, within the contract's choices; the creator sees them before paying.
    expect(await expert.getByLabel("Full refund if cancelled at least").inputValue()).toBe("24");
    expect(await expert.getByLabel("Creators can ask to move it until").inputValue()).toBe("24");
    await visible(expert, "Applies to new bookings; bookings already made keep the terms they were made under.");
    await expert.getByLabel("Full refund if cancelled at least").selectOption({ label: "48 hours before the start" });
    await expert.getByLabel("Creators can ask to move it until").selectOption({ label: "12 hours before the start" });
    await expert.getByLabel("Short Description").fill("We go through your next brand deal together.");
    await expert.getByLabel("Long Description").fill("Contract terms, rates and deliverables, line by line.");
    await expert.getByLabel("Who is this session for?").fill("podcasters, YouTubers , ");
    await expert.getByLabel("Question 1", { exact: true }).fill("Which brand is it?");
    await expert.getByRole("button", { name: "Add Question" }).click();
    await expert.getByLabel("Question 2", { exact: true }).fill("What is the offer?");
    await expert.getByRole("button", { name: "Add Question" }).click();
    await expert.getByLabel("Question 3", { exact: true }).fill("What worries you about it?");
    expect(await expert.getByRole("button", { name: "Add Question" }).count()).toBe(0);
    await expert.getByRole("button", { name: "Save Session" }).click();
    await expectPath(expert, /^\/edit-session\/[\w-]+$/);
    sessionId = pathOf(expert).split("/").pop()!;
    await visible(expert, "Your session has been saved successfully!");
    expect(await expert.getByTestId("session-status").textContent()).toBe("Draft");
    // Saved as chosen: the editor shows the saved session's cut-offs.
    expect(await expert.getByLabel("Full refund if cancelled at least").inputValue()).toBe("48");
    expect(await expert.getByLabel("Creators can ask to move it until").inputValue()).toBe("12");
    await expert.getByRole("button", { name: "Publish Session" }).click();
    await visible(expert, "Session published successfully!");
    expect(await expert.getByTestId("session-status").textContent()).toBe("Live");
    await checkAxe(expert, "edit session");

    await expert.goto(url("/edit-session"));
    await expert.getByLabel("Session Title").fill("Throwaway");
    await expert.getByLabel("Session Price (USD)").fill("10");
    await expert.getByLabel("Question 1", { exact: true }).fill("Why?");
    await expert.getByRole("button", { name: "Save Session" }).click();
    await expectPath(expert, /^\/edit-session\/[\w-]+$/);
    await expert.getByRole("button", { name: "Delete Session" }).click();
    await expert.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await visible(expert, "Session deleted successfully");
    await expectPath(expert, `/expert-dashboard/${expertId}`);

    const rows = expert.getByRole("table", { name: "Your sessions" }).locator("tbody tr");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Live");
    expect(await rows.first().textContent()).toContain("$150");
    await checkAxe(expert, "expert dashboard: sessions");
  });

  it("sets a weekly schedule in Europe/London, with validation and the server's overlap message", async () => {
    await expert.goto(url(`/expert-dashboard/${expertId}`));
    await expert.getByRole("tab", { name: "Schedule" }).click();
    await expectPath(expert, `/expert-dashboard/${expertId}/slots`);
    await expert.getByRole("heading", { name: "Your Schedule" }).waitFor();
    await expert.getByLabel("Timezone").fill("Europe/London");
    await expert.getByRole("option", { name: /\) Europe\/London$/ }).click();
    expect(await expert.getByLabel("Timezone").inputValue()).toMatch(/^\(UTC[+-]\d\d:\d\d\) Europe\/London$/);

    const slot = (n: number) => expert.getByRole("group", { name: `Slot ${n}` });
    expect(
      await slot(1)
        .getByRole("button", { name: /Remove/ })
        .count(),
    ).toBe(0);
    await slot(1).getByLabel("Start").selectOption("18:00");
    await visible(expert, "End time must be after start time");
    expect(await expert.getByRole("button", { name: "Save all" }).isDisabled()).toBe(true);
    const endOptions = await slot(1).getByLabel("End").locator("option:not([disabled])").allTextContents();
    expect(endOptions[0]).toBe("18:30"); // the expert reads en-GB: a 24-hour clock
    expect(endOptions.at(-1)).toBe("23:30");
    await slot(1).getByLabel("Start").selectOption("09:00");
    await slot(1).getByLabel("End").selectOption("17:00");
    expect(await expert.getByRole("button", { name: "Save all" }).isDisabled()).toBe(false);

    const days = ["tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
    for (const [i, day] of days.entries()) {
      await expert.getByRole("button", { name: "Add New Slot" }).click();
      await slot(i + 2)
        .getByLabel("Day")
        .selectOption(day);
    }
    // An overlapping slot: both slots are named under it, and Save all waits until they no longer overlap.
    await expert.getByRole("button", { name: "Add New Slot" }).click();
    await slot(8).getByLabel("Start").selectOption("10:00");
    await slot(8).getByLabel("End").selectOption("12:00");
    await expect.poll(() => slot(8).getByRole("alert").textContent()).toMatch(/Monday 10:00.12:00 overlaps Monday 09:00.17:00/);
    expect(await expert.getByRole("button", { name: "Save all" }).isDisabled()).toBe(true);
    await expert.getByRole("button", { name: "Remove slot 8" }).click();
    await expert.getByRole("button", { name: "Save all" }).click();
    await visible(expert, "Schedule saved successfully!");
    await checkAxe(expert, "expert dashboard: schedule");
    // Alerts go away by themselves after 5 s.
    await expert.getByText("Schedule saved successfully!").waitFor({ state: "detached", timeout: 8000 });
    await expert.reload();
    await expert.getByRole("group", { name: "Slot 7" }).waitFor();
    expect(await expert.getByLabel("Timezone").inputValue()).toContain("Europe/London");
  });

  it("applies to be vetted: in review, asked for a change with a note, resubmits, approved with the checklist: then listed", async () => {
    // Not listed before our team approves: the listing does not show the expert yet.
    const names = async () => (await callApi<{ id: string }[]>(product.url, "GET", "/experts", null)).map((e) => e.id);
    expect(await names()).not.toContain(expertId);
    await expert.goto(url(`/expert-dashboard/${expertId}/application`));
    await visible(expert, "Apply to be listed: our team reviews every expert before creators can book them.");
    await expert.getByLabel("Your expertise").fill("Brand deals for podcasters");
    const form = expert.getByRole("form", { name: "Your application" });
    await form.getByLabel(/^Title/).fill("Brand Partnerships Advisor");
    await expert
      .getByLabel("Bio")
      .fill("Ten years at a talent agency negotiating brand deals; now I help podcasters price and pitch their own.");
    await expert.getByLabel("Links to your work").fill("ftp://example.com/old");
    await expert.getByLabel("Years of experience").fill("10");
    await expert.getByLabel("What creators can expect from a session with you").fill("A rate card and a pitch you can send the same day.");
    await expert.getByLabel("I agree to the expert standards").check();
    await expert.getByRole("button", { name: "Submit application" }).click();
    await visible(expert, "Please give one to ten links to your work, each starting with http:// or https://.");
    await expert.getByLabel("Links to your work").fill("https://example.com/portfolio");
    await expert.getByRole("button", { name: "Submit application" }).click();
    await visible(expert, "In review — we answer within 2 working days.");
    await checkAxe(expert, "expert dashboard: application in review");

    // The console's review, as the admin's calls: start, a note, a request for changes.
    const admin = await adminToken(product.url, ADMIN);
    const step = (path: string, body: unknown) =>
      callApi<{ revision: number }>(product.url, "POST", `/admin/applications/${expertId}/${path}`, admin, body);
    const opened = await callApi<{ revision: number; status: string }>(product.url, "GET", `/admin/applications/${expertId}`, admin);
    expect(opened.status).toBe("submitted");
    let revision = (await step("review", { seen_revision: opened.revision })).revision;
    revision = (await step("notes", { seen_revision: revision, note: "Portfolio loads; no show linked" })).revision;
    await step("decision", {
      seen_revision: revision,
      decision: "request_changes",
      reason: "Please add a link to a podcast you worked with.",
    });

    await expert.reload();
    await visible(expert, "Changes requested — please update your application and send it again.");
    await visible(expert, "From our team: Please add a link to a podcast you worked with.");
    await expert.getByLabel("Links to your work").fill("https://example.com/portfolio\nhttps://example.com/podcast");
    await expert.getByLabel("I agree to the expert standards").check();
    await expert.getByRole("button", { name: "Resubmit application" }).click();
    await visible(expert, "In review — we answer within 2 working days.");

    const resubmitted = await callApi<{ revision: number; answers: { links: string[] } }>(
      product.url,
      "GET",
      `/admin/applications/${expertId}`,
      admin,
    );
    expect(resubmitted.answers.links).toEqual(["https://example.com/portfolio", "https://example.com/podcast"]);
    const checklist = { identity_plausible: true, expertise_shown: true, links_work: true, photo_is_person: true, bio_professional: true };
    await step("decision", { seen_revision: resubmitted.revision, decision: "approve", reason: "Strong agency record.", checklist });
    await expert.reload();
    await visible(expert, "Approved — creators can book you.");
    await expect.poll(names).toContain(expertId);
  });

  it("keeps the Bookings tab open, waiting for requests", async () => {
    await expert.goto(url(`/expert-dashboard/${expertId}/bookings`));
    await visible(expert, "Your bookings will appear here once creators book your sessions.");
  });
});

describe("the creator", () => {
  it("signs up, accepts the terms and lands on the experts listing; foreign dashboards redirect to /", async () => {
    creatorId = await signUp(creator, creatorUser, "A creator");
    await creator.goto(url("/search"));
    await expectPath(creator, "/confirm-terms");
    await acceptTerms(creator);
    await expectPath(creator, "/search");
    for (const path of [`/expert-dashboard/${creatorId}`, `/creator-dashboard/${expertId}`, "/edit-session", `/manage-booking/x`]) {
      await creator.goto(url(path));
      await expectPath(creator, "/");
    }
  });

  it("finds the expert by search (debounced), prefetches on hover and opens the profile", async () => {
    await creator.goto(url("/search"));
    const searchBox = creator.getByRole("searchbox", { name: "Search for experts by name, role, or expertise" });
    await searchBox.waitFor();
    const searches: string[] = [];
    creator.on("request", (r) => r.url().includes("/api/v1/experts/search") && searches.push(r.url()));
    await searchBox.fill("no-such-expert-anywhere");
    await visible(creator, "No experts match your search.");
    await searchBox.fill("");
    searches.length = 0;
    const searched = creator.waitForResponse((r) =>
      r.url().endsWith(`/api/v1/experts/search?search=${encodeURIComponent(expertUser.last)}`),
    );
    await searchBox.pressSequentially(expertUser.last, { delay: 20 });
    await searched;
    await creator.waitForTimeout(500);
    expect(searches).toHaveLength(1); // one call for the whole word, after the typing stopped
    const cards = creator.getByTestId("expert-card");
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(1);
    expect(await cards.first().textContent()).toContain("$150 per session");
    await checkAxe(creator, "experts listing");
    const prefetch = creator.waitForRequest((r) => r.url().endsWith(`/api/v1/experts/${slug}`));
    await cards.first().hover();
    await prefetch;
    await cards.first().getByRole("link").click();
    await expectPath(creator, `/expert-profile/${slug}`);
    await creator.getByRole("heading", { name: `${expertUser.first} ${expertUser.last}` }).waitFor();
    await visible(creator, "Ten years at an agency, now on your side.");
    expect(await creator.getByRole("list", { name: "Expertise" }).getByRole("listitem").count()).toBe(3);
    await visible(creator, "60 mins session");
    const share = creator.getByRole("button", { name: "Share" });
    await share.click();
    await creator.getByRole("button", { name: "Copied" }).waitFor();
    await creator.getByRole("button", { name: "Share" }).waitFor({ timeout: 4000 });
    await screenshot(creator, "expert-public-profile");
    await checkAxe(creator, "expert profile");
  });

  it("books a time shown in New York time, is declined, pays, answers the prep questions and sees the confirmation", async () => {
    await creator.getByRole("button", { name: "Book Session: Brand deal review" }).click();
    await expectPath(creator, `/book-session/${sessionId}`);
    await creator.getByTestId("wizard-step-0").waitFor();
    await visible(creator, "What's included");
    // The cancellation policy, before anything is held or paid: the rule in words, with the session's own cut-offs (issue 31.4).
    const policy = await creator.getByTestId("cancellation-policy").textContent();
    expect(policy).toContain(
      "Cancel at least 48 hours before the session and you get a full refund. Later cancellations are not refunded.",
    );
    expect(policy).toContain("You can ask to move it until 12 hours before the start.");
    expect(policy).not.toContain("24 hours");
    expect(policy).toContain(
      `If ${expertUser.first} declines or cancels, or you cancel before ${expertUser.first} accepts your request, you are refunded in full.`,
    );
    await screenshot(creator, "wizard-1-detail");
    await checkAxe(creator, "wizard: detail");
    await creator.getByRole("button", { name: "Continue Booking" }).click();

    await creator.getByTestId("wizard-step-1").waitFor();
    expect(await creator.getByTestId("creator-zone").textContent()).toContain("New York time (America/New_York)");
    await creator.getByRole("button", { name: "Continue" }).click();
    await visible(creator, "Please choose a date and time.");
    // Monday-first 42-day grid; only days within 28 days that have times are selectable.
    const days = creator.locator("[data-day]");
    // The grid draws once the expert's times have come (on a loaded machine, well after the step's heading).
    await expect.poll(() => days.count()).toBe(42);
    expect(DateTime.fromISO((await days.first().getAttribute("data-day"))!).weekday).toBe(1);
    const lastSelectable = await creator.locator("[data-day]:not([disabled])").last().getAttribute("data-day");
    expect(lastSelectable! <= DateTime.now().setZone(CREATOR_ZONE).plus({ days: 28 }).toISODate()!).toBe(true);
    await creator.locator("[data-day]:not([disabled])").nth(1).click(); // the second bookable day is always a whole day
    const times = creator.getByRole("group", { name: "Available times" }).getByRole("button");
    await times.first().waitFor();
    // Every time reads in New York time: 9:00-17:00 London is 4:00 AM-11:00 AM (EST) here.
    for (const button of (await times.all()).slice(0, 4)) {
      const iso = (await button.getAttribute("data-time"))!;
      expect(await button.textContent()).toBe(clockTime(iso, CREATOR_ZONE, "en-US"));
      const london = DateTime.fromISO(iso, { zone: EXPERT_ZONE });
      expect(london.hour * 60 + london.minute).toBeGreaterThanOrEqual(9 * 60);
    }
    const chosen = times.nth(1);
    requestedTime = (await chosen.getAttribute("data-time"))!;
    await chosen.click();
    await screenshot(creator, "wizard-2-time");
    await checkAxe(creator, "wizard: time");
    await creator.getByRole("button", { name: "Continue" }).click();

    await creator.getByTestId("wizard-step-2").waitFor();
    // Issue 27.9: a hold being paid is not a request to the expert yet.
    expect(await expert.getByTestId("expert-booking").count()).toBe(0);

    await creator.getByTestId("amount").filter({ hasText: "$150.00" }).waitFor();
    // On the payment step, before paying, the held time's own deadline for a full refund (48 hours before it: the
    // session's cut-off, recorded on the booking) and its move notice.
    const fullRefundUntil = DateTime.fromISO(requestedTime).minus({ hours: 48 }).toISO()!;
    await expect
      .poll(() => creator.getByTestId("cancellation-policy").textContent())
      .toContain(`Cancel before ${localMoment(fullRefundUntil, CREATOR_ZONE, "en-US")} and you get a full refund.`);
    expect(await creator.getByTestId("cancellation-policy").textContent()).toContain(
      "You can ask to move it until 12 hours before the start.",
    );
    await screenshot(creator, "wizard-3-payment");
    await checkAxe(creator, "wizard: payment");
    await creator.getByLabel("Card number").fill("4000 0000 0000 0002");
    await creator.getByLabel("Expiry (MM/YY)").fill("12/30");
    await creator.getByLabel("CVC").fill("123");
    await creator.getByRole("button", { name: "Confirm & Pay" }).click();
    await visible(creator, "Your card was declined.");
    await creator.getByLabel("Card number").fill("4242 4242 4242 4242");
    await creator.getByRole("button", { name: "Confirm & Pay" }).click();
    await visible(creator, "Payment successful");
    const paidAt = Date.now();
    await creator.getByTestId("wizard-step-3").waitFor();
    expect(Date.now() - paidAt).toBeGreaterThanOrEqual(1300);

    // The expert sees the paid request appear without reloading (server-sent events).
    await expert.getByTestId("expert-booking").first().waitFor({ timeout: 15_000 });
    bookingId = (await expert.getByTestId("expert-booking").first().getAttribute("data-booking-id"))!;
    await visible(expert, /You have a new session request from Cora Quinn/);
    await creator.getByRole("button", { name: "Submit" }).click();
    await visible(creator, "Please answer each preparation question.");
    await screenshot(creator, "wizard-4-preparation");
    await checkAxe(creator, "wizard: preparation");
    await creator.getByLabel("Which brand is it?").fill("A sportswear brand");
    await creator.getByLabel("What is the offer?").fill("Three videos for $4,000");
    await creator.getByLabel("What worries you about it?").fill("Exclusivity for two years");
    await creator.getByRole("button", { name: "Submit" }).click();

    await creator.getByTestId("wizard-step-4").waitFor();
    await visible(creator, "Request sent");
    await visible(creator, /has until .* to accept/);
    await visible(creator, localMoment(requestedTime, CREATOR_ZONE, "en-US"));
    const dashboardLink = creator.getByRole("link", { name: "Go to your dashboard" });
    expect(await dashboardLink.getAttribute("href")).toBe(`/creator-dashboard/${creatorId}`);
    await screenshot(creator, "wizard-5-confirmation");
    await checkAxe(creator, "wizard: confirmation");
    await dashboardLink.click();
    await expectPath(creator, `/creator-dashboard/${creatorId}`);
    const card = creator.locator(`[data-booking-id="${bookingId}"]`);
    await card.waitFor();
    expect(await card.getByTestId("booking-status").textContent()).toBe("Pending");
  });
});

describe("both sides work the booking to confirmed", () => {
  it("the expert requests more info", async () => {
    const row = expert.locator(`[data-booking-id="${bookingId}"]`);
    expect(await row.getByTestId("booking-status").textContent()).toBe("New");
    await row.getByRole("link", { name: /Review Booking/ }).click();
    await expectPath(expert, `/manage-booking/${bookingId}`);
    expect(await expert.getByTestId("prep-answer-1").textContent()).toBe("A sportswear brand");
    await checkAxe(expert, "manage booking");
    await expert.getByRole("button", { name: "Request More Info" }).click();
    await expert.getByRole("button", { name: "Submit" }).click();
    await visible(expert, "Please describe what information you need.");
    await expert.getByLabel("What would you like to know?").fill("Can you share the draft contract?");
    await expert.getByRole("button", { name: "Submit" }).click();
    await visible(expert, "Request Sent");
  });

  it("the creator sees it without reloading and answers", async () => {
    const card = creator.locator(`[data-booking-id="${bookingId}"]`);
    await expect.poll(() => card.getByTestId("booking-status").textContent(), { timeout: 15_000 }).toBe("Needs info");
    await visible(creator, "Can you share the draft contract?");
    await card.getByRole("button", { name: "Answer", exact: true }).click();
    await card.getByLabel("What worries you about it?").fill("Exclusivity for two years; the draft is attached to my email.");
    await card.getByRole("button", { name: "Send Answers" }).click();
    await expect.poll(() => card.getByTestId("booking-status").textContent(), { timeout: 15_000 }).toBe("Pending");
  });

  it("the expert proposes another of their bookable times (09:00 to 16:00 for an hour in London, on the en-GB expert's 24-hour clock)", async () => {
    await expert.goto(url(`/manage-booking/${bookingId}`));
    expect(await expert.getByTestId("prep-answer-3").textContent()).toContain("the draft is attached");
    // Propose sits beside Accept and Decline on the first screen (issue 27.12).
    await expert.getByRole("button", { name: "Propose another time" }).click();
    const requestedDay = DateTime.fromISO(requestedTime, { zone: EXPERT_ZONE }).toISODate()!;
    const otherDay = DateTime.fromISO(requestedDay).plus({ days: 1 }).toISODate()!;
    if (DateTime.fromISO(otherDay).month !== DateTime.fromISO(requestedDay).month)
      await expert.getByRole("button", { name: "Next month" }).click();
    await expert.locator(`[data-day="${otherDay}"]`).click();
    // The day's times come from the API: wait for them before reading the list.
    await expert.getByRole("group", { name: "Times" }).getByRole("button", { name: "16:00" }).waitFor();
    const options = await expert.getByRole("group", { name: "Times" }).getByRole("button").allTextContents();
    expect(options[0]).toBe("09:00");
    expect(options.at(-1)).toBe("16:00"); // the expert's hours end at 17:00: a later start would not fit the hour
    expect(options).toHaveLength(15);
    await expert.getByRole("button", { name: "10:00", exact: true }).click();
    proposedTime = DateTime.fromISO(`${otherDay}T10:00`, { zone: EXPERT_ZONE }).toUTC().toISO()!;
    await visible(expert, "as a proposal to accept");
    await expert.getByRole("button", { name: "Propose this time" }).click();
    await visible(expert, "New Time Proposed");
    await expert.getByRole("link", { name: "Back to your dashboard" }).click();
    const row = expert.locator(`[data-booking-id="${bookingId}"]`);
    await expect.poll(() => row.getByTestId("booking-status").textContent()).toBe("Time proposed");
  });

  it("the creator accepts, and both dashboards show it confirmed at their own local times", async () => {
    const card = creator.locator(`[data-booking-id="${bookingId}"]`);
    await expect.poll(() => card.getByTestId("booking-status").textContent(), { timeout: 15_000 }).toBe("Time proposed");
    expect(await card.getByTestId("booking-time").textContent()).toContain(localMoment(proposedTime, CREATOR_ZONE, "en-US"));
    await card.getByRole("button", { name: "Accept New Time" }).click();
    await expect.poll(() => card.getByTestId("booking-status").textContent()).toBe("Confirmed");
    expect(await card.getByTestId("booking-time").textContent()).toBe(localMoment(proposedTime, CREATOR_ZONE, "en-US"));
    await screenshot(creator, "creator-dashboard");
    await checkAxe(creator, "creator dashboard");

    const row = expert.locator(`[data-booking-id="${bookingId}"]`);
    await expect.poll(() => row.getByTestId("booking-status").textContent(), { timeout: 15_000 }).toBe("Confirmed");
    expect(await row.getByTestId("booking-time").textContent()).toBe(localMoment(proposedTime, EXPERT_ZONE, "en-GB"));
    await screenshot(expert, "expert-dashboard");
    await checkAxe(expert, "expert dashboard: bookings");
    await expert.getByRole("tab", { name: "Payments" }).click();
    const month = DateTime.fromISO(proposedTime).toFormat("LLLL yyyy");
    await expert.getByRole("cell", { name: month }).waitFor();
    expect(await expert.getByRole("table", { name: "Your payments by month" }).textContent()).toContain("$150.00");
  });
});

describe("a cancelled booking gives its time back", () => {
  it("the creator books another time, cancels it with confirmation, and the time is offered again", async () => {
    await creator.goto(url(`/book-session/${sessionId}`));
    await creator.getByRole("button", { name: "Continue Booking" }).click();
    await creator.locator("[data-day]:not([disabled])").nth(1).click(); // the second bookable day is always a whole day
    const times = creator.getByRole("group", { name: "Available times" }).getByRole("button");
    await times.first().waitFor();
    const second = times.nth(4);
    const time = (await second.getAttribute("data-time"))!;
    await second.click();
    await payAndAnswer("Second booking");

    await creator.goto(url(`/creator-dashboard/${creatorId}`));
    const cards = creator.getByTestId("creator-booking");
    await expect.poll(() => cards.count()).toBe(2);
    const card = creator
      .locator("[data-testid=creator-booking]")
      .filter({ hasNot: creator.locator(`[data-booking-id="${bookingId}"]`) })
      .filter({ hasText: "Pending" });
    await card.getByRole("button", { name: /Cancel Session/ }).click();
    const dialog = creator.getByRole("dialog");
    await dialog.getByText("Are you sure you want to cancel this booking?").waitFor();
    await dialog.getByRole("button", { name: "Yes, Cancel" }).click();
    await expect.poll(() => creator.getByTestId("booking-status").allTextContents()).toContain("Cancelled");

    await creator.goto(url(`/book-session/${sessionId}`));
    await creator.getByRole("button", { name: "Continue Booking" }).click();
    await creator.locator("[data-day]:not([disabled])").nth(1).click(); // the second bookable day is always a whole day
    await creator.locator(`[data-time="${time}"]`).waitFor();
  });
});

describe("a confirmed booking cancelled early is paid back", () => {
  it("the creator books and pays three days ahead, the expert confirms, the creator cancels told $150 comes back, and the dashboard shows it refunded", async () => {
    // A fresh start: the wizard keeps the previous visit's step in this tab's sessionStorage.
    await creator.evaluate(() => sessionStorage.clear());
    await creator.goto(url(`/book-session/${sessionId}`));
    await creator.getByRole("button", { name: "Continue Booking" }).click();
    // The fourth bookable day starts three days from today at the earliest: every time on it is more than 48 hours away,
    // the session's cut-off for a full refund (issue 31.4).
    await creator.locator("[data-day]:not([disabled])").nth(3).click();
    const times = creator.getByRole("group", { name: "Available times" }).getByRole("button");
    await times.first().waitFor();
    const time = (await times.first().getAttribute("data-time"))!;
    expect(Date.parse(time) - Date.now()).toBeGreaterThan(48 * 3_600_000);
    await times.first().click();
    await payAndAnswer("A booking to cancel");

    await creator.goto(url(`/creator-dashboard/${creatorId}`));
    // By its status chip: "Refund of $150 pending" on the booking cancelled before would match a text filter.
    const pending = creator
      .getByTestId("creator-booking")
      .filter({ has: creator.getByTestId("booking-status").getByText("Pending", { exact: true }) });
    await expect.poll(() => pending.count()).toBe(1);
    const refundedId = (await pending.getAttribute("data-booking-id"))!;
    const card = creator.locator(`[data-booking-id="${refundedId}"]`);
    await expect.poll(() => card.getByTestId("booking-money").textContent()).toBe("Paid $150");

    // The expert confirms the requested time: from here the booking's 48-hour rule applies.
    await expert.goto(url(`/manage-booking/${refundedId}`));
    await expert.getByRole("button", { name: "Accept Booking" }).click();
    await expert.getByRole("button", { name: "Confirm Date & Time" }).click();
    await visible(expert, "Booking Confirmed");
    await expect.poll(() => card.getByTestId("booking-status").textContent(), { timeout: 15_000 }).toBe("Confirmed");

    await card.getByRole("button", { name: /Cancel Session/ }).click();
    const dialog = creator.getByRole("dialog");
    await dialog.getByText("Are you sure you want to cancel this booking?").waitFor();
    expect(await dialog.getByTestId("cancel-refund").textContent()).toBe("You will get $150 back.");
    await screenshot(creator, "cancel-dialog-refund");
    await dialog.getByRole("button", { name: "Yes, Cancel" }).click();
    await expect.poll(() => card.getByTestId("booking-status").textContent()).toBe("Cancelled");
    // The refunds reactor pays it through the test provider; the dashboard follows the booking's events.
    await expect.poll(() => card.getByTestId("booking-money").textContent(), { timeout: 30_000 }).toBe("Paid $150 · Refunded $150");
    await checkAxe(creator, "creator dashboard: refunded");
  });
});

describe("session notes", () => {
  it("the expert adds notes and downloads them; the creator reads them", async () => {
    await expert.goto(url(`/expert-dashboard/${expertId}/bookings`));
    const row = expert.locator(`[data-booking-id="${bookingId}"]`);
    await row.getByRole("link", { name: /Add Notes/ }).click();
    await expectPath(expert, `/add-session-notes/${bookingId}`);
    await expert.getByRole("button", { name: "Save Notes" }).click();
    await visible(expert, "Please add a session summary.");
    await expert.getByLabel("Session Summary").fill("We reviewed the sportswear deal.");
    await expert.getByLabel("Session Recap").fill("Rates are fair; exclusivity is too long.");
    await expert.getByLabel("Key Takeaways").fill("Ask for 6 months exclusivity\nKeep usage rights to 1 year");
    await expert.getByLabel("Suggested Actions").fill("Send the counter-offer\nUpdate the media kit");
    await expert.getByRole("button", { name: "Save Notes" }).click();
    await expectPath(expert, `/session-notes/${bookingId}`);
    await visible(expert, "Ask for 6 months exclusivity");
    await checkAxe(expert, "session notes");
    const [download] = await Promise.all([expert.waitForEvent("download"), expert.getByRole("button", { name: "Download Notes" }).click()]);
    const text = await readFile((await download.path())!, "utf8");
    expect(download.suggestedFilename()).toMatch(/^session-notes-brand-deal-review-\d{4}-\d{2}-\d{2}\.md$/);
    expect(text).toContain("We reviewed the sportswear deal.");
    expect(text).toContain("- [ ] Send the counter-offer");

    await creator.goto(url(`/creator-dashboard/${creatorId}`));
    const card = creator.locator(`[data-booking-id="${bookingId}"]`);
    await card.getByRole("link", { name: "View Notes" }).click();
    await expectPath(creator, `/session-notes/${bookingId}`);
    expect(await creator.getByTestId("notes-summary-text").textContent()).toBe("We reviewed the sportswear deal.");
    expect(await creator.getByRole("link", { name: "Edit Notes" }).count()).toBe(0);
  });
});

describe("a completed session is reviewed", () => {
  const reviewText = "Clear, practical advice on the exclusivity clause.";
  const replyText = "Thank you, Cora. Good luck with the counter-offer!";
  const publicReviews = async () =>
    (await (await fetch(url(`/api/v1/experts/${slug}`))).json()) as {
      reviews: { created_at: string; review: string; reply: { text: string } | null }[];
    };

  it("the session is completed once it is over, its creator reviews it, and the stars show on the profile and the listing", async () => {
    // The completion sweeper, run as the clock will read a minute after the session ends.
    const ended = DateTime.fromISO(proposedTime).plus({ minutes: 61 }).toUTC().toISO()!;
    expect(await sweepCompletionsAt(product.api, ended)).toBe(1);
    await creator.goto(url(`/creator-dashboard/${creatorId}`));
    const card = creator.locator(`[data-booking-id="${bookingId}"]`);
    await expect.poll(() => card.getByTestId("booking-status").textContent(), { timeout: 15_000 }).toBe("Complete");

    await card.getByRole("link", { name: "View Notes" }).click();
    await expectPath(creator, `/session-notes/${bookingId}`);
    await creator.getByRole("heading", { name: "Review this session" }).waitFor();
    const form = creator.getByRole("form", { name: "Leave a review" });
    expect(await form.getByRole("button", { name: "Submit Review" }).isDisabled()).toBe(true); // no stars yet
    // A star is its label (the radio under it is visually hidden): click the fourth star itself.
    const fourStars = form.getByLabel("4 Stars");
    await form.locator(`label[for="${await fourStars.getAttribute("id")}"]`).click();
    expect(await fourStars.isChecked()).toBe(true);
    await form.getByLabel("Review (optional)").fill(reviewText);
    await form.getByRole("button", { name: "Submit Review" }).click();
    await creator.getByRole("heading", { name: "Your review" }).waitFor();
    await creator.getByRole("img", { name: "4 out of 5 stars" }).waitFor();
    await visible(creator, reviewText);
    await creator.getByRole("button", { name: "Edit Review" }).waitFor();
    await checkAxe(creator, "session notes: review");

    // The profile's reviews block: stars, text, the creator's first name and last initial, a long date in the creator's locale.
    await creator.goto(url(`/expert-profile/${slug}`));
    const review = creator.getByTestId("review");
    await review.waitFor();
    expect(await review.count()).toBe(1);
    await review.getByRole("img", { name: "4 out of 5 stars" }).waitFor();
    const [written] = (await publicReviews()).reviews;
    const writtenOn = longDate(written!.created_at, CREATOR_ZONE, "en-US");
    expect(await review.textContent()).toBe(`${reviewText}${creatorUser.first} ${creatorUser.last[0]}. · ${writtenOn}`);
    await checkAxe(creator, "expert profile: reviews");

    // The listing's card: the average and the count.
    await creator.goto(url("/search"));
    await creator.getByRole("searchbox", { name: "Search for experts by name, role, or expertise" }).fill(expertUser.last);
    const rating = creator
      .getByTestId("expert-card")
      .filter({ hasText: `${expertUser.first} ${expertUser.last}` })
      .getByTestId("expert-rating");
    await expect.poll(() => rating.getAttribute("aria-label")).toBe("Rated 4.0 out of 5 from 1 review");
    expect(await rating.textContent()).toContain("4.0 (1)");
  });

  it("the expert replies in public from the session's page, and the reply shows under the review on the profile", async () => {
    await expert.goto(url(`/session-notes/${bookingId}`));
    await expert.getByRole("heading", { name: "The creator's review" }).waitFor();
    await visible(expert, reviewText);
    const form = expert.getByRole("form", { name: "Reply to this review" });
    await form.getByLabel("Your public reply").fill(replyText);
    await form.getByRole("button", { name: "Post Reply" }).click();
    await visible(expert, "The expert's reply");
    await visible(expert, replyText);
    expect(await expert.getByRole("form", { name: "Reply to this review" }).count()).toBe(0); // one reply only

    await creator.goto(url(`/expert-profile/${slug}`));
    const reply = creator.getByTestId("review-reply");
    await reply.waitFor();
    expect(await reply.textContent()).toBe(`Reply from ${expertUser.first}${replyText}`);
    expect((await publicReviews()).reviews.map((r) => [r.review, r.reply?.text])).toEqual([[reviewText, replyText]]);
  });
});

describe("the expert gets paid", () => {
  // The session above: $150 paid, 15 % of it the platform's fee, the rest the expert's share.
  const share = 12_750;
  let releasedAt = "";
  const paymentsTab = () => url(`/expert-dashboard/${expertId}/payments`);
  /** The USD balance as the tab shows it: pending, available, in transit, paid out. */
  const balanceShown = async () => {
    const row = expert
      .getByRole("table", { name: "Your balance by currency" })
      .getByRole("row")
      .filter({ has: expert.getByRole("rowheader", { name: "USD" }) });
    await row.waitFor();
    return (await row.getByRole("cell").allTextContents()).slice(0, 4);
  };
  const balanceOf = (pending: number, available: number, inTransit: number, paidOut: number) =>
    [pending, available, inTransit, paidOut].map((cents) => expertMoney(cents));
  /** What `read` finds on the reloaded tab, until it matches: the tab reads the balance and the payouts once per visit. */
  const afterReload = <T>(read: () => Promise<T>) =>
    expect.poll(
      async () => {
        await expert.reload();
        return read();
      },
      { timeout: 30_000 },
    );

  it("the completed session's share is pending; no payout without a payout account; the expert connects a test one", async () => {
    await expert.goto(paymentsTab());
    await visible(expert, "Connect a payout account to receive your earnings. You can publish sessions before you do.");
    expect(await balanceShown()).toEqual(balanceOf(share, 0, 0, 0));
    expect(await expert.getByRole("button", { name: `Request payout of ${expertMoney(0)}` }).isDisabled()).toBe(true);
    await visible(expert, "Connect your payout account to request a payout.");
    await expert.getByRole("button", { name: "Connect your payout account" }).click();
    await expectPath(expert, "/payouts/test-onboarding");
    await expert.getByRole("heading", { name: "Test Payout Onboarding" }).waitFor();
    await checkAxe(expert, "test payout onboarding");
    await expert.getByRole("button", { name: "Complete onboarding" }).click();
    await expectPath(expert, `/expert-dashboard/${expertId}/payments`);
    await visible(expert, "Your payout account is connected.");
    await expect.poll(() => expert.getByTestId("payout-account-status").textContent()).toBe("Payout account connected");
  });

  it("the share is released once the clearing period after the session is over, not before; the expert requests a payout and sees it paid", async () => {
    // The session was completed by the sweep run as the clock read a minute after it ended (above).
    const completed = DateTime.fromISO(proposedTime).plus({ minutes: 61 });
    const cleared = completed.plus({ days: CLEARING_PERIOD_DAYS });
    expect(await releaseEarningsAt(product.api, cleared.minus({ minutes: 1 }).toUTC().toISO()!)).toBe(0);
    releasedAt = cleared.plus({ minutes: 1 }).toUTC().toISO()!;
    expect(await releaseEarningsAt(product.api, releasedAt)).toBe(1);
    await afterReload(balanceShown).toEqual(balanceOf(0, share, 0, 0));

    await expert.getByRole("button", { name: `Request payout of ${expertMoney(share)}` }).click();
    await visible(expert, `Payout of ${expertMoney(share)} requested. You can follow it in your payouts below.`);
    // The product's payout reactor pays it out through the test provider.
    const payouts = expert.getByRole("table", { name: "Your payouts" }).getByRole("row");
    await afterReload(async () => {
      await payouts.nth(1).waitFor();
      return (await payouts.nth(1).getByRole("cell").allTextContents()).slice(1, 4);
    }).toEqual(["You", expertMoney(share), "Paid"]);
    expect(await payouts.count()).toBe(2); // the header, and the one payout
    expect(await balanceShown()).toEqual(balanceOf(0, 0, 0, share));
    await screenshot(expert, "expert-dashboard-payments");
    // The whole tab, its statements listed (the list loads beside the balance and the payouts).
    await expert.getByRole("heading", { name: "Monthly statements" }).waitFor();
    await expert
      .getByRole("button", { name: /^PDF: download the / })
      .first()
      .waitFor();
    await checkAxe(expert, "expert dashboard: payments");
  });

  it("the expert downloads the session month's statement as PDF and as CSV", async () => {
    const download = async (format: "PDF" | "CSV") => {
      const name = monthText(month, "en-GB");
      const button = expert.getByRole("button", { name: `${format}: download the ${name} statement` });
      const [file] = await Promise.all([expert.waitForEvent("download"), button.click()]);
      expect(file.suggestedFilename()).toBe(`statement-${month}.${format.toLowerCase()}`);
      return readFile((await file.path())!);
    };
    // Statements are of calendar months in UTC.
    const month = DateTime.fromISO(proposedTime, { zone: "utc" }).toFormat("yyyy-LL");
    expect((await download("PDF")).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const lines = (await download("CSV")).toString("utf8").split("\r\n");
    expect(lines[0]).toBe("section,date,booking,session,session_date,currency,paid,refunded,fee,share,amount");
    // The release and the transfer happened at the walk's clock, a week after the session; the payout now.
    const released = new Date(releasedAt).toISOString();
    const releasedInMonth = released.startsWith(month);
    const paidInMonth = new Date().toISOString().startsWith(month);
    expect(releasedInMonth || paidInMonth).toBe(true); // the session is at most days away: one of them is in its month
    const session = `Brand deal review,${new Date(proposedTime).toISOString()}`;
    expect(lines.filter((l) => /^(earning|transfer),/.test(l))).toEqual(
      releasedInMonth
        ? [
            `earning,${released},${bookingId},${session},USD,150.00,0.00,22.50,127.50,`,
            `transfer,${released},${bookingId},,,USD,,,,,127.50`,
          ]
        : [],
    );
    expect(lines.filter((l) => l.startsWith("payout,")).map((l) => l.replace(/^payout,[^,]+,/, "payout,(now),"))).toEqual(
      paidInMonth ? ["payout,(now),,,,USD,,,,,127.50"] : [],
    );
  });

  it("the creator downloads the receipt of the payment from the session's details", async () => {
    await creator.goto(url(`/creator-dashboard/${creatorId}`));
    await creator.locator(`[data-booking-id="${bookingId}"]`).getByRole("link", { name: "Session Details" }).click();
    await expectPath(creator, `/session-details/${bookingId}`);
    await creator.getByRole("heading", { name: "Receipts" }).waitFor();
    // One receipt: the payment's (nothing of this booking was refunded), dated in the creator's zone.
    const receipts = creator.getByRole("button", { name: /receipt: .* \(PDF\)$/ });
    await expect.poll(() => receipts.allTextContents()).toEqual([expect.stringMatching(/^Payment receipt: \$150\.00, \D+\d{1,2}, \d{4}$/)]);
    const [file] = await Promise.all([creator.waitForEvent("download"), receipts.first().click()]);
    expect(file.suggestedFilename()).toMatch(/^payment-receipt-[\w-]+\.pdf$/);
    expect((await readFile((await file.path())!)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });
});

describe("guards", () => {
  it("preview mode lets a visitor through to the profile and the wizard, with booking disabled", async () => {
    const page = await browser.newPage();
    await page.goto(url(`/expert-profile/${slug}?preview=true`));
    await page.getByRole("heading", { name: `${expertUser.first} ${expertUser.last}` }).waitFor();
    await page.getByRole("button", { name: "Book Session: Brand deal review" }).click();
    await expectPath(page, `/book-session/${sessionId}`);
    expect(new URL(page.url()).searchParams.get("preview")).toBe("true");
    await page.getByRole("button", { name: "Continue Booking" }).waitFor();
    expect(await page.getByRole("button", { name: "Continue Booking" }).isDisabled()).toBe(true);
    await page.close();
  });

  it("an expert sees the Book button disabled; the admin bypasses role and ownership", async () => {
    await expert.goto(url(`/expert-profile/${slug}`));
    const book = expert.getByRole("button", { name: /Book Session: Brand deal review/ });
    await book.waitFor();
    expect(await book.isDisabled()).toBe(true);
    expect(await expert.locator('[title="Only creators can book sessions"]').count()).toBe(1);
    await expert.goto(url(`/book-session/${sessionId}`));
    await visible(expert, "Experts cannot book sessions.");

    const admin = await browser.newPage();
    admin.setDefaultTimeout(60_000); // a loaded CI machine (other suites building and installing) is slow here
    admin.on("pageerror", (e) => console.error("[admin page error]", e.stack));
    admin.on("console", (m) => m.type() === "error" && console.error("[admin console]", m.text()));
    await admin.goto(url("/login"));
    await admin.getByLabel("Email").fill(ADMIN.email);
    await admin.getByLabel("Password").fill(ADMIN.password);
    await admin.getByRole("button", { name: "Login" }).click();
    await expectPath(admin, "/search");
    await admin.goto(url(`/creator-dashboard/${creatorId}`));
    // The admin sees the creator's own bookings, under a heading that says whose they are.
    await admin
      .getByRole("heading", { name: "Creator's Bookings" })
      .waitFor()
      .catch(async (e: unknown) => {
        console.log(
          "DEBUG admin path",
          pathOf(admin),
          await admin.evaluate(() => localStorage.getItem("expert-sessions.auth")), // the signed-in marker
          (await admin.content()).slice(0, 3000),
        );
        throw e;
      });
    expect(pathOf(admin)).toBe(`/creator-dashboard/${creatorId}`);
    await admin.goto(url(`/expert-dashboard/${expertId}/slots`));
    await admin.getByRole("heading", { name: "Expert's Schedule" }).waitFor();
    expect(pathOf(admin)).toBe(`/expert-dashboard/${expertId}/slots`);
    await admin.close();
  });

  it("logout clears the session in every tab, and guarded pages send to /login again", async () => {
    const other = await creatorContext.newPage();
    await other.goto(url(`/creator-dashboard/${creatorId}`));
    await other.getByRole("heading", { name: "Your Bookings" }).waitFor();
    await creator.goto(url("/search"));
    await creator.getByRole("button", { name: "Logout" }).click();
    await expectPath(creator, "/");
    await creator.getByRole("link", { name: "Login" }).waitFor();
    expect(await creator.evaluate(() => localStorage.getItem("expert-sessions.auth"))).toBeNull();
    // The refresh cookie went with the sign-out.
    expect((await creatorContext.cookies()).map((c) => c.name)).not.toContain("web_refresh_token");
    // The other tab follows through the storage event: its guard sends it to /login.
    await expectPath(other, "/login");
    await other.close();
    await creator.goto(url(`/creator-dashboard/${creatorId}`));
    await expectPath(creator, "/login");
    // Signing in again returns to where the guard sent it from.
    await creator.getByLabel("Email").fill(creatorUser.email);
    await creator.getByLabel("Password").fill(creatorUser.password);
    await creator.getByRole("button", { name: "Login" }).click();
    await expectPath(creator, `/creator-dashboard/${creatorId}`);
  });
});

describe("phone-sized screens", () => {
  it("the main screens fit a phone and stay accessible", async () => {
    const phone = await creatorContext.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    for (const [name, path, ready] of [
      ["experts listing", "/search", "expert-card"],
      ["creator dashboard", `/creator-dashboard/${creatorId}`, "creator-booking"],
    ] as const) {
      await phone.goto(url(path));
      await phone.getByTestId(ready).first().waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), name).toBeLessThanOrEqual(0);
      await checkAxe(phone, `${name} (phone)`);
    }
    await phone.goto(url(`/book-session/${sessionId}`));
    await phone.getByRole("button", { name: "Continue Booking" }).click();
    await phone.locator("[data-day]:not([disabled])").first().click();
    await phone.getByRole("group", { name: "Available times" }).getByRole("button").first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(phone, "wizard-2-time-phone");
    await checkAxe(phone, "wizard: time (phone)");
    await phone.close();

    const expertPhone = await expertContext.newPage();
    await expertPhone.setViewportSize({ width: 390, height: 844 });
    await expertPhone.goto(url(`/expert-dashboard/${expertId}/bookings`));
    await expertPhone.getByTestId("expert-booking").first().waitFor();
    expect(await expertPhone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(expertPhone, "expert-dashboard-phone");
    await checkAxe(expertPhone, "expert dashboard: bookings (phone)");
    await expertPhone.close();
  });
});

describe("messages for missing things, and the account tab", () => {
  it("unknown profiles, sessions and bookings say so", async () => {
    await creator.goto(url("/expert-profile/nobody-here"));
    await visible(creator, "Profile Not Found");
    await creator.goto(url("/book-session/no-such-session"));
    await visible(creator, "Session Not Found");
    await expert.goto(url("/manage-booking/no-such-booking"));
    await visible(expert, "Error loading booking: No booking found");
  });

  it("the expert changes the password", async () => {
    await expert.goto(url(`/expert-dashboard/${expertId}/account`));
    await expert.getByLabel("Current Password").fill(expertUser.password);
    await expert.getByLabel("New Password", { exact: true }).fill("new-password-2");
    await expert.getByLabel("Confirm New Password").fill("different-2");
    await expert.getByRole("button", { name: "Save Password" }).click();
    await visible(expert, "Passwords do not match.");
    await expert.getByLabel("Confirm New Password").fill("new-password-2");
    await expert.getByRole("button", { name: "Save Password" }).click();
    await visible(expert, "Your password has been changed.");
    await checkAxe(expert, "expert dashboard: account");
  });
});

describe("expert-only mode (a build with the flag on)", () => {
  it("keeps experts to their own area, puts creator screens behind the admin/expert gate, and sends unknown paths to /", async () => {
    await serveVariant({ VITE_EXPERT_ONLY_MODE: "true" }, product.webDir);
    // Hashed assets are served as immutable for a year: these browsers would keep running the build they cached.
    for (const page of [expert, creator]) await (await page.context().newCDPSession(page)).send("Network.clearBrowserCache");
    await expert.goto(url("/search"));
    await expectPath(expert, "/");
    await expert.goto(url(`/expert-dashboard/${expertId}/slots`));
    await expert.getByRole("heading", { name: "Your Schedule" }).waitFor();
    await expert.goto(url(`/expert-profile/${slug}`));
    await expert.getByRole("heading", { name: `${expertUser.first} ${expertUser.last}` }).waitFor();
    await creator.goto(url(`/creator-dashboard/${creatorId}`));
    await expectPath(creator, "/");
    await creator.goto(url(`/book-session/${sessionId}`));
    await expectPath(creator, "/");
    const visitor = await browser.newPage();
    await visitor.goto(url("/about"));
    await expectPath(visitor, "/login");
    await visitor.goto(url("/somewhere/unknown"));
    await expectPath(visitor, "/");
    await visitor.close();
  });
});
