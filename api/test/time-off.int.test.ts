import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DateTime } from "luxon";
import { run } from "./paid-booking.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 17, items 4 and 5 through the API: an expert's time off, extra hours on a date, buffers
// and minimum notice change what GET /sessions/{id}/availability offers and what POST /bookings
// takes, on a fixed clock. Time off over a booking already made is added and that booking listed.

const V1 = "/api/v1";
const NOW = "2026-03-02T08:00:00.000Z"; // Monday; London is on GMT until 29 March
const ZONE = "Europe/London";
const nineToFive = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "09:00",
  end_local: "17:00",
}));

let api: TestApi;
let creator: TestUser;
let admin: TestUser;

async function must(user: TestUser, method: "POST" | "PATCH" | "PUT" | "DELETE", url: string, body?: unknown) {
  const r = await api.call(method, url, { user, ...(body !== undefined && { body }) });
  if (r.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${r.statusCode} ${r.body}`);
  return r.statusCode === 204 ? null : r.json();
}

/** An expert in London, 09:00-17:00 every day, with a published one-hour session. */
async function londonExpert(): Promise<{ expert: TestUser; sessionId: string }> {
  const expert = await api.user("expert");
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
  return { expert, sessionId };
}

/** The offered starts on one local date, as London wall-clock times. */
async function offeredOn(sessionId: string, date: string): Promise<string[]> {
  const r = await api.call("GET", `${V1}/sessions/${sessionId}/availability?from=${date}&to=${date}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ times: string[] }>().times.map((t) => DateTime.fromISO(t, { zone: ZONE }).toFormat("HH:mm"));
}
/** A booking request, by a creator of its own unless named (a creator may hold only three unpaid bookings). */
const book = async (sessionId: string, at: string, who?: TestUser) =>
  api.call("POST", `${V1}/bookings`, { user: who ?? (await api.user("creator")), body: { session_id: sessionId, scheduled_time: at } });
const allDay = [
  "09:00",
  "09:30",
  "10:00",
  "10:30",
  "11:00",
  "11:30",
  "12:00",
  "12:30",
  "13:00",
  "13:30",
  "14:00",
  "14:30",
  "15:00",
  "15:30",
  "16:00",
];

beforeAll(async () => {
  api = await startTestApi({ clock: () => NOW });
  creator = await api.user("creator");
  admin = await api.user("admin");
});
afterAll(async () => api?.close());

