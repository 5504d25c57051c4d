import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../src/payments/payments-table.ts";
import { buildApp } from "../src/main/app.ts";
import { apiConfig, parseConfig } from "../src/main/config.ts";
import { expireHolds } from "../src/bookings/hold-sweeper.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { readEverything, testMail } from "./mail-bookings.ts";

// Issue 27.6, 27.7 and 27.13 through the API: an expert offers a session with instant booking (its
// payment confirms the booking); any other paid booking is a request the expert has until a
// deadline to accept, else it is cancelled and refunded; the creator is mailed when they pay; a
// confirmed booking meets in a generated room of its own unless the expert sets a link.

const V1 = "/api/v1";
const NOW = "2026-03-02T08:00:00.000Z"; // Monday; London is on GMT
const WED_10 = "2026-03-04T10:00:00.000Z";
const DEADLINE = "2026-03-04T08:00:00.000Z"; // 48 hours after paying, before the start
const ROOMS = "https://meet.jit.si/{room}";
const nineToFive = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "09:00",
  end_local: "17:00",
}));

let api: TestApi;
let withRooms: FastifyInstance;
let now = NOW;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };

beforeAll(async () => {
  api = await startTestApi({ clock: () => now, payments: new TestPaymentProvider(lazyDb) });
  withRooms = await buildApp({ ...api.ctx, meetingRoomUrlTemplate: ROOMS });
  await withRooms.ready();
});
afterAll(async () => {
  await withRooms.close();
  await api.close();
});

