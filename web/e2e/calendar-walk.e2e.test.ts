import { readFile } from "node:fs/promises";
import ICAL from "ical.js";
import { DateTime } from "luxon";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { shortDayText, type BookingReply, type ScheduleReply } from "@booking/contracts";
import { localMoment } from "../src/shared/local-time.ts"; // both people read en-US here (newContext below)
import { launchChromium, screenshot, seriousViolations, takeCspViolations, type AxeViolation } from "./chromium.ts";
import { adminToken, signUpVerified } from "./mailbox.ts";
import { callApi } from "./product-api.ts";
import { ADMIN, startProduct, type ProductServer } from "./product-server.ts";
import { signedInContext, type Credentials } from "./signed-in-browser.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";
import { startCalDavServer, type CalDavServer } from "@booking/testkit";
import { expertsOwnCalendars, type OwnCalendars } from "./own-calendars.ts";

// Issue 17's walk, in Chromium against the built app served by the real API: an expert in London
// takes a day off and keeps 30 minutes free after each session on the Schedule tab; a creator in
// New York no longer sees those times in the booking wizard, books a free time and pays, the expert
// confirms; the creator adds it to a calendar (the downloaded .ics read with ical.js) and
// subscribes to the personal feed; asks to move the session, the expert accepts, and both see the
// new time; the expert sets the meeting link. Accounts and the expert's shop are made through the
// API; every step a person takes is in the browser. Screenshots go to e2e/artifacts/calendar-*.png.
// Issue 32: before the booking, the expert connects a secret iCal address (a local server) and a
// CalDAV account (a real radicale); the creator no longer sees their busy times, and the confirmed
// booking appears in the CalDAV calendar the expert chose, and moves there with the booking.

const EXPERT_ZONE = "Europe/London";
const CREATOR_ZONE = "America/New_York";
const run = Date.now().toString(36);
const ROOM = "https://meet.example.com/walk-room";

type AuthSession = { access_token: string; user: { id: string } };
type Person = { session: AuthSession; id: string; name: string; credentials: Credentials };

let product: ProductServer;
let own: OwnCalendars;
const caldav: CalDavServer | null = await startCalDavServer();
let browser: Browser;
let admin = "";
let expert: Person;
let creator: Person;
let expertId = "";
let sessionId = "";
let bookingId = "";
let expertPage: Page;
let creatorPage: Page;
const contexts: BrowserContext[] = [];
const axeReport: Record<string, AxeViolation[]> = {};

// London dates a few days ahead: one taken off, one beside another creator's booking, one booked, one moved to.
const londonDay = (n: number) => DateTime.now().setZone(EXPERT_ZONE).startOf("day").plus({ days: n });
const OFF_DAY = londonDay(3);
const BUFFER_DAY = londonDay(4);
const BOOK_DAY = londonDay(5);
const MOVE_DAY = londonDay(6);
/** An instant at a London wall-clock time on `day`. */
const at = (day: DateTime, hour: number, minute = 0) => day.set({ hour, minute }).toUTC().toISO()!;
const london = (iso: string) => DateTime.fromISO(iso, { zone: EXPERT_ZONE }).toFormat("HH:mm");
const BOOKED = at(BOOK_DAY, 14);
const MOVED = at(MOVE_DAY, 15);

const url = (path: string) => `${product.url}${path}`;

const call = <T>(method: string, path: string, token: string | null, body?: unknown) => callApi<T>(product.url, method, path, token, body);

async function person(role: "creator" | "expert", first: string, last: string): Promise<Person> {
  const credentials = { email: `${first.toLowerCase()}-cal-${run}@example.com`, password: `${first}-password-1` };
  const session = await signUpVerified<AuthSession>(product.url, admin, {
    ...credentials,
    role,
    first_name: first,
    last_name: last,
  });
  const { version_id } = await call<{ version_id: string }>("GET", "/terms/latest", null);
  await call("POST", "/terms/accept", session.access_token, { version_id });
  return { session, id: session.user.id, name: `${first} ${last}`, credentials };
}

