import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DateTime } from "luxon";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BookingReply, CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { localMoment } from "../src/shared/local-time.ts"; // both people read en-US here (newContext below)
import { launchChromium, screenshot, takeCspViolations } from "./chromium.ts";
import { signedUpPerson, walkAxe, walkContexts, type Person } from "./walk-people.ts";
import { adminToken } from "./mailbox.ts";
import { callApi } from "./product-api.ts";
import { ADMIN, startProduct, type ProductServer } from "./product-server.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";
import { commandHandlers } from "../../api/src/main/commands.ts";
import { recordPaymentSucceeded } from "../../api/src/payments/index.ts";
import buildConsole from "../../admin/e2e/global-setup.ts";

// Issue 31.1's walk, in Chromium against the built app served by the real API: a session that has
// started (made on the expert's calendar by the product's own command handlers with the clock set
// back, since a walk cannot wait for a start); the creator reports the expert absent with a note and
// reads the deadline to contest; the expert sees the report and contests it with a note; an admin,
// signed in to the console (a third browser context), opens the contested report from the No-shows
// list and decides it there, upheld with half the price refunded and a reason; both parties reload
// and read the outcome, the refund and the reason. Screenshots go to e2e/artifacts/no-show-*.png.

const EXPERT_ZONE = "Europe/London";
const CREATOR_ZONE = "America/New_York";
const run = Date.now().toString(36);
const PRICE_CENTS = 12_000;
const REFUND_CENTS = PRICE_CENTS / 2;
const REPORT_NOTE = "I waited 20 minutes in the room; nobody joined.";
const CONTEST_NOTE = "I was in the room from the start; the link I sent was the right one.";
const REASON = "The room's log shows the expert joined 25 minutes late: half the price goes back.";

let product: ProductServer;
let browser: Browser;
let admin = "";
let expert: Person;
let creator: Person;
let sessionId = "";
let bookingId = "";
let expertPage: Page;
let creatorPage: Page;
let adminContext: BrowserContext | undefined;
let adminPage: Page;
const pages = walkContexts(
  () => browser,
  () => product.url,
);
const axe = walkAxe();

const url = (path: string) => `${product.url}${path}`;
/** The admin console (react-admin, hash routes) the API serves at /admin/. */
const consoleUrl = (hashPath = "") => `${product.url}/admin/${hashPath ? `#${hashPath}` : ""}`;
const call = <T>(method: string, path: string, token: string | null, body?: unknown) => callApi<T>(product.url, method, path, token, body);
const booking = (token = creator.session.access_token) => call<BookingReply>("GET", `/bookings/${bookingId}`, token);

const person = (role: "creator" | "expert", first: string, last: string) =>
  signedUpPerson(product.url, admin, role, first, last, `noshow-${run}`);

const signedInPage = (who: Person, timezoneId: string) => pages.signedInPage(who, timezoneId);

async function checkAxe(page: Page, name: string) {
  await axe.check(page, name);
  await screenshot(page, `no-show-${name}`);
}

/** The admin in the console, signed in on its own login page with the product's admin account, in a context of its own. */
async function consolePage(): Promise<Page> {
  adminContext = await browser.newContext({ timezoneId: "UTC", locale: "en-US", viewport: { width: 1440, height: 1000 } });
  adminContext.setDefaultTimeout(20_000);
  const page = await adminContext.newPage();
  page.on("pageerror", (e) => console.error("[admin page error]", e.stack));
  await page.goto(consoleUrl());
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("bookings-by-status").waitFor();
  return page;
}

/**
 * A confirmed, paid session of the creator with the expert that started an hour and a half to two hours ago (on the
 * 30-minute grid, inside the expert's London hours): requested, paid and confirmed on the expert's calendar by the
 * product's own command handlers, the clock set back 8 days so the request was ahead of its time. The payment takes
 * the product's path (the test provider's payment row, marked succeeded, then RecordPayment), so a refund is paid.
 */