describe("time off", () => {
  it("hides its times from availability and refuses a booking inside it; removing it gives them back", async () => {
    const { expert, sessionId } = await londonExpert();
    const added = await must(expert, "POST", `${V1}/experts/${expert.id}/time-off`, {
      start_date: "2026-03-04",
      end_date: "2026-03-04",
      reason: "Conference",
    });
    expect(added).toEqual({
      time_off: { id: expect.any(String), start: "2026-03-04T00:00", end: "2026-03-05T00:00", reason: "Conference", whole_days: true },
      affected_bookings: [],
    });
    expect(await offeredOn(sessionId, "2026-03-04")).toEqual([]);
    expect(await offeredOn(sessionId, "2026-03-05")).toEqual(allDay);
    const inside = await book(sessionId, "2026-03-04T10:00:00.000Z");
    expect(inside.statusCode).toBe(409);
    expect(inside.json()).toMatchObject({ code: "slot_unavailable" });

    expect((await api.call("DELETE", `${V1}/experts/${expert.id}/time-off/${added.time_off.id}`, { user: expert })).statusCode).toBe(204);
    expect(await offeredOn(sessionId, "2026-03-04")).toEqual(allDay);
    expect((await book(sessionId, "2026-03-04T10:00:00.000Z")).statusCode).toBe(201);
  });

  it("of some hours hides only the starts whose session would touch them", async () => {
    const { expert, sessionId } = await londonExpert();
    await must(expert, "POST", `${V1}/experts/${expert.id}/time-off`, { start: "2026-03-04T12:00", end: "2026-03-04T14:30" });
    expect(await offeredOn(sessionId, "2026-03-04")).toEqual([
      "09:00",
      "09:30",
      "10:00",
      "10:30",
      "11:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
    ]);
  });

  it("over a confirmed booking is added, the booking stays confirmed and is listed for the expert to handle", async () => {
    const { expert, sessionId } = await londonExpert();
    const bookingId: string = (await book(sessionId, "2026-03-06T10:00:00.000Z", creator)).json<{ booking: { id: string } }>().booking.id;
    await run(api, expert.id, {
      type: "RecordPayment",
      expertId: expert.id,
      bookingId,
      actor: { userId: "payments", role: "system" },
      paymentId: "pi_to1",
      amountCents: 10_000,
      provider: "test",
    });
    await run(api, expert.id, { type: "ConfirmBooking", expertId: expert.id, bookingId, actor: { userId: expert.id, role: "expert" } });

    const added = await must(expert, "POST", `${V1}/experts/${expert.id}/time-off`, {
      id: "friday-off",
      start_date: "2026-03-06",
      end_date: "2026-03-08",
      reason: "Family",
    });
    const listed = [
      {
        booking_id: bookingId,
        status: "confirmed",
        scheduled_time: "2026-03-06T10:00:00.000Z",
        length_minutes: 60,
        session_title: "Pricing review",
        creator_id: creator.id,
        time_off_ids: ["friday-off"],
      },
    ];
    expect(added.affected_bookings).toEqual(listed);
    const query = await api.call("GET", `${V1}/experts/${expert.id}/time-off/affected-bookings`, { user: expert });
    expect(query.statusCode).toBe(200);
    expect(query.json()).toEqual(listed);
    expect((await api.call("GET", `${V1}/bookings/${bookingId}`, { user: expert })).json()).toMatchObject({ status: "confirmed" });

    // The same request again (a retry) changes nothing; the same id for other days is refused.
    expect(
      (
        await must(expert, "POST", `${V1}/experts/${expert.id}/time-off`, {
          id: "friday-off",
          start_date: "2026-03-06",
          end_date: "2026-03-08",
          reason: "Family",
        })
      ).time_off.id,
    ).toBe("friday-off");
    const clash = await api.call("POST", `${V1}/experts/${expert.id}/time-off`, {
      user: expert,
      body: { id: "friday-off", start_date: "2026-03-06", end_date: "2026-03-09" },
    });
    expect([clash.statusCode, clash.json().code]).toEqual([409, "time_off_id_taken"]);

    // The creator sees none of it: neither the list nor the expert's time off.
    expect((await api.call("GET", `${V1}/experts/${expert.id}/time-off/affected-bookings`, { user: creator })).statusCode).toBe(403);
    const seenByCreator = (await api.call("GET", `${V1}/experts/${expert.id}/schedule`, { user: creator })).json();
    expect(Object.keys(seenByCreator).sort()).toEqual(["booked", "slots", "timezone"]);
  });

  it("hides its days from the times the expert may propose", async () => {
    const { expert, sessionId } = await londonExpert();
    const bookingId: string = (await book(sessionId, "2026-03-09T10:00:00.000Z", creator)).json<{ booking: { id: string } }>().booking.id;
    await must(expert, "POST", `${V1}/experts/${expert.id}/time-off`, { start_date: "2026-03-10", end_date: "2026-03-10" });
    const times = (await api.call("GET", `${V1}/bookings/${bookingId}/proposable-times?date=2026-03-10`, { user: expert })).json<{
      times: string[];
    }>().times;
    expect(times).toEqual([]);
    const proposed = await api.call("PATCH", `${V1}/bookings/${bookingId}/schedule`, {
      user: expert,
      body: { scheduled_time: "2026-03-10T11:00:00.000Z" },
    });
    expect([proposed.statusCode, proposed.json().code]).toEqual([409, "proposed_time_in_time_off"]);
  });
});

describe("extra hours on a date", () => {
  it("open times outside the weekly hours on that date only, until removed", async () => {
    const { expert, sessionId } = await londonExpert();
    const added = await must(expert, "POST", `${V1}/experts/${expert.id}/date-overrides`, {
      date: "2026-03-07",
      start_local: "17:00",
      end_local: "19:30",
    });
    expect(added).toEqual({ date_override: { id: expect.any(String), date: "2026-03-07", start_local: "17:00", end_local: "19:30" } });
    expect(await offeredOn(sessionId, "2026-03-07")).toEqual([...allDay, "16:30", "17:00", "17:30", "18:00", "18:30"]);
    expect(await offeredOn(sessionId, "2026-03-08")).toEqual(allDay);
    expect((await book(sessionId, "2026-03-07T18:30:00.000Z")).statusCode).toBe(201);
    expect(
      (await api.call("DELETE", `${V1}/experts/${expert.id}/date-overrides/${added.date_override.id}`, { user: expert })).statusCode,
    ).toBe(204);
    expect(await offeredOn(sessionId, "2026-03-07")).toEqual(allDay);
  });
});

