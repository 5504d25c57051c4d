import { DateTime } from "luxon";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ConversationReply, UnreadMessagesReply } from "@booking/contracts";
import { localMoment } from "../src/shared/local-time.ts"; // both people read en-US here (newContext below)
import { launchChromium, screenshot, takeCspViolations } from "./chromium.ts";
import { signedUpPerson, walkAxe, walkContexts, type Person } from "./walk-people.ts";
import { adminToken } from "./mailbox.ts";
import { callApi, replyOf } from "./product-api.ts";
import { ADMIN, startProduct, type ProductServer } from "./product-server.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 31.3's walk, in Chromium against the built app served by the real API: a creator's confirmed, paid booking with
// an expert (made through the API); two browsers, each open and never reloaded. The creator writes on Session Details:
// the expert's dashboard counts it live; the expert opens the thread on Manage Booking and the count clears (on the page
// and in GET /me/unread-messages); the expert replies and the creator's open page shows it at once, and the other way
// round. Screenshots go to e2e/artifacts/conversation-*.png.

const EXPERT_ZONE = "Europe/London";
const CREATOR_ZONE = "America/New_York";
const run = Date.now().toString(36);
const FIRST = "Hi Maya! Could we also look at the media kit I sent the brand?";
const REPLY = "Of course.\nBring the kit and last month's numbers.";
const AGAIN = "Will do, thank you!";

let product: ProductServer;
let browser: Browser;
let admin = "";
let expert: Person;
let creator: Person;
let sessionId = "";
let bookingId = "";
let expertPage: Page;
let creatorPage: Page;
const pages = walkContexts(
  () => browser,
  () => product.url,
);
const axe = walkAxe();

const url = (path: string) => `${product.url}${path}`;
const call = <T>(method: string, path: string, token: string | null, body?: unknown) => callApi<T>(product.url, method, path, token, body);
const thread = (who: Person) => call<ConversationReply>("GET", `/bookings/${bookingId}/messages`, who.session.access_token);
const unread = (who: Person) => call<UnreadMessagesReply>("GET", "/me/unread-messages", who.session.access_token);

const person = (role: "creator" | "expert", first: string, last: string) =>
  signedUpPerson(product.url, admin, role, first, last, `chat-${run}`);

const signedInPage = (who: Person, timezoneId: string) => pages.signedInPage(who, timezoneId);

async function checkAxe(page: Page, name: string) {
  await axe.check(page, name);
  await screenshot(page, `conversation-${name}`);
}

/** A mark on the open page: still there later, the page was not reloaded (what changed came live). */
const markPage = (page: Page) => page.evaluate(() => void ((window as unknown as { walkMark: string }).walkMark = "not reloaded"));
const stillMarked = (page: Page) => page.evaluate(() => (window as unknown as { walkMark?: string }).walkMark);

/** The texts of the thread's messages as the page shows them, oldest first. */
const shownTexts = (page: Page) => page.getByTestId("conversation-message-text").allTextContents();

async function send(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Your message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  // The box empties once the message is kept (the reply waits for the read models): on a loaded machine that takes seconds.
  await expect.poll(() => page.getByRole("textbox", { name: "Your message" }).inputValue(), { timeout: 20_000 }).toBe("");
}

const expertRow = (): Locator => expertPage.locator(`[data-testid="expert-booking"][data-booking-id="${bookingId}"]`);

beforeAll(async () => {
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
  const expertId = (await call<{ id: string }>("GET", "/experts/me", token)).id;
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
      status: "published",
    })
  ).session.id;
  // Paid with the test provider's card, then confirmed by the expert: four days ahead, 14:00 London.
  const time = DateTime.now().setZone(EXPERT_ZONE).startOf("day").plus({ days: 4 }).set({ hour: 14 }).toUTC().toISO()!;
  const creatorToken = creator.session.access_token;
  const made = await call<{ booking: { id: string } }>("POST", "/bookings", creatorToken, { session_id: sessionId, scheduled_time: time });
  bookingId = made.booking.id;
  const intent = await call<{ clientSecret: string }>("POST", "/stripe/test-intent", creatorToken, { bookingId });
  await call("POST", "/payments/test/confirm", creatorToken, { client_secret: intent.clientSecret, card_number: "4242424242424242" });
  const paid = await call<{ paid: boolean }>("GET", `/bookings/${bookingId}`, token);
  if (!paid.paid) throw new Error(`fixture: booking ${bookingId} is not paid`);
  await call("PATCH", `/bookings/${bookingId}/status`, token, { status: "confirmed" });
  expertPage = await signedInPage(expert, EXPERT_ZONE);
  creatorPage = await signedInPage(creator, CREATOR_ZONE);
});

// The app runs under the API's Content-Security-Policy: anything it blocks on any page fails the test.
afterEach(() => {
  expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
});

afterAll(async () => {
  console.log("[web-e2e] conversation walk: axe serious/critical violations per page:", axe.counts());
  await pages.closeAll();
  await browser?.close();
  await product?.stop();
});