async function startedBooking(): Promise<string> {
  const HALF_HOUR = 1_800_000;
  let start = Math.floor((Date.now() - 3 * HALF_HOUR) / HALF_HOUR) * HALF_HOUR;
  // The hour must end by 23:30 London, where the expert's hours end.
  const london = (ms: number) => DateTime.fromMillis(ms, { zone: EXPERT_ZONE });
  while (london(start).hour * 60 + london(start).minute > 22 * 60 + 30) start -= 4 * HALF_HOUR;
  const id = `nsw-${randomUUID()}`;
  const now = new Date(start - 8 * 86_400_000).toISOString();
  const { ctx } = product.api;
  const on = { expertId: expert.id, bookingId: id };
  const decide = async (command: CalendarCommand) => {
    const done = await ctx.calendar.handle(calendarStream(expert.id), command, { actor: command.actor, now });
    if (!done.ok) throw new Error(`fixture: ${command.type} ${id}: ${done.refusal.code}`);
    await ctx.projected(done.value);
  };
  await decide({
    type: "RequestBooking",
    ...on,
    actor: { userId: creator.id, role: "creator" },
    scheduledTime: new Date(start).toISOString(),
    session: {
      sessionId,
      expertId: expert.id,
      title: "Deal review",
      lengthMinutes: 60,
      priceCents: PRICE_CENTS,
      published: true,
      prepQuestions: ["What is your goal?"],
    },
    expertUserId: expert.id,
    expertVetting: "approved",
    creatorAcceptedTerms: true,
    creatorBookings: [],
    holdMinutes: 15,
  });
  const intent = await ctx.payments.createIntent({
    bookingId: id,
    expertId: expert.id,
    creatorId: creator.id,
    amountCents: PRICE_CENTS,
    currency: "USD",
    description: "Deal review",
  });
  const payment = { paymentId: intent.paymentId, bookingId: id, expertId: expert.id, amountCents: PRICE_CENTS, provider: "test" };
  const backdated = commandHandlers(ctx.store, () => now).calendar;
  const paid = await recordPaymentSucceeded({ db: ctx.db, calendar: backdated, projected: ctx.projected }, payment);
  if (!paid.ok) throw new Error(`fixture: RecordPayment ${id}: ${paid.refusal.code}`);
  await decide({ type: "ConfirmBooking", ...on, actor: { userId: expert.id, role: "expert" } });
  return id;
}

beforeAll(async () => {
  // The API serves the console from admin/dist; the admin-e2e project's setup builds it, so build it here only if it is missing.
  if (!existsSync(fileURLToPath(new URL("../../admin/dist/index.html", import.meta.url)))) await buildConsole();
  product = await startProduct(testPostgresUrl());
  browser = await launchChromium();
  admin = await adminToken(product.url, ADMIN);
  expert = await person("expert", "Maya", `Lind${run}`);
  creator = await person("creator", "Cora", `Quinn${run}`);
  const token = expert.session.access_token;
  await call("PATCH", "/experts/me", token, {
    first_name: "Maya",
    last_name: `Lind${run}`,
    title: "Brand partnerships lead",
    bio: "Maya helps creators.",
    tags: ["Brand deals"],
    published: true,
  });
  // Approved by our team (issue 30), so creators can book Maya.
  await call("PUT", `/admin/experts/${expert.id}`, admin, { verified: true, reason: "Vetted for the walk" });
  const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
  await call("POST", `/experts/${expert.id}/schedule`, token, {
    timezone: EXPERT_ZONE,
    slots: days.map((weekday) => ({ weekday, start_local: "00:00", end_local: "23:30" })),
  });
  sessionId = (
    await call<{ session: { id: string } }>("POST", "/sessions", token, {
      title: "Deal review",
      price: PRICE_CENTS / 100,
      length_minutes: 60,
      prep_question_1: "What is your goal?",
      status: "published",
    })
  ).session.id;
  bookingId = await startedBooking();
  expertPage = await signedInPage(expert, EXPERT_ZONE);
  creatorPage = await signedInPage(creator, CREATOR_ZONE);
  adminPage = await consolePage();
});

// The app runs under the API's Content-Security-Policy: anything it blocks on any page fails the test.
afterEach(() => {
  expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
});

afterAll(async () => {
  console.log("[web-e2e] no-show walk: axe serious/critical violations per page:", axe.counts());
  await pages.closeAll();
  await adminContext?.close();
  await browser?.close();
  await product?.stop();
});