/** A paid booking by `who` at `time`, through the API (the test provider's card). */
async function paidBooking(who: Person, time: string): Promise<string> {
  const token = who.session.access_token;
  const { booking } = await call<{ booking: { id: string } }>("POST", "/bookings", token, { session_id: sessionId, scheduled_time: time });
  const intent = await call<{ clientSecret: string }>("POST", "/stripe/test-intent", token, { bookingId: booking.id });
  await call("POST", "/payments/test/confirm", token, { client_secret: intent.clientSecret, card_number: "4242424242424242" });
  return booking.id;
}

async function signedInPage(who: Person, timezoneId: string): Promise<Page> {
  const options = { timezoneId, locale: "en-US", viewport: { width: 1280, height: 900 }, acceptDownloads: true };
  const { context } = await signedInContext(browser, product.url, who.credentials, options);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: product.url });
  context.setDefaultTimeout(20_000);
  contexts.push(context);
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(`[${who.name} page error]`, e.stack));
  return page;
}

async function checkAxe(page: Page, name: string) {
  const violations = await seriousViolations(page);
  axeReport[name] = violations;
  expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  await screenshot(page, `calendar-${name}`);
}

/** The day's button in the month shown under `scope`, turning to the next month when it is not on screen. */
async function dayButton(scope: Page | Locator, day: DateTime): Promise<Locator> {
  const button = scope.locator(`[data-day="${day.toISODate()}"]`);
  if ((await button.count()) === 0) await scope.getByRole("button", { name: "Next month" }).first().click();
  return button;
}

/** The times offered on `day` under `scope`, as London wall-clock times. */
async function offeredOn(scope: Page | Locator, day: DateTime): Promise<string[]> {
  await (await dayButton(scope, day)).click();
  const times = scope.getByRole("group", { name: "Available times" }).getByRole("button");
  await times.first().waitFor();
  return Promise.all((await times.all()).map(async (t) => london((await t.getAttribute("data-time"))!)));
}

async function openWizardTimes(page: Page) {
  await page.goto(url(`/book-session/${sessionId}`));
  // The wizard keeps its step for the tab (sessionStorage): after a first visit it opens on Select Time.
  await page.locator('[data-testid="wizard-step-0"], [data-testid="wizard-step-1"]').waitFor();
  if (await page.getByTestId("wizard-step-0").count()) await page.getByRole("button", { name: "Continue Booking" }).click();
  await page.getByTestId("wizard-step-1").waitFor();
  await page.getByRole("group", { name: "Choose a date" }).waitFor();
}

const booking = (token: string) => call<BookingReply>("GET", `/bookings/${bookingId}`, token);

/** The downloaded invite: its UID and start, read with ical.js. */
async function downloadedInvite(
  page: Page,
  button: Locator,
): Promise<{ filename: string; text: string; uid: string; start: string; sequence: number }> {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const text = await readFile((await download.path())!, "utf8");
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!);
  return {
    filename: download.suggestedFilename(),
    text,
    uid: event.uid,
    start: event.startDate.toJSDate().toISOString(),
    sequence: event.sequence,
  };
}

beforeAll(async () => {
  own = await expertsOwnCalendars(caldav, { icsBusy: [at(BOOK_DAY, 9), at(BOOK_DAY, 10)], workBusy: [at(BOOK_DAY, 12), at(BOOK_DAY, 13)] });
  product = await startProduct(testPostgresUrl(), { calendarPlainHosts: own.plainHosts });
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
  expertId = (await call<{ id: string }>("GET", "/experts/me", token)).id;
  // Approved by our team (issue 30), so creators can book Maya.
  await call("PUT", `/admin/experts/${expertId}`, admin, { verified: true, reason: "Vetted for the walk" });
  const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
  await call("POST", `/experts/${expertId}/schedule`, token, {
    timezone: EXPERT_ZONE,
    slots: days.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" })),
  });
  sessionId = (
    await call<{ session: { id: string } }>("POST", "/sessions", token, {
      title: "Deal review",
      price: 120,
      length_minutes: 60,
      prep_question_1: "What is your goal?",
      prep_question_2: "What is the offer?",
      prep_question_3: "What worries you?",
      status: "published",
    })
  ).session.id;
  // Another creator's paid booking at 11:00 London: a buffer after sessions reaches into the hours around it.
  await paidBooking(await person("creator", "Omar", `Reyes${run}`), at(BUFFER_DAY, 11));
  expertPage = await signedInPage(expert, EXPERT_ZONE);
  creatorPage = await signedInPage(creator, CREATOR_ZONE);
});