describe("buffers and minimum notice", () => {
  it("a buffer after each session pushes the next offered start, and a booking in it is refused", async () => {
    const { expert, sessionId } = await londonExpert();
    expect((await book(sessionId, "2026-03-05T10:00:00.000Z")).statusCode).toBe(201);
    expect(await offeredOn(sessionId, "2026-03-05")).toEqual([
      "09:00",
      "11:00",
      "11:30",
      "12:00",
      "12:30",
      "13:00",
      "13:30",
      "14:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
    ]);
    const rules = { buffer_before_minutes: 0, buffer_after_minutes: 30, min_notice_hours: 0 };
    expect(await must(expert, "PUT", `${V1}/experts/${expert.id}/booking-rules`, rules)).toEqual(rules);
    // 09:00 would end as 10:00's session begins, leaving no 30 minutes after it; 11:00 starts inside its buffer.
    expect(await offeredOn(sessionId, "2026-03-05")).toEqual([
      "11:30",
      "12:00",
      "12:30",
      "13:00",
      "13:30",
      "14:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
    ]);
    const inBuffer = await book(sessionId, "2026-03-05T11:00:00.000Z");
    expect([inBuffer.statusCode, inBuffer.json().code]).toEqual([409, "slot_unavailable"]);
  });

  it("bookings racing for times only their buffers make overlap: exactly one wins", async () => {
    const { expert, sessionId } = await londonExpert();
    await must(expert, "PUT", `${V1}/experts/${expert.id}/booking-rules`, {
      buffer_before_minutes: 15,
      buffer_after_minutes: 15,
      min_notice_hours: 0,
    });
    // One-hour sessions at 10:00 and 11:00 do not overlap, but 15 minutes after one and 15 before the next do.
    const racers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => book(sessionId, i % 2 ? "2026-03-12T11:00:00.000Z" : "2026-03-12T10:00:00.000Z")),
    );
    expect(racers.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(11).fill(409)]);
  });

  it("a minimum notice hides the next hours from availability and refuses a booking in them", async () => {
    const { expert, sessionId } = await londonExpert();
    expect(await offeredOn(sessionId, "2026-03-02")).toEqual(allDay);
    await must(expert, "PUT", `${V1}/experts/${expert.id}/booking-rules`, {
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      min_notice_hours: 27,
    });
    // Now plus 27 hours is Tuesday 11:00.
    expect(await offeredOn(sessionId, "2026-03-02")).toEqual([]);
    expect(await offeredOn(sessionId, "2026-03-03")).toEqual(allDay.slice(4));
    const tooSoon = await book(sessionId, "2026-03-03T10:30:00.000Z");
    expect([tooSoon.statusCode, tooSoon.json().code]).toEqual([409, "slot_unavailable"]);
    expect((await book(sessionId, "2026-03-03T11:00:00.000Z")).statusCode).toBe(201);
  });
});

