import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BookingReply, CancellationReply, SessionReply } from "@booking/contracts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Cut-offs per session (issue 31.4) through the routes: the expert chooses them on the session within the bounds, the
// session shows them before anyone pays, a booking keeps the ones it was made under when the session changes later,
// and its cancellation preview reads the booking's own.

const V1 = "/api/v1";
const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));
let api: TestApi;
let expert: TestUser;
let creator: TestUser;

const sessionBody = { title: "Launch plan", price: 120, length_minutes: 60, prep_question_1: "Your launch date?", status: "published" };
const inDays = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T10:00:00.000Z`;

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert");
  creator = await api.user("creator");
  const profile = { first_name: "Cato", last_name: "Reyes", title: "Launch coach", published: true };
  expect((await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: profile })).statusCode).toBe(200);
  await api.approve(expert);
  await api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: expert, body: { timezone: "UTC", slots: everyDay } });
});
afterAll(async () => api?.close());

describe("a session's cut-offs", () => {
  it("default to 24 hours each, are chosen within the bounds, and are refused outside them with the catalogue message", async () => {
    const plain = await api.call("POST", `${V1}/sessions`, { user: expert, body: sessionBody });
    expect(plain.json<{ session: SessionReply }>().session).toMatchObject({ full_refund_hours: 24, reschedule_hours: 24 });
    for (const bad of [{ full_refund_hours: 36 }, { reschedule_hours: 72 }, { full_refund_hours: "48" }]) {
      const r = await api.call("POST", `${V1}/sessions`, { user: expert, body: { ...sessionBody, ...bad } });
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json()).toEqual({
        code: "session_cut_off_invalid",
        message: "Please choose a full refund until 24, 48 or 72 hours before the start, and moves until 12, 24 or 48 hours before it.",
      });
    }
  });

  it("show before paying, stay with a booking when the session changes later, and the cancellation preview reads the booking's", async () => {
    const made = await api.call("POST", `${V1}/sessions`, {
      user: expert,
      body: { ...sessionBody, full_refund_hours: 48, reschedule_hours: 12 },
    });
    const session = made.json<{ session: SessionReply }>().session;
    expect((await api.call("GET", `${V1}/sessions/${session.id}`)).json<SessionReply>()).toMatchObject({
      full_refund_hours: 48,
      reschedule_hours: 12,
    });
    const start = inDays(5);
    const booked = await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: session.id, scheduled_time: start } });
    expect(booked.statusCode, booked.body).toBe(201);
    const bookingId = booked.json<{ booking: { id: string } }>().booking.id;

    // The expert changes the session's terms; an update that leaves them out keeps them.
    const changed = await api.call("PUT", `${V1}/sessions/${session.id}`, {
      user: expert,
      body: { ...sessionBody, full_refund_hours: 72, reschedule_hours: 48 },
    });
    expect(changed.json<{ session: SessionReply }>().session).toMatchObject({ full_refund_hours: 72, reschedule_hours: 48 });
    const untouched = await api.call("PUT", `${V1}/sessions/${session.id}`, {
      user: expert,
      body: { ...sessionBody, title: "Launch plan 2" },
    });
    expect(untouched.json<{ session: SessionReply }>().session).toMatchObject({ full_refund_hours: 72, reschedule_hours: 48 });

    const booking = (await api.call("GET", `${V1}/bookings/${bookingId}`, { user: creator })).json<BookingReply>();
    expect(booking).toMatchObject({ full_refund_hours: 48, reschedule_hours: 12 });
    const preview = (await api.call("GET", `${V1}/bookings/${bookingId}/cancellation`, { user: creator })).json<CancellationReply>();
    expect(preview.full_refund_until).toBe(new Date(Date.parse(start) - 48 * 3_600_000).toISOString());
  });
});