async function must(user: TestUser, method: "GET" | "POST" | "PATCH" | "PUT", url: string, body?: unknown) {
  const r = await api.call(method, url, { user, ...(body !== undefined && { body }) });
  if (r.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${r.statusCode} ${r.body}`);
  return r.json();
}

type Booking = {
  id: string;
  status: string;
  instant_booking: boolean;
  respond_by: string | null;
  cancel_reason: string | null;
  refund_due_cents: number;
};

/** An expert in London with a published one-hour $100 session (instant or not), and a creator's booking of it, paid with the test card. */
async function paidBooking(instant: boolean): Promise<{ expert: TestUser; creator: TestUser; bookingId: string }> {
  now = NOW;
  // Mails name people as they registered: Ada Test.
  const expert = await api.user("expert", { firstName: "Ada" });
  const creator = await api.user("creator");
  await must(expert, "PATCH", `${V1}/experts/me`, { first_name: "Ada", last_name: "Moss", title: "Coach", published: true });
  await api.approve(expert);
  await must(expert, "POST", `${V1}/experts/${expert.id}/schedule`, { timezone: "Europe/London", slots: nineToFive });
  const session = {
    title: "Pricing review",
    price: 100,
    length_minutes: 60,
    prep_question_1: "Goal?",
    status: "published",
    instant_booking: instant,
  };
  const sessionId: string = (await must(expert, "POST", `${V1}/sessions`, session)).session.id;
  const bookingId: string = (await must(creator, "POST", `${V1}/bookings`, { session_id: sessionId, scheduled_time: WED_10 })).booking.id;
  const { clientSecret } = await must(creator, "POST", `${V1}/stripe/test-intent`, { bookingId });
  await must(creator, "POST", `${V1}/payments/test/confirm`, { client_secret: clientSecret, card_number: "4242 4242 4242 4242" });
  return { expert, creator, bookingId };
}

const bookingOf = async (user: TestUser, id: string) => (await must(user, "GET", `${V1}/bookings/${id}`)) as Booking;

/** What the mail reactor queued for the booking, by kind and recipient. */
async function mailsOf(bookingId: string) {
  const mail = testMail(api, { smtpUrl: null, meetingRoomUrlTemplate: ROOMS });
  await readEverything(api, mail.reactor);
  mail.close();
  const { rows } = await api.ctx.db.query<{ kind: string; user_id: string; subject: string; text_body: string }>(
    "SELECT kind, user_id, subject, text_body FROM mail_outbox WHERE booking_id = $1 AND kind NOT LIKE 'reminder%' ORDER BY kind, user_id",
    [bookingId],
  );
  return rows;
}

describe("instant booking, a session setting (issue 27.6)", () => {
  it("is off unless the expert turns it on, and an update that leaves it out keeps it", async () => {
    now = NOW;
    const expert = await api.user("expert");
    await must(expert, "PATCH", `${V1}/experts/me`, { first_name: "Ada", last_name: "Moss", title: "Coach" });
    const form = { title: "Pricing review", price: 100, length_minutes: 60, prep_question_1: "Goal?" };
    expect((await must(expert, "POST", `${V1}/sessions`, form)).session.instant_booking).toBe(false);
    const id: string = (await must(expert, "POST", `${V1}/sessions`, { ...form, instant_booking: true })).session.id;
    expect((await must(expert, "GET", `${V1}/sessions/${id}`)).instant_booking).toBe(true);
    expect((await must(expert, "PUT", `${V1}/sessions/${id}`, { ...form, title: "Pricing deep dive" })).session.instant_booking).toBe(true);
    expect((await must(expert, "PUT", `${V1}/sessions/${id}`, { ...form, instant_booking: false })).session.instant_booking).toBe(false);
    expect((await api.call("PUT", `${V1}/sessions/${id}`, { user: expert, body: { ...form, instant_booking: "yes" } })).statusCode).toBe(
      400,
    );
  });

  it("its booking is confirmed by the payment, meets in a room of its own, and both parties are mailed a confirmation", async () => {
    const { expert, creator, bookingId } = await paidBooking(true);
    expect(await bookingOf(creator, bookingId)).toMatchObject({ status: "confirmed", instant_booking: true, respond_by: null });
    now = "2026-03-04T09:50:00.000Z"; // inside the join window
    const asCreator = { authorization: `Bearer ${creator.token}` };
    const read = async () =>
      (await withRooms.inject({ method: "GET", url: `${V1}/bookings/${bookingId}`, headers: asCreator })).json<{
        join_link: string;
        join_link_source: string;
      }>();
    const first = await read();
    // 128 random bits in base64url, not the booking's id: nobody finds the room by guessing.
    expect(first.join_link).toMatch(/^https:\/\/meet\.jit\.si\/[A-Za-z0-9_-]{22}$/);
    expect(first.join_link).not.toContain(bookingId);
    expect(first.join_link_source).toBe("generated");
    expect((await read()).join_link).toBe(first.join_link);
    // The expert's own link replaces it.
    await must(expert, "PUT", `${V1}/bookings/${bookingId}/join-link`, { url: "https://zoom.us/j/123" });
    expect(await read()).toMatchObject({ join_link: "https://zoom.us/j/123", join_link_source: "expert" });

    const mails = await mailsOf(bookingId);
    expect(mails.map((m) => `${m.kind} -> ${m.user_id === expert.id ? "expert" : "creator"}`).sort()).toEqual([
      "booking_confirmed -> creator",
      "booking_confirmed -> expert",
      "join_link_set -> creator",
      "join_link_set -> expert",
    ]);
    const toCreator = mails.find((m) => m.kind === "booking_confirmed" && m.user_id === creator.id)!;
    expect(toCreator.text_body).toContain("$100");
    expect(toCreator.text_body).toContain("Cancel by Tuesday, 3 March 2026, 10:00 (UTC) (24 hours before the start) for a full refund");
    expect(toCreator.text_body).toContain(first.join_link);
  });
});

describe("a request waits for the expert until a deadline (issue 27.6), and the creator is told so when they pay (issue 27.7)", () => {
  it("the payment leaves it pending with the expert's deadline; the creator gets 'Request sent' with what they paid and the terms", async () => {
    const { expert, creator, bookingId } = await paidBooking(false);
    expect(await bookingOf(creator, bookingId)).toMatchObject({ status: "pending", instant_booking: false, respond_by: DEADLINE });
    const mails = await mailsOf(bookingId);
    expect(mails.map((m) => `${m.kind} -> ${m.user_id === expert.id ? "expert" : "creator"}`).sort()).toEqual([
      "booking_requested -> creator",
      "booking_requested -> expert",
    ]);
    const toCreator = mails.find((m) => m.user_id === creator.id)!;
    expect(toCreator.subject).toMatch(/^Request sent: Pricing review with Ada Test, Wed 4 Mar, 10:00$/);
    expect(toCreator.text_body).toContain("You paid $100");
    expect(toCreator.text_body).toContain(
      "Ada Test has until Wednesday, 4 March 2026, 08:00 (UTC) to accept. If they do not, the request is cancelled and you get everything back",
    );
    expect(toCreator.text_body).toContain("Until Ada Test accepts, you can cancel for a full refund.");
    const toExpert = mails.find((m) => m.user_id === expert.id)!;
    expect(toExpert.text_body).toContain("Please answer by Wednesday, 4 March 2026, 08:00 (Europe/London, GMT)");
  });

  it("unanswered by the deadline, it can no longer be accepted: the sweeper cancels it and everything paid is owed back", async () => {
    const { expert, creator, bookingId } = await paidBooking(false);
    now = DEADLINE;
    const late = await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, { user: expert, body: { status: "confirmed" } });
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({ code: "booking_request_lapsed" });
    await expireHolds({ db: api.ctx.db, calendar: api.ctx.calendar, clock: () => now });
    await api.ctx.calendar.snapshotsWritten();
    await expect.poll(async () => (await bookingOf(creator, bookingId)).status).toBe("cancelled");
    expect(await bookingOf(creator, bookingId)).toMatchObject({
      cancel_reason: "not_answered",
      refund_due_cents: 10_000,
      respond_by: null,
    });
  });
});

describe("MEETING_ROOM_URL_TEMPLATE (issue 27.13)", () => {
  const env = { DATABASE_URL: "postgres://x@127.0.0.1/db", JWT_SECRET: "x".repeat(32) };
  const template = (value?: string) => {
    const parsed = parseConfig(apiConfig, { ...env, ...(value !== undefined && { MEETING_ROOM_URL_TEMPLATE: value }) });
    return parsed.ok ? parsed.config.MEETING_ROOM_URL_TEMPLATE : parsed.error.problem;
  };

  it("defaults to an open Jitsi Meet room, takes {room} or {bookingId}, and is turned off by an empty value", () => {
    expect(template()).toBe("https://meet.jit.si/{room}");
    expect(template("https://rooms.example.com/{bookingId}")).toBe("https://rooms.example.com/{bookingId}");
    expect(template("")).toBeNull();
    for (const bad of ["https://rooms.example.com/fixed", "http://rooms.example.com/{room}"])
      expect(template(bad)).toBe("must be an https URL with {room} or {bookingId} in it, or empty for no rooms");
  });
});