// The app runs under the API's Content-Security-Policy: anything it blocks on any page fails the test.
afterEach(() => {
  expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
});

afterAll(async () => {
  console.log(
    "[web-e2e] calendar walk: axe serious/critical violations per page:",
    JSON.stringify(Object.fromEntries(Object.entries(axeReport).map(([k, v]) => [k, v.length]))),
  );
  for (const context of contexts) await context.close();
  await browser?.close();
  await product?.stop();
  await own?.stop();
});

describe("the expert's own time", () => {
  it("before any time off, the creator's wizard offers the whole day and the times either side of another booking", async () => {
    await openWizardTimes(creatorPage);
    expect(await (await dayButton(creatorPage, OFF_DAY)).isDisabled()).toBe(false);
    const beside = await offeredOn(creatorPage, BUFFER_DAY);
    expect(beside).toEqual(expect.arrayContaining(["09:30", "10:00", "12:00", "12:30"]));
    expect(beside).not.toContain("11:00");
  });

  it("the expert takes a day off and keeps 30 minutes free after each session, on the Schedule tab in their zone", async () => {
    await expertPage.goto(url(`/expert-dashboard/${expert.id}/slots`));
    await expect.poll(() => expertPage.getByTestId("expert-zone").textContent()).toContain("London time (Europe/London)");
    const form = expertPage.getByRole("form", { name: "Add time off" });
    await form.getByLabel("First day").fill(OFF_DAY.toISODate()!);
    await form.getByLabel("Last day").fill(OFF_DAY.toISODate()!);
    await form.getByLabel("Label (optional)").fill("Conference");
    await form.getByRole("button", { name: "Add time off" }).click();
    const dayOff = shortDayText(OFF_DAY.toISODate()!, "en-US");
    await expertPage
      .getByRole("status")
      .filter({ hasText: `Time off added: ${dayOff}.` })
      .waitFor();
    await expertPage.getByRole("list", { name: "Planned time off" }).getByText(`${dayOff} · Conference`).waitFor();
    // Nothing was booked that day: no bookings to handle.
    expect(await expertPage.getByTestId("bookings-in-time-off").count()).toBe(0);

    const rules = expertPage.getByRole("form", { name: "Buffers and notice" });
    await rules.getByLabel("Buffer after each session").selectOption("30");
    await rules.getByRole("button", { name: "Save buffers and notice" }).click();
    await expertPage.getByRole("status").filter({ hasText: "Buffers and notice saved." }).waitFor();
    await checkAxe(expertPage, "schedule-tab");

    const schedule = await call<ScheduleReply>("GET", `/experts/${expertId}/schedule`, expert.session.access_token);
    expect(schedule.time_off).toEqual([
      {
        id: expect.any(String),
        start: `${OFF_DAY.toISODate()}T00:00`,
        end: `${OFF_DAY.plus({ days: 1 }).toISODate()}T00:00`,
        reason: "Conference",
        whole_days: true,
      },
    ]);
    expect(schedule.booking_rules).toEqual({ buffer_before_minutes: 0, buffer_after_minutes: 30, min_notice_hours: 0 });
  });

  it("the creator no longer sees those times: the day off is not selectable, and the buffer closes 10:00 and 12:00 London", async () => {
    await openWizardTimes(creatorPage);
    expect(await (await dayButton(creatorPage, OFF_DAY)).isDisabled()).toBe(true);
    const beside = await offeredOn(creatorPage, BUFFER_DAY);
    expect(beside).toEqual(expect.arrayContaining(["09:30", "12:30"]));
    expect(beside).not.toContain("10:00");
    expect(beside).not.toContain("11:00");
    expect(beside).not.toContain("12:00");
    await checkAxe(creatorPage, "wizard-times-after-time-off");
  });
});