describe("a conversation per booking", () => {
  it("the creator writes on Session Details; the expert's open dashboard counts it live", async () => {
    await expertPage.goto(url(`/expert-dashboard/${expert.id}/bookings`));
    const total = expertPage.getByTestId("unread-messages");
    await total.getByText("No unread messages").waitFor();
    await expertRow().getByTestId("booking-messages").waitFor();
    await markPage(expertPage);

    await creatorPage.goto(url(`/session-details/${bookingId}`));
    const log = creatorPage.getByRole("log", { name: "Messages" });
    await log.getByText("No messages yet.").waitFor();
    await markPage(creatorPage);
    await checkAxe(creatorPage, "creator-empty-thread");
    await send(creatorPage, FIRST);
    await expect.poll(() => shownTexts(creatorPage)).toEqual([FIRST]);
    const [sent] = (await thread(creator)).messages;
    expect(sent).toMatchObject({ by: creator.id, role: "creator", text: FIRST });
    expect(await creatorPage.getByTestId("conversation-message-meta").textContent()).toBe(
      `You · ${localMoment(sent!.sent_at, CREATOR_ZONE, "en-US")}`,
    );

    // Live: the expert's dashboard, never reloaded, counts the new message in all and on the booking.
    await expect.poll(() => total.getAttribute("data-unread")).toBe("1");
    expect(await total.textContent()).toContain("1 unread message");
    const link = expertRow().getByTestId("booking-messages");
    await expect.poll(() => link.textContent()).toBe("Messages (1 unread)");
    expect(await stillMarked(expertPage)).toBe("not reloaded");
    expect(await unread(expert)).toEqual({ total: 1, bookings: [{ booking_id: bookingId, unread: 1 }] });
    await checkAxe(expertPage, "expert-dashboard-unread");
  });

  it("the expert opens the thread on Manage Booking: it is read, and the count clears", async () => {
    await expertRow()
      .getByRole("link", { name: /^Messages \(1 unread\)/ })
      .click();
    await expertPage.waitForURL(`**/manage-booking/${bookingId}`);
    await expect.poll(() => shownTexts(expertPage)).toEqual([FIRST]);
    const [sent] = (await thread(creator)).messages;
    expect(await expertPage.getByTestId("conversation-message-meta").textContent()).toBe(
      `${creator.name} · Creator · ${localMoment(sent!.sent_at, EXPERT_ZONE, "en-US")}`,
    );
    await expect.poll(async () => (await unread(expert)).total).toBe(0);
    expect((await thread(expert)).unread).toBe(0);
    await checkAxe(expertPage, "expert-thread");

    // Back on the dashboard (in the app, not reloaded): nothing unread.
    await expertPage.getByRole("link", { name: "Back" }).click();
    const total = expertPage.getByTestId("unread-messages");
    await expect.poll(() => total.getAttribute("data-unread")).toBe("0");
    await expect.poll(() => expertRow().getByTestId("booking-messages").textContent()).toBe("Messages");
    expect(await stillMarked(expertPage)).toBe("not reloaded");
    await expertRow()
      .getByRole("link", { name: /^Messages: / })
      .click();
    await expertPage.waitForURL(`**/manage-booking/${bookingId}`);
  });

  it("the expert replies; the creator's open page shows it at once and reads it", async () => {
    await send(expertPage, REPLY);
    await expect.poll(() => shownTexts(expertPage)).toEqual([FIRST, REPLY]);
    await expect.poll(() => shownTexts(creatorPage)).toEqual([FIRST, REPLY]);
    expect(await stillMarked(creatorPage)).toBe("not reloaded");
    const metas = await creatorPage.getByTestId("conversation-message-meta").allTextContents();
    const reply = (await thread(creator)).messages[1]!;
    expect(metas[1]).toBe(`${expert.name} · Expert · ${localMoment(reply.sent_at, CREATOR_ZONE, "en-US")}`);
    // Shown on an open page is read: the creator has nothing unread.
    await expect.poll(async () => (await unread(creator)).total).toBe(0);
    await checkAxe(creatorPage, "creator-thread");
  });

  it("the creator writes again; the expert's open Manage Booking shows it live and reads it", async () => {
    await markPage(expertPage);
    await send(creatorPage, AGAIN);
    await expect.poll(() => shownTexts(expertPage)).toEqual([FIRST, REPLY, AGAIN]);
    expect(await stillMarked(expertPage)).toBe("not reloaded");
    await expect.poll(async () => (await unread(expert)).total).toBe(0);
    expect((await thread(expert)).messages.map((m) => m.role)).toEqual(["creator", "expert", "creator"]);
  });

  it("the expert mutes the thread's mails; an admin reads the thread but may not write in it", async () => {
    const mute = expertPage.getByLabel("Mute mail for this conversation");
    await mute.check();
    await expect.poll(async () => (await thread(expert)).muted).toBe(true);
    expect((await thread(creator)).muted).toBe(false);
    await checkAxe(expertPage, "expert-muted");

    const read = await replyOf<ConversationReply>(product.url, "GET", `/bookings/${bookingId}/messages`, admin);
    expect(read.status).toBe(200);
    expect(read.json.messages.map((m) => m.text)).toEqual([FIRST, REPLY, AGAIN]);
    const written = await replyOf<{ code: string }>(product.url, "POST", `/bookings/${bookingId}/messages`, admin, { text: "Hello" });
    expect(written).toMatchObject({ status: 403, json: { code: "not_booking_party" } });
  });
});