describe("a session the expert did not join", () => {
  it("the session has started: confirmed and paid, with no report", async () => {
    const b = await booking();
    expect(b).toMatchObject({ status: expect.stringMatching(/^(confirmed|completed)$/), paid_cents: PRICE_CENTS, no_show: null });
    expect(Date.parse(b.scheduled_time)).toBeLessThan(Date.now());
  });

  it("the creator reports the expert absent with a note, told what follows, and reads the deadline to contest", async () => {
    await creatorPage.goto(url(`/creator-dashboard/${creator.id}`));
    const card = creatorPage.locator(`[data-booking-id="${bookingId}"]`);
    await card.getByRole("button", { name: "Report a no-show: Deal review" }).click();
    const dialog = creatorPage.getByRole("dialog", { name: `Report that ${expert.name} did not join` });
    await dialog.getByText(`If ${expert.name} does not contest within 48 hours, you are refunded in full.`, { exact: false }).waitFor();
    await dialog.getByLabel(/What happened\?/).fill(REPORT_NOTE);
    await checkAxe(creatorPage, "report-dialog");
    await dialog.getByRole("button", { name: "Report no-show" }).click();
    await dialog.waitFor({ state: "detached" });

    const reported = (await booking()).no_show!;
    expect(reported).toMatchObject({ absent: "expert", note: REPORT_NOTE, contested: false, outcome: null });
    expect(Date.parse(reported.contest_by) - Date.parse(reported.reported_at)).toBe(48 * 3_600_000);
    const panel = card.getByRole("region", { name: "No-show report" });
    await panel.getByText(`You reported that ${expert.name} did not join.`, { exact: false }).waitFor();
    expect(await panel.getByTestId("no-show-note").textContent()).toBe(`Note: “${REPORT_NOTE}”`);
    const deadline = localMoment(reported.contest_by, CREATOR_ZONE, "en-US");
    await expect.poll(() => panel.getByTestId("no-show-deadline").textContent()).toContain(`${expert.name} can contest until ${deadline}.`);
    expect(await card.getByRole("button", { name: /^Report a no-show/ }).count()).toBe(0);
    expect(await panel.getByRole("button", { name: "Contest" }).count()).toBe(0);
    await checkAxe(creatorPage, "reported-creator");
  });

  it("the expert sees the report on their booking and contests it with a note", async () => {
    await expertPage.goto(url(`/manage-booking/${bookingId}`));
    const panel = expertPage.getByRole("region", { name: "No-show report" });
    await panel.getByText(`${creator.name} reported that you did not join.`, { exact: false }).waitFor();
    expect(await panel.getByTestId("no-show-note").textContent()).toBe(`Note: “${REPORT_NOTE}”`);
    const contestBy = (await booking(expert.session.access_token)).no_show!.contest_by;
    expect(await panel.getByTestId("no-show-deadline").textContent()).toContain(
      `You can contest until ${localMoment(contestBy, EXPERT_ZONE, "en-US")}.`,
    );
    await checkAxe(expertPage, "reported-expert");
    await panel.getByRole("button", { name: "Contest" }).click();
    const dialog = expertPage.getByRole("dialog", { name: "Contest this report?" });
    await dialog.getByLabel(/What happened\?/).fill(CONTEST_NOTE);
    await checkAxe(expertPage, "contest-dialog");
    await dialog.getByRole("button", { name: "Contest report" }).click();
    await dialog.waitFor({ state: "detached" });

    await panel.getByText("Our team will review and decide.", { exact: false }).waitFor();
    const contested = (await booking(expert.session.access_token)).no_show!;
    expect(contested).toMatchObject({ contested: true, contest_note: CONTEST_NOTE, outcome: null });
    expect(await panel.getByTestId("no-show-contest").textContent()).toBe(
      `You contested it on ${localMoment(contested.contested_at!, EXPERT_ZONE, "en-US")}: “${CONTEST_NOTE}”`,
    );
    expect(await panel.getByRole("button", { name: "Contest" }).count()).toBe(0);
    await checkAxe(expertPage, "contested-expert");
  });

  it("an admin opens the contested report in the console and decides it: upheld, half the price refunded, with a reason", async () => {
    await adminPage.getByRole("menuitem", { name: "No-shows" }).click();
    // The list opens on the contested reports, the queue an admin decides.
    const row = adminPage.locator("tr.RaDataTable-row", { hasText: "Deal review" });
    await row.getByTestId("no-show-contested").waitFor();
    expect(await row.getByText(/contested$/).count()).toBeGreaterThan(0);
    await row.getByText("Deal review").click();

    await adminPage.waitForURL((u) => u.hash === `#/no-shows/${encodeURIComponent(bookingId)}/show`);
    const report = adminPage.getByTestId("no-show-report");
    await report.getByText(`“${REPORT_NOTE}”`).waitFor();
    await report.getByText(`“${CONTEST_NOTE}”`).waitFor();
    const form = adminPage.getByTestId("no-show-decision");
    await form.getByRole("radio", { name: /^Yes: the expert did not show/ }).check();
    await form.getByLabel(/^Refund to the creator \(USD\)/).fill(String(REFUND_CENTS / 100));
    await form.getByLabel(/^Reason \(both people read it\)/).fill(REASON);
    await checkAxe(adminPage, "console-report");
    await form.getByRole("button", { name: "Decide" }).click();
    const dialog = adminPage.getByRole("dialog", { name: "Decide this no-show report?" });
    await dialog.getByText("The booking ends as the expert's no-show.", { exact: false }).waitFor();
    // The console writes amounts as "USD 60.00" (a no-break space after the code).
    expect((await dialog.textContent())?.replace(/\s/g, " ")).toContain(
      `USD 60.00 goes back to the creator. Both people are told the reason: "${REASON}"`,
    );
    await dialog.getByRole("button", { name: "Send decision" }).click();
    await dialog.waitFor({ state: "detached" });

    // The page shows the settled outcome in place of the form.
    const outcome = adminPage.getByTestId("no-show-outcome");
    await outcome.getByText("Upheld: the expert did not show").waitFor();
    await outcome.getByText(/^USD\s60\.00 to the creator$/).waitFor();
    await outcome.getByText(REASON).waitFor();
    await outcome.getByText(ADMIN.email).waitFor();
    expect(await adminPage.getByTestId("no-show-decision").count()).toBe(0);
    await adminPage.getByTestId("no-show-settled").waitFor();
    await checkAxe(adminPage, "console-decided");

    const decided = await booking();
    expect(decided.status).toBe("expert_no_show");
    expect(decided.no_show).toMatchObject({ outcome: "expert_no_show", refund_cents: REFUND_CENTS, reason: REASON, contested: true });
    expect(decided.refund_due_cents).toBe(REFUND_CENTS);
  });

  it("both reload and read the outcome, the refund in dollars and the admin's reason", async () => {
    // The refund reactor pays the half back at the test provider.
    await expect.poll(async () => (await booking()).refunded_cents, { timeout: 20_000 }).toBe(REFUND_CENTS);
    await creatorPage.goto(url(`/creator-dashboard/${creator.id}`));
    const card = creatorPage.locator(`[data-booking-id="${bookingId}"]`);
    await expect.poll(() => card.getByTestId("booking-status").textContent()).toBe("Expert didn't show");
    const outcome = card.getByTestId("no-show-outcome");
    await outcome.getByText(`${expert.name} did not show: the report was upheld.`).waitFor();
    expect(await outcome.getByTestId("no-show-refund").textContent()).toBe("Refund: $60 of the $120 paid.");
    expect(await outcome.getByTestId("no-show-reason").textContent()).toBe(`Our team's reason: ${REASON}`);
    expect(await card.getByTestId("booking-money").textContent()).toBe("Paid $120 · Refunded $60");
    expect(await card.getByRole("button", { name: /^(Cancel Session|Report a no-show|Contest)/ }).count()).toBe(0);
    await checkAxe(creatorPage, "decided-creator");

    // The session's own page tells the creator the same.
    await creatorPage.goto(url(`/session-details/${bookingId}`));
    await creatorPage.getByTestId("no-show-outcome").getByText(`${expert.name} did not show: the report was upheld.`).waitFor();
    expect(await creatorPage.getByTestId("no-show-refund").textContent()).toBe("Refund: $60 of the $120 paid.");

    await expertPage.goto(url(`/manage-booking/${bookingId}`));
    await expect.poll(() => expertPage.getByTestId("manage-status").textContent()).toBe("Missed");
    const theirs = expertPage.getByTestId("no-show-outcome");
    await theirs.getByText("You did not show: the report was upheld.").waitFor();
    expect(await theirs.getByTestId("no-show-refund").textContent()).toBe("Refund: $60 of the $120 paid.");
    expect(await theirs.getByTestId("no-show-reason").textContent()).toBe(`Our team's reason: ${REASON}`);
    expect(await expertPage.getByRole("button", { name: /^(Cancel Session|Report a no-show|Contest)/ }).count()).toBe(0);
    await checkAxe(expertPage, "decided-expert");
  });
});
