import ICAL from "ical.js";
import type { FastifyInstance } from "fastify";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/main/app.ts";
import { apiConfig, parseConfig } from "../src/main/config.ts";
import { run } from "./paid-booking.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 17, items 3 and 6 through the API: a creator asks to move a booking, the expert accepts
// or declines, the creator may withdraw; the expert sets a meeting link that both parties see from
// 15 minutes before the start. On a clock the test moves; the expert works 09:00-17:00 in London.

const V1 = "/api/v1";
const NOW = "2026-03-02T08:00:00.000Z"; // Monday; London is on GMT until 29 March
const ZONE = "Europe/London";
const nineToFive = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "09:00",
  end_local: "17:00",
}));
const WED_10 = "2026-03-04T10:00:00.000Z";
const THU_13 = "2026-03-05T13:00:00.000Z";
const ROOMS = "https://rooms.example.com/{bookingId}";

let api: TestApi;
let now = NOW;
let admin: TestUser;
/** The same API, configured with MEETING_ROOM_URL_TEMPLATE. */
let withRooms: FastifyInstance;

type Reply = { statusCode: number; json: <T = Record<string, unknown>>() => T; body: string };

async function must(user: TestUser, method: "GET" | "POST" | "PATCH" | "PUT", url: string, body?: unknown) {
  const r = await api.call(method, url, { user, ...(body !== undefined && { body }) });
  if (r.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${r.statusCode} ${r.body}`);
  return r.json();
}

function refusedWith(r: Reply, status: number, code: string, message?: string) {
  expect(r.statusCode, r.body).toBe(status);
  expect(r.json()).toMatchObject(message ? { code, message } : { code });
}

type Booking = {
  id: string;
  status: string;
  scheduled_time: string;
  previous_time: string | null;
  reschedule_to: string | null;
  reschedule_requested_at: string | null;
  join_link: string | null;
  join_link_opens_at: string | null;
  join_link_source: string | null;
};

/** An expert in London with a published one-hour session, and a creator's booking of it at `at`, paid and confirmed (or only paid). */
async function bookedExpert(
  at = WED_10,
  confirm = true,
): Promise<{ expert: TestUser; creator: TestUser; sessionId: string; bookingId: string }> {
  const expert = await api.user("expert");
  const creator = await api.user("creator");
  await must(expert, "PATCH", `${V1}/experts/me`, { first_name: "Ada", last_name: "Moss", title: "Coach", published: true });
  await api.approve(expert);
  await must(expert, "POST", `${V1}/experts/${expert.id}/schedule`, { timezone: ZONE, slots: nineToFive });
  const sessionId: string = (
    await must(expert, "POST", `${V1}/sessions`, {
      title: "Pricing review",
      price: 100,
      length_minutes: 60,
      prep_question_1: "Goal?",
      status: "published",
    })
  ).session.id;
  const bookingId: string = (await must(creator, "POST", `${V1}/bookings`, { session_id: sessionId, scheduled_time: at })).booking.id;
  await run(api, expert.id, {
    type: "RecordPayment",
    expertId: expert.id,
    bookingId,
    actor: { userId: "payments", role: "system" },
    paymentId: `pi-${bookingId}`,
    amountCents: 10_000,
    provider: "test",
  });
  if (confirm) await must(expert, "PATCH", `${V1}/bookings/${bookingId}/status`, { status: "confirmed" });
  return { expert, creator, sessionId, bookingId };
}

const post = (user: TestUser, bookingId: string, action: "" | "/accept" | "/decline" | "/withdraw", body?: unknown) =>
  api.call("POST", `${V1}/bookings/${bookingId}/reschedule${action}`, { user, ...(body !== undefined && { body }) });
const booking = async (user: TestUser, bookingId: string) => must(user, "GET", `${V1}/bookings/${bookingId}`) as Promise<Booking>;
const book = async (sessionId: string, at: string) =>
  api.call("POST", `${V1}/bookings`, { user: await api.user("creator"), body: { session_id: sessionId, scheduled_time: at } });
async function offeredOn(sessionId: string, date: string): Promise<string[]> {
  const r = await api.call("GET", `${V1}/sessions/${sessionId}/availability?from=${date}&to=${date}`);
  return r.json<{ times: string[] }>().times.map((t) => DateTime.fromISO(t, { zone: ZONE }).toFormat("HH:mm"));
}
function icsEvent(text: string): { start: string; sequence: number; location: string | null } {
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!);
  return { start: event.startDate.toJSDate().toISOString(), sequence: event.sequence, location: event.location ?? null };
}
const ics = async (app: FastifyInstance, user: TestUser, bookingId: string) => {
  const r = await app.inject({
    method: "GET",
    url: `${V1}/bookings/${bookingId}/calendar.ics`,
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(r.statusCode, r.body).toBe(200);
  return icsEvent(r.body);
};

beforeAll(async () => {
  api = await startTestApi({ clock: () => now });
  admin = await api.user("admin");
  withRooms = await buildApp({ ...api.ctx, meetingRoomUrlTemplate: ROOMS });
  await withRooms.ready();
});
afterAll(async () => {
  await withRooms?.close();
  await api?.close();
});

describe("moving a booking", () => {
  it("the creator asks, both times are held meanwhile, the expert accepts: the booking moves, stays confirmed, and its history and calendar file show it", async () => {
    now = NOW;
    const { expert, creator, sessionId, bookingId } = await bookedExpert();
    const before = await ics(api.app, creator, bookingId);

    const asked = await post(creator, bookingId, "", { scheduled_time: "2026-03-05T13:00:00+00:00" });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json<Booking>()).toMatchObject({
      status: "confirmed",
      scheduled_time: WED_10,
      reschedule_to: THU_13,
      reschedule_requested_at: NOW,
    });
    expect(await booking(expert, bookingId)).toMatchObject({ reschedule_to: THU_13 });

    // Held: the old time and the new one are offered to nobody, and taken by nobody.
    expect(await offeredOn(sessionId, "2026-03-04")).not.toContain("10:00");
    expect(await offeredOn(sessionId, "2026-03-05")).not.toContain("13:00");
    expect(await offeredOn(sessionId, "2026-03-05")).not.toContain("12:30");
    refusedWith(await book(sessionId, THU_13), 409, "slot_unavailable");
    refusedWith(await book(sessionId, WED_10), 409, "slot_unavailable");
    const scheduleBooked = (await must(expert, "GET", `${V1}/experts/${expert.id}/schedule`)).booked as { scheduled_time: string }[];
    expect(scheduleBooked.map((b) => b.scheduled_time)).toEqual([WED_10, THU_13]);
    refusedWith(await post(creator, bookingId, "", { scheduled_time: "2026-03-06T13:00:00.000Z" }), 409, "reschedule_already_requested");

    const accepted = await post(expert, bookingId, "/accept");
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<Booking>()).toMatchObject({
      status: "confirmed",
      scheduled_time: THU_13,
      previous_time: WED_10,
      reschedule_to: null,
      reschedule_requested_at: null,
    });
    expect((await book(sessionId, WED_10)).statusCode).toBe(201);
    refusedWith(await book(sessionId, THU_13), 409, "slot_unavailable");

    const after = await ics(api.app, creator, bookingId);
    expect(after.start).toBe(THU_13);
    expect(after.sequence).toBeGreaterThan(before.sequence);

    const shown = await api.call("GET", `${V1}/admin/bookings/${bookingId}`, { user: admin });
    const timeline = shown.json<{ timeline: { type: string; data: Record<string, unknown> }[] }>().timeline;
    expect(timeline.filter((e) => e.type.startsWith("Reschedule")).map((e) => [e.type, e.data.from, e.data.to, e.data.by])).toEqual([
      ["RescheduleRequested", WED_10, THU_13, "creator"],
      ["RescheduleAccepted", WED_10, THU_13, "expert"],
    ]);
  });

  it("declining or withdrawing frees the new time and keeps the booking where it was; a pending paid request can be moved too", async () => {
    now = NOW;
    const { expert, creator, sessionId, bookingId } = await bookedExpert(WED_10, false);
    expect((await post(creator, bookingId, "", { scheduled_time: THU_13 })).statusCode).toBe(200);
    const declined = await post(expert, bookingId, "/decline", { reason: "I teach on Thursdays" });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json<Booking>()).toMatchObject({ status: "pending", scheduled_time: WED_10, reschedule_to: null });
    expect(await offeredOn(sessionId, "2026-03-05")).toContain("13:00");
    // The creator reads which time was declined and why, as the decline mail says, until they ask again.
    const seen = await api.call("GET", `${V1}/bookings/${bookingId}`, { user: creator });
    expect(seen.json()).toMatchObject({ reschedule_declined_to: THU_13, reschedule_decline_reason: "I teach on Thursdays" });

    const askedAgain = await post(creator, bookingId, "", { scheduled_time: "2026-03-05T14:00:00.000Z" });
    expect(askedAgain.statusCode).toBe(200);
    expect(askedAgain.json()).toMatchObject({ reschedule_declined_to: null, reschedule_decline_reason: null });
    const withdrawn = await post(creator, bookingId, "/withdraw");
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json<Booking>()).toMatchObject({ scheduled_time: WED_10, reschedule_to: null });
    expect((await book(sessionId, "2026-03-05T14:00:00.000Z")).statusCode).toBe(201);
    // A decline needs no body.
    expect((await post(creator, bookingId, "", { scheduled_time: "2026-03-06T14:00:00.000Z" })).statusCode).toBe(200);
    const bare = await post(expert, bookingId, "/decline");
    expect(bare.statusCode, bare.body).toBe(200);
  });

  it("a creator shown a proposed time answers with another; the expert accepting it confirms the booking there (issue 27.11)", async () => {
    now = NOW;
    const { expert, creator, bookingId } = await bookedExpert(WED_10, false);
    const FRI_10 = "2026-03-06T10:00:00.000Z";
    await must(expert, "PATCH", `${V1}/bookings/${bookingId}/schedule`, { scheduled_time: FRI_10 });
    const countered = await post(creator, bookingId, "", { scheduled_time: THU_13 });
    expect(countered.statusCode, countered.body).toBe(200);
    expect(countered.json<Booking>()).toMatchObject({ status: "time_proposed", scheduled_time: FRI_10, reschedule_to: THU_13 });
    const accepted = await post(expert, bookingId, "/accept");
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await booking(creator, bookingId)).toMatchObject({
      status: "confirmed",
      scheduled_time: THU_13,
      previous_time: FRI_10,
      reschedule_to: null,
    });
  });

  it("moves within its own slot", async () => {
    now = NOW;
    const { expert, creator, bookingId } = await bookedExpert();
    expect((await post(creator, bookingId, "", { scheduled_time: "2026-03-04T10:30:00.000Z" })).statusCode).toBe(200);
    expect((await post(expert, bookingId, "/accept")).json<Booking>()).toMatchObject({ scheduled_time: "2026-03-04T10:30:00.000Z" });
  });

  it("refuses with the catalogue's messages: wrong party, too late, not bookable, taken, the creator's own clash, nothing to answer, a bad time", async () => {
    now = NOW;
    const { expert, creator, sessionId, bookingId } = await bookedExpert();
    const stranger = await api.user("creator");
    refusedWith(
      await post(expert, bookingId, "", { scheduled_time: THU_13 }),
      403,
      "reschedule_creator_only",
      "Only the creator of this booking can ask to move it or withdraw that request.",
    );
    refusedWith(await post(stranger, bookingId, "", { scheduled_time: THU_13 }), 404, "booking_not_found");
    refusedWith(
      await post(expert, bookingId, "/accept"),
      409,
      "reschedule_not_requested",
      "There is no request to move this booking waiting for an answer.",
    );
    refusedWith(await post(creator, bookingId, "", { scheduled_time: "tomorrow" }), 400, "scheduled_time_invalid");
    refusedWith(
      await post(creator, bookingId, "", { scheduled_time: "2026-03-05T18:00:00.000Z" }),
      409,
      "reschedule_time_unavailable",
      "That time is not one of the expert's bookable times. Please pick another.",
    );
    refusedWith(await post(creator, bookingId, "", { scheduled_time: WED_10 }), 409, "reschedule_same_time");
    expect((await book(sessionId, "2026-03-05T12:30:00.000Z")).statusCode).toBe(201);
    refusedWith(
      await post(creator, bookingId, "", { scheduled_time: THU_13 }),
      409,
      "reschedule_time_taken",
      "That time is already taken. Please pick another.",
    );

    // The creator's session with another expert at that time: their own clash.
    const other = await bookedExpert("2026-03-06T10:00:00.000Z");
    const mine = await must(creator, "POST", `${V1}/bookings`, { session_id: other.sessionId, scheduled_time: "2026-03-06T14:00:00.000Z" });
    expect(mine.booking.id).toBeTruthy();
    refusedWith(await post(creator, bookingId, "", { scheduled_time: "2026-03-06T14:30:00.000Z" }), 409, "creator_time_overlap");

    expect((await post(creator, bookingId, "", { scheduled_time: "2026-03-06T09:00:00.000Z" })).statusCode).toBe(200);
    refusedWith(await post(creator, bookingId, "/accept"), 403, "reschedule_expert_only");
    refusedWith(await post(expert, bookingId, "/withdraw"), 403, "reschedule_creator_only");
    refusedWith(await post(expert, bookingId, "/decline", { reason: 5 }), 400, "invalid_request");

    now = "2026-03-03T10:00:00.001Z"; // less than 24 hours before Wednesday 10:00
    expect((await post(creator, bookingId, "/withdraw")).statusCode).toBe(200);
    refusedWith(
      await post(creator, bookingId, "", { scheduled_time: "2026-03-06T09:00:00.000Z" }),
      409,
      "reschedule_too_late",
      "A booking can be moved until 24 hours before it starts. This one starts sooner: please contact your expert or cancel it instead.",
    );
    now = NOW;
  });

  it("a cancelled booking's open request ends with it and frees the time it held", async () => {
    now = NOW;
    const { expert, creator, sessionId, bookingId } = await bookedExpert();
    expect((await post(creator, bookingId, "", { scheduled_time: THU_13 })).statusCode).toBe(200);
    const cancelled = await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, {
      user: creator,
      body: { status: "cancelled", reason: "Plans changed" },
    });
    expect(cancelled.json<Booking>()).toMatchObject({ status: "cancelled", reschedule_to: null });
    refusedWith(await post(expert, bookingId, "/accept"), 409, "reschedule_not_requested");
    expect((await book(sessionId, THU_13)).statusCode).toBe(201);
  });

  it("admins act for either party", async () => {
    now = NOW;
    const { bookingId } = await bookedExpert();
    expect((await post(admin, bookingId, "", { scheduled_time: THU_13 })).statusCode).toBe(200);
    expect((await post(admin, bookingId, "/accept")).json<Booking>()).toMatchObject({ scheduled_time: THU_13 });
  });
});

describe("the meeting link", () => {
  it("the expert sets it; both parties see it from 15 minutes before the start, and the calendar file carries it at once", async () => {
    now = NOW;
    const { expert, creator, bookingId } = await bookedExpert();
    const set = await api.call("PUT", `${V1}/bookings/${bookingId}/join-link`, {
      user: expert,
      body: { url: " https://meet.example.com/abc-defg " },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ booking_id: bookingId, url: "https://meet.example.com/abc-defg", opens_at: "2026-03-04T09:45:00.000Z" });

    for (const who of [creator, expert])
      expect(await booking(who, bookingId)).toMatchObject({
        join_link: null,
        join_link_opens_at: "2026-03-04T09:45:00.000Z",
        join_link_source: "expert",
      });
    expect((await ics(api.app, creator, bookingId)).location).toBe("https://meet.example.com/abc-defg");

    now = "2026-03-04T09:44:59.999Z";
    expect((await booking(creator, bookingId)).join_link).toBeNull();
    now = "2026-03-04T09:45:00.000Z";
    for (const who of [creator, expert]) expect((await booking(who, bookingId)).join_link).toBe("https://meet.example.com/abc-defg");
    const list = await must(creator, "GET", `${V1}/bookings/creator/me`);
    expect((list as Booking[]).find((b) => b.id === bookingId)?.join_link).toBe("https://meet.example.com/abc-defg");
    now = NOW;
  });

  it("refuses the creator, links that are not https, and bookings not yet confirmed", async () => {
    now = NOW;
    const { expert, creator, bookingId } = await bookedExpert();
    refusedWith(
      await api.call("PUT", `${V1}/bookings/${bookingId}/join-link`, { user: creator, body: { url: "https://meet.example.com/x" } }),
      403,
      "join_link_expert_only",
    );
    for (const url of ["http://meet.example.com/x", "javascript:alert(1)", "https://meet.example.com/a b", 42])
      refusedWith(
        await api.call("PUT", `${V1}/bookings/${bookingId}/join-link`, { user: expert, body: { url } }),
        400,
        "join_link_invalid",
        "Please enter a meeting link that starts with https://, without spaces.",
      );
    const pending = await bookedExpert(WED_10, false);
    refusedWith(
      await api.call("PUT", `${V1}/bookings/${pending.bookingId}/join-link`, {
        user: pending.expert,
        body: { url: "https://meet.example.com/x" },
      }),
      409,
      "join_link_not_confirmed",
    );
  });

  it("without the expert's link a room is generated from MEETING_ROOM_URL_TEMPLATE; without the template there is none", async () => {
    now = NOW;
    const { creator, bookingId } = await bookedExpert();
    now = "2026-03-04T09:50:00.000Z"; // inside the window
    const asCreator = { authorization: `Bearer ${creator.token}` };
    const generated = (await withRooms.inject({ method: "GET", url: `${V1}/bookings/${bookingId}`, headers: asCreator })).json<Booking>();
    expect(generated).toMatchObject({
      join_link: `https://rooms.example.com/${bookingId}`,
      join_link_source: "generated",
      join_link_opens_at: "2026-03-04T09:45:00.000Z",
    });
    expect((await ics(withRooms, creator, bookingId)).location).toBe(`https://rooms.example.com/${bookingId}`);
    expect(await booking(creator, bookingId)).toMatchObject({ join_link: null, join_link_opens_at: null, join_link_source: null });
    expect((await ics(api.app, creator, bookingId)).location).toBeNull();
    now = NOW;
  });

  it("MEETING_ROOM_URL_TEMPLATE must be an https address with {room} or {bookingId} in it", () => {
    const env = { DATABASE_URL: "postgres://x@127.0.0.1/db", JWT_SECRET: "x".repeat(32) };
    expect(parseConfig(apiConfig, { ...env, MEETING_ROOM_URL_TEMPLATE: ROOMS }).ok).toBe(true);
    for (const bad of ["https://rooms.example.com/fixed", "http://rooms.example.com/{bookingId}", "rooms/{bookingId}"])
      expect(parseConfig(apiConfig, { ...env, MEETING_ROOM_URL_TEMPLATE: bad })).toEqual({
        ok: false,
        error: {
          variable: "MEETING_ROOM_URL_TEMPLATE",
          problem: "must be an https URL with {room} or {bookingId} in it, or empty for no rooms",
        },
      });
  });
});