describe("the expert's own calendars", () => {
  it("the expert connects a secret iCal address on the Schedule tab; its busy time blocks bookings", async () => {
    await expertPage.goto(url(`/expert-dashboard/${expert.id}/slots`));
    const section = expertPage.getByTestId("calendars-section");
    await section.getByTestId("calendar-connect-kind-ics").check();
    await section.getByTestId("calendar-ics-url").fill(own.icsUrl);
    await section.getByTestId("calendar-connect").click();
    await section.getByRole("status").filter({ hasText: "Calendar connected." }).waitFor();
    const connection = section.getByTestId("calendar-connection").filter({ hasText: own.icsLabel });
    await connection.getByText("1 busy time in the next 4 weeks").waitFor();
    // The address carries its own key: the page never shows it once connected.
    expect(await section.textContent()).not.toContain(own.icsSecret);
  });

  it.skipIf(caldav === null)("the expert connects their CalDAV account and chooses the calendar that receives bookings", async () => {
    const section = expertPage.getByTestId("calendars-section");
    await section.getByTestId("calendar-connect-kind-caldav").check();
    await section.getByTestId("calendar-caldav-server").fill(caldav!.url);
    await section.getByTestId("calendar-caldav-username").fill(caldav!.username);
    await section.getByTestId("calendar-caldav-password").fill(caldav!.password);
    await section.getByTestId("calendar-connect").click();
    await section.getByRole("status").filter({ hasText: "Calendar connected." }).waitFor();
    const connection = section.getByTestId("calendar-connection").filter({ hasText: caldav!.username });
    await connection.getByText("1 busy time in the next 4 weeks").waitFor();
    // The choice is saved before the radio shows it (it follows the server): click, then wait for the saved choice.
    const bookings = connection.getByTestId("calendar-bookings-target").getByLabel("Bookings");
    await bookings.click();
    await expect.poll(() => bookings.isChecked(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => own.bookingsCalendarChosen(product.api.ctx.db, expertId)).toBe(true);
    await checkAxe(expertPage, "own-calendars");
  });

  it("the creator no longer sees those busy times (with the expert's 30 minutes after each session)", async () => {
    await openWizardTimes(creatorPage);
    const offered = await offeredOn(creatorPage, BOOK_DAY);
    // iCal: 09:00-10:00 busy. CalDAV: 12:00-13:00 busy, and a session keeps 30 minutes free after it.
    const blocked = caldav ? ["09:00", "09:30", "11:00", "11:30", "12:00", "12:30"] : ["09:00", "09:30"];
    for (const t of blocked) expect(offered, t).not.toContain(t);
    expect(offered).toEqual(expect.arrayContaining(["10:00", "14:00"]));
  });
});

describe("a booking in both calendars", () => {
  it("the creator books a free time and pays with the test card; the expert confirms it", async () => {
    await openWizardTimes(creatorPage);
    await offeredOn(creatorPage, BOOK_DAY);
    await creatorPage.locator(`[data-time="${BOOKED}"]`).click();
    await creatorPage.getByRole("button", { name: "Continue" }).click();
    await creatorPage.getByTestId("wizard-step-2").waitFor();
    await creatorPage.getByLabel("Card number").fill("4242424242424242");
    await creatorPage.getByLabel("Expiry (MM/YY)").fill("11/31");
    await creatorPage.getByLabel("CVC").fill("321");
    await creatorPage.getByRole("button", { name: "Confirm & Pay" }).click();
    await creatorPage.getByTestId("wizard-step-3").waitFor({ timeout: 15_000 });
    for (const [question, answer] of [
      ["What is your goal?", "A fair first brand deal"],
      ["What is the offer?", "Two videos"],
      ["What worries you?", "Usage rights"],
    ])
      await creatorPage.getByLabel(question!).fill(answer!);
    await creatorPage.getByRole("button", { name: "Submit" }).click();
    await creatorPage.getByTestId("wizard-step-4").waitFor();
    const mine = await call<BookingReply[]>("GET", "/bookings/creator/me", creator.session.access_token);
    bookingId = mine.find((b) => Date.parse(b.scheduled_time) === Date.parse(BOOKED))!.id;

    await expertPage.goto(url(`/manage-booking/${bookingId}`));
    await expertPage.getByRole("button", { name: "Accept Booking" }).click();
    await expertPage.getByRole("button", { name: "Confirm Date & Time" }).click();
    await expertPage.getByRole("heading", { name: "Booking Confirmed" }).waitFor();
    expect((await booking(creator.session.access_token)).status).toBe("confirmed");
  });

  it.skipIf(caldav === null)("the confirmed booking appears in the expert's CalDAV calendar, read back from the server", async () => {
    await expect.poll(() => own.bookingEntryStart(bookingId), { timeout: 20_000 }).toBe(BOOKED);
  });

  it("the creator adds it to a calendar: an .ics with the booking's UID and start (ical.js); the expert's file is the same event", async () => {
    await creatorPage.goto(url(`/session-details/${bookingId}`));
    const button = creatorPage.getByRole("button", { name: "Add to calendar: Deal review" });
    await button.waitFor();
    await checkAxe(creatorPage, "session-details");
    const invite = await downloadedInvite(creatorPage, button);
    expect(invite.filename).toBe(`booking-${bookingId}.ics`);
    expect(invite.text.startsWith("BEGIN:VCALENDAR")).toBe(true);
    expect(invite.text).toContain("METHOD:PUBLISH"); // a download, not an invitation by mail
    expect(invite.uid).toContain(bookingId);
    expect(invite.start).toBe(BOOKED);

    await expertPage.goto(url(`/manage-booking/${bookingId}`));
    const theirs = await downloadedInvite(expertPage, expertPage.getByRole("button", { name: "Add to calendar: Deal review" }));
    expect([theirs.uid, theirs.start]).toEqual([invite.uid, invite.start]);
  });

  it("the account offers the personal feed: subscribe, copy the address (it lists the booking), and get a new one that ends the old", async () => {
    await creatorPage.goto(url("/account"));
    const feed = creatorPage.getByRole("region", { name: "Calendar Feed" });
    const subscribe = feed.getByRole("link", { name: "Subscribe in your calendar app" });
    await subscribe.waitFor();
    const webcal = (await subscribe.getAttribute("href"))!;
    expect(webcal).toMatch(/^webcal:\/\/127\.0\.0\.1:\d+\/api\/v1\/calendar\/\S+\.ics$/);
    await feed.getByRole("button", { name: "Copy address" }).click();
    await feed.getByRole("button", { name: "Copied" }).waitFor();
    const address = await creatorPage.evaluate(() => navigator.clipboard.readText());
    expect(address).toBe(webcal.replace(/^webcal:/, "http:"));
    const listed = await fetch(address);
    expect(listed.status).toBe(200);
    const events = new ICAL.Component(ICAL.parse(await listed.text())).getAllSubcomponents("vevent").map((e) => new ICAL.Event(e));
    expect(events.map((e) => [e.startDate.toJSDate().toISOString(), e.uid.includes(bookingId)])).toEqual([[BOOKED, true]]);
    await checkAxe(creatorPage, "account-feed");

    await feed.getByRole("button", { name: "Get a new address" }).click();
    const dialog = creatorPage.getByRole("dialog", { name: "Get a new calendar address?" });
    await dialog.getByText("The current address stops working at once").waitFor();
    await checkAxe(creatorPage, "account-feed-new-address");
    await dialog.getByRole("button", { name: "Get a new address" }).click();
    await feed.getByRole("status").filter({ hasText: "Your calendar has a new address." }).waitFor();
    const renewed = await feed.getByLabel("Calendar address").inputValue();
    expect(renewed).not.toBe(address);
    expect((await fetch(address)).status).toBe(404);
    expect((await fetch(renewed)).status).toBe(200);
  });
});

describe("moving the session", () => {
  it("the creator asks for a new time from the bookable ones; the request shows on their booking", async () => {
    await creatorPage.goto(url(`/creator-dashboard/${creator.id}`));
    const card = creatorPage.locator(`[data-booking-id="${bookingId}"]`);
    await card.getByRole("button", { name: "Request a new time" }).click();
    const picker = card.getByRole("region", { name: "Request a new time" });
    expect(await offeredOn(picker, MOVE_DAY)).toContain("15:00");
    await picker.locator(`[data-time="${MOVED}"]`).click();
    await checkAxe(creatorPage, "request-new-time");
    await picker.getByRole("button", { name: `Ask for ${localMoment(MOVED, CREATOR_ZONE, "en-US")}` }).click();
    const request = card.getByRole("region", { name: "Request to move this session" });
    await request.getByText(`You asked to move this session to ${localMoment(MOVED, CREATOR_ZONE, "en-US")}.`, { exact: false }).waitFor();
    await checkAxe(creatorPage, "move-requested");
    expect(await booking(creator.session.access_token)).toMatchObject({ scheduled_time: BOOKED, reschedule_to: MOVED });
  });

  it("the expert finds it among the bookings to act on and accepts; both see the new time", async () => {
    await expertPage.goto(url(`/expert-dashboard/${expert.id}/bookings`));
    const row = expertPage.getByRole("region", { name: "Needs your action" }).locator(`[data-booking-id="${bookingId}"]`);
    await row.getByText(`Asks to move to ${localMoment(MOVED, EXPERT_ZONE, "en-US")}`).waitFor();
    await row.getByRole("link", { name: /^Review Move Request/ }).click();
    const request = expertPage.getByRole("region", { name: "Request to move this session" });
    await request
      .getByText(`${creator.name} asks to move this session to ${localMoment(MOVED, EXPERT_ZONE, "en-US")}`, { exact: false })
      .waitFor();
    await checkAxe(expertPage, "move-request-to-answer");
    await request.getByRole("button", { name: "Accept new time" }).click();
    await request.waitFor({ state: "detached" });
    await expertPage.getByText(`Deal review · ${localMoment(MOVED, EXPERT_ZONE, "en-US")}`, { exact: false }).waitFor();

    await expertPage.goto(url(`/expert-dashboard/${expert.id}/bookings`));
    await expertPage
      .getByRole("region", { name: "Upcoming" })
      .locator(`[data-booking-id="${bookingId}"]`)
      .getByTestId("booking-time")
      .getByText(localMoment(MOVED, EXPERT_ZONE, "en-US"))
      .waitFor();
    await creatorPage.goto(url(`/creator-dashboard/${creator.id}`));
    const card = creatorPage.locator(`[data-booking-id="${bookingId}"]`);
    await expect.poll(() => card.getByTestId("booking-time").textContent()).toBe(localMoment(MOVED, CREATOR_ZONE, "en-US"));
    expect(await card.getByRole("region", { name: "Request to move this session" }).count()).toBe(0);
    expect(await booking(creator.session.access_token)).toMatchObject({
      status: "confirmed",
      scheduled_time: MOVED,
      previous_time: BOOKED,
      reschedule_to: null,
    });

    // The calendar file follows the move: same event, new start, a higher SEQUENCE.
    const before = await downloadedInvite(creatorPage, card.getByRole("button", { name: "Add to calendar: Deal review" }));
    expect(before.start).toBe(MOVED);
    expect(before.uid).toContain(bookingId);
    expect(before.sequence).toBeGreaterThan(0);
    // And so does the copy in the expert's CalDAV calendar: the same entry, at the new time.
    if (caldav) await expect.poll(() => own.bookingEntryStart(bookingId), { timeout: 20_000 }).toBe(MOVED);
  });

  it("the expert sets the meeting link; the creator is told when it appears", async () => {
    await expertPage.goto(url(`/manage-booking/${bookingId}`));
    const form = expertPage.getByRole("form", { name: "Meeting link" });
    await form.getByLabel("Video meeting link").fill("meet.example.com/no-scheme");
    await form.getByRole("button", { name: "Save meeting link" }).click();
    await form.getByText("Please enter a meeting link that starts with https://, without spaces.").waitFor();
    await form.getByLabel("Video meeting link").fill(ROOM);
    await form.getByRole("button", { name: "Save meeting link" }).click();
    const opens = new Date(Date.parse(MOVED) - 15 * 60_000).toISOString();
    await form
      .getByRole("status")
      .filter({ hasText: `Both of you see the link from ${localMoment(opens, EXPERT_ZONE, "en-US")}` })
      .waitFor();
    await checkAxe(expertPage, "meeting-link");

    await creatorPage.goto(url(`/session-details/${bookingId}`));
    await creatorPage.getByText("The link appears 15 minutes before the start.").waitFor();
    expect(await creatorPage.getByRole("link", { name: /^Join the session/ }).count()).toBe(0);
    expect(await booking(creator.session.access_token)).toMatchObject({
      join_link: null,
      join_link_source: "expert",
      join_link_opens_at: opens,
    });
  });
});