describe("the expert's schedule shows them; refusals", () => {
  it("GET schedule carries time off and extra hours not yet over, and the rules, for the expert and admins", async () => {
    const { expert } = await londonExpert();
    await must(expert, "POST", `${V1}/experts/${expert.id}/time-off`, {
      id: "spring",
      start_date: "2026-03-20",
      end_date: "2026-03-27",
      reason: "Spring break",
    });
    await must(expert, "POST", `${V1}/experts/${expert.id}/date-overrides`, {
      id: "sat",
      date: "2026-03-14",
      start_local: "10:00",
      end_local: "12:00",
    });
    await must(expert, "PUT", `${V1}/experts/${expert.id}/booking-rules`, {
      buffer_before_minutes: 10,
      buffer_after_minutes: 15,
      min_notice_hours: 12,
    });
    for (const viewer of [expert, admin]) {
      const schedule = (await api.call("GET", `${V1}/experts/${expert.id}/schedule`, { user: viewer })).json();
      expect(schedule).toMatchObject({
        timezone: ZONE,
        time_off: [{ id: "spring", start: "2026-03-20T00:00", end: "2026-03-28T00:00", reason: "Spring break", whole_days: true }],
        date_overrides: [{ id: "sat", date: "2026-03-14", start_local: "10:00", end_local: "12:00" }],
        booking_rules: { buffer_before_minutes: 10, buffer_after_minutes: 15, min_notice_hours: 12 },
      });
    }
  });

  it.each([
    [
      "a buffer not offered",
      "PUT",
      "booking-rules",
      { buffer_before_minutes: 20, buffer_after_minutes: 0, min_notice_hours: 0 },
      400,
      "booking_buffer_invalid",
    ],
    [
      "a notice over a week",
      "PUT",
      "booking-rules",
      { buffer_before_minutes: 0, buffer_after_minutes: 0, min_notice_hours: 169 },
      400,
      "booking_notice_invalid",
    ],
    [
      "time off ending before it starts",
      "POST",
      "time-off",
      { start: "2026-03-04T12:00", end: "2026-03-04T11:00" },
      400,
      "time_off_range_invalid",
    ],
    [
      "time off off the half hour",
      "POST",
      "time-off",
      { start: "2026-03-04T12:15", end: "2026-03-04T13:00" },
      400,
      "time_off_range_invalid",
    ],
    [
      "time off given both ways",
      "POST",
      "time-off",
      { start: "2026-03-04T12:00", end: "2026-03-04T13:00", start_date: "2026-03-04", end_date: "2026-03-04" },
      400,
      "time_off_range_invalid",
    ],
    [
      "time off longer than a year",
      "POST",
      "time-off",
      { start_date: "2026-03-04", end_date: "2027-03-05" },
      400,
      "time_off_range_invalid",
    ],
    [
      "a label over 200 characters",
      "POST",
      "time-off",
      { start_date: "2026-03-04", end_date: "2026-03-04", reason: "x".repeat(201) },
      400,
      "time_off_reason_too_long",
    ],
    [
      "extra hours on no real date",
      "POST",
      "date-overrides",
      { date: "2026-02-30", start_local: "18:00", end_local: "19:00" },
      400,
      "date_override_invalid",
    ],
    [
      "extra hours ending as they start",
      "POST",
      "date-overrides",
      { date: "2026-03-04", start_local: "18:00", end_local: "18:00" },
      400,
      "date_override_invalid",
    ],
  ] as const)("refuses %s", async (_why, method, path, body, status, code) => {
    const { expert } = await londonExpert();
    const r = await api.call(method, `${V1}/experts/${expert.id}/${path}`, { user: expert, body });
    expect([r.statusCode, r.json().code]).toEqual([status, code]);
  });

  it("refuses before a schedule, another expert, a creator, and an unknown id", async () => {
    const fresh = await api.user("expert");
    await must(fresh, "PATCH", `${V1}/experts/me`, { first_name: "New", last_name: "Comer", title: "Coach" });
    const early = await api.call("POST", `${V1}/experts/${fresh.id}/time-off`, {
      user: fresh,
      body: { start_date: "2026-03-04", end_date: "2026-03-04" },
    });
    expect([early.statusCode, early.json().code]).toEqual([409, "schedule_first"]);
    const { expert } = await londonExpert();
    for (const who of [fresh, creator]) {
      const r = await api.call("PUT", `${V1}/experts/${expert.id}/booking-rules`, {
        user: who,
        body: { buffer_before_minutes: 0, buffer_after_minutes: 0, min_notice_hours: 0 },
      });
      expect(r.statusCode).toBe(403);
    }
    const unknown = await api.call("DELETE", `${V1}/experts/${expert.id}/time-off/nope`, { user: expert });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, "time_off_not_found"]);
    const unknownExtra = await api.call("DELETE", `${V1}/experts/${expert.id}/date-overrides/nope`, { user: expert });
    expect([unknownExtra.statusCode, unknownExtra.json().code]).toEqual([404, "date_override_not_found"]);
  });
});
