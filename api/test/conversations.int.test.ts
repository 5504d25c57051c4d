import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationReply, UnreadMessagesReply } from "@booking/contracts";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { testMail } from "./mail-bookings.ts";

// A conversation per booking (issue 31.3) through the routes: the two parties write and read, unread counts clear,
// strangers learn nothing, bad messages are refused with catalogue messages and keep nothing, the thread closes 7 days
// after the session, the expert's request for information is a message of the same thread, and new-message mails come
// at most once per reader and thread per 15 minutes, none to a reader who muted it.

const V1 = "/api/v1";
let now = Date.parse("2030-03-04T08:00:00.000Z");
const clock = () => new Date(now).toISOString();
let api: TestApi;
let expert: TestUser;
let creator: TestUser;
let calendar: ExpertCalendar;
let bookingId: string;

const path = (suffix = "") => `${V1}/bookings/${bookingId}/messages${suffix}`;
const thread = async (user: TestUser) => (await api.call("GET", path(), { user })).json<ConversationReply>();
const say = (user: TestUser, text: string) => api.call("POST", path(), { user, body: { text } });
const unread = async (user: TestUser) => (await api.call("GET", `${V1}/me/unread-messages`, { user })).json<UnreadMessagesReply>();

beforeAll(async () => {
  api = await startTestApi({ clock });
  expert = await api.user("expert", { firstName: "Ava" });
  creator = await api.user("creator", { firstName: "Cole" });
  calendar = await expertCalendar(api, expert);
  bookingId = await calendar.confirmedBooking(creator, "2030-03-05T10:00:00.000Z");
});
afterAll(async () => api?.close());

describe("a booking's conversation", () => {
  it("the parties write, the other's unread count rises and clears once read; a stranger gets not found", async () => {
    expect((await say(creator, "Can we cover pricing?")).statusCode).toBe(200);
    expect((await say(creator, "And the launch date?")).statusCode).toBe(200);
    const seen = await thread(expert);
    expect(seen.messages.map((m) => [m.role, m.text])).toEqual([
      ["creator", "Can we cover pricing?"],
      ["creator", "And the launch date?"],
    ]);
    expect(seen.unread).toBe(2);
    expect(await unread(expert)).toEqual({ total: 2, bookings: [{ booking_id: bookingId, unread: 2 }] });
    expect((await thread(creator)).unread).toBe(0);
    expect((await api.call("POST", path("/read"), { user: expert })).json<ConversationReply>().unread).toBe(0);
    expect((await unread(expert)).total).toBe(0);
    const stranger = await api.user("creator");
    expect((await api.call("GET", path(), { user: stranger })).statusCode).toBe(404);
    expect((await say(stranger, "hello")).statusCode).toBe(404);
  });

  it("refuses an empty message, NUL and 2,001 characters, keeping nothing; closes 7 days after the session", async () => {
    const before = (await thread(creator)).messages.length;
    for (const [text, code] of [
      ["   ", "message_text_invalid"],
      ["x".repeat(2001), "message_text_invalid"],
      ["a\u0000b", "invalid_request"],
    ] as const) {
      const r = await say(creator, text);
      expect([r.statusCode, r.json().code]).toEqual([400, code]);
    }
    expect((await thread(creator)).messages).toHaveLength(before);
    now = Date.parse("2030-03-12T11:00:00.001Z");
    const late = await say(creator, "Thanks again!");
    expect([late.statusCode, late.json().message]).toEqual([409, "This conversation closed 7 days after the session."]);
    now = Date.parse("2030-03-04T09:00:00.000Z");
  });

  it("the expert's request for information is their message in the same thread", async () => {
    const request = await calendar.unpaidRequest(creator, "2030-03-06T10:00:00.000Z");
    await calendar.run({
      type: "RecordPayment",
      expertId: expert.id,
      bookingId: request,
      actor: { userId: "payments", role: "system" },
      paymentId: `pi-${request}`,
      amountCents: 15_000,
      provider: "test",
    });
    const asked = await api.call("PATCH", `${V1}/bookings/${request}/status`, {
      user: expert,
      body: { status: "more_info_requested", info_request_note: "Which page should we review?" },
    });
    expect(asked.json()).toMatchObject({ status: "more_info_requested" });
    const seen = (await api.call("GET", `${V1}/bookings/${request}/messages`, { user: creator })).json<ConversationReply>();
    expect(seen.messages.map((m) => [m.role, m.text])).toEqual([["expert", "Which page should we review?"]]);
    expect(seen.unread).toBe(1);
  });
});

describe("new-message mails", () => {
  it("at most one per reader and thread per 15 minutes, none to a reader who muted the thread", async () => {
    const mail = testMail(api, { smtpUrl: null, clock });
    const b = await calendar.confirmedBooking(creator, "2030-03-07T10:00:00.000Z");
    const say2 = (user: TestUser, text: string) => api.call("POST", `${V1}/bookings/${b}/messages`, { user, body: { text } });
    const mails = async () => {
      await mail.reactor.catchUp();
      const { rows } = await api.ctx.db.query<{ user_id: string; subject: string }>(
        "SELECT user_id, subject FROM mail_outbox WHERE booking_id = $1 AND kind = 'message_received' ORDER BY created_at, user_id",
        [b],
      );
      return rows;
    };
    now = Date.parse("2030-03-04T09:01:00.000Z");
    await say2(creator, "First");
    now += 60_000;
    await say2(creator, "Second, a minute later");
    expect(await mails()).toEqual([{ user_id: expert.id, subject: "New message from Cole Test about Pricing review" }]);
    now = Date.parse("2030-03-04T09:16:00.000Z"); // the next quarter of an hour
    await say2(creator, "Third");
    expect(await mails()).toHaveLength(2);
    await api.call("PUT", `${V1}/bookings/${b}/messages/mute`, { user: expert, body: { muted: true } });
    now = Date.parse("2030-03-04T09:31:00.000Z");
    await say2(creator, "Fourth, muted");
    expect(await mails()).toHaveLength(2);
    // The expert's reply reaches the creator, who did not mute it.
    await say2(expert, "Got them all");
    expect((await mails()).map((m) => m.user_id)).toEqual([expert.id, expert.id, creator.id]);
    mail.close();
  });
});
