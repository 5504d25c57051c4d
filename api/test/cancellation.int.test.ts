import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarStream } from "@booking/engine";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// GET /bookings/{id}/cancellation: what cancelling now would refund the one asking, as the
// calendar's cancellation policy decides it, on a clock moved around the 24-hour notice.

const V1 = "/api/v1";
const NOW = "2026-03-02T08:00:00.000Z";
const START = "2026-03-05T10:00:00.000Z";
const FULL_REFUND_UNTIL = "2026-03-04T10:00:00.000Z";
const DAY_AND_A_MINUTE_BEFORE = "2026-03-04T09:59:00.000Z";
const DAY_LESS_A_MINUTE_BEFORE = "2026-03-04T10:01:00.000Z";
const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));

let now = NOW;
let api: TestApi;
let creator: TestUser;
let expert: TestUser;
let outsider: TestUser;
let admin: TestUser;
let booking: string;

async function must(user: TestUser, method: "POST" | "PATCH", url: string, body: unknown) {
  const r = await api.call(method, url, { user, body });
  if (r.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${r.statusCode} ${r.body}`);
  return r.json();
}
const ask = (user: TestUser, bookingId = booking) => api.call("GET", `${V1}/bookings/${bookingId}/cancellation`, { user });

beforeAll(async () => {
  api = await startTestApi({ clock: () => now });
  [creator, expert, outsider, admin] = [
    await api.user("creator"),
    await api.user("expert"),
    await api.user("creator"),
    await api.user("admin"),
  ];
  await must(expert, "PATCH", `${V1}/experts/me`, { first_name: "Maya", last_name: "Lind", title: "Advisor", published: true });
  await api.approve(expert);
  await must(expert, "POST", `${V1}/experts/${expert.id}/schedule`, { timezone: "UTC", slots: everyDay });
  const sessionId: string = (
    await must(expert, "POST", `${V1}/sessions`, {
      title: "Deck review",
      price: 150,
      length_minutes: 60,
      prep_question_1: "Goal?",
      status: "published",
    })
  ).session.id;
  booking = (await must(creator, "POST", `${V1}/bookings`, { session_id: sessionId, scheduled_time: START })).booking.id;
  const payments = { userId: "payments", role: "system" } as const;
  const paid = await api.ctx.calendar.handle(
    calendarStream(expert.id),
    {
      type: "RecordPayment",
      expertId: expert.id,
      bookingId: booking,
      actor: payments,
      paymentId: "pi_policy",
      amountCents: 15_000,
      provider: "test",
    },
    { actor: payments },
  );
  if (!paid.ok) throw new Error(JSON.stringify(paid.refusal));
  await must(expert, "PATCH", `${V1}/bookings/${booking}/status`, { status: "confirmed" });
});
afterAll(async () => api?.close());

describe("what cancelling a confirmed booking would refund", () => {
  it("the creator, 24 hours and a minute before the start: everything paid", async () => {
    now = DAY_AND_A_MINUTE_BEFORE;
    const r = await ask(creator);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ refund_cents: 15_000, paid_cents: 15_000, full_refund_until: FULL_REFUND_UNTIL });
  });

  it("the creator, a minute later than 24 hours before: nothing", async () => {
    now = DAY_LESS_A_MINUTE_BEFORE;
    expect((await ask(creator)).json()).toEqual({ refund_cents: 0, paid_cents: 15_000, full_refund_until: FULL_REFUND_UNTIL });
  });

  it("the expert or an admin, however late: everything paid", async () => {
    now = DAY_LESS_A_MINUTE_BEFORE;
    expect((await ask(expert)).json()).toMatchObject({ refund_cents: 15_000 });
    expect((await ask(admin)).json()).toMatchObject({ refund_cents: 15_000 });
  });

  it("is not told to anyone outside the booking", async () => {
    const r = await ask(outsider);
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ code: "booking_not_found", message: "No booking found" });
  });

  it("is what the cancellation then records, and a cancelled booking has nothing more to tell", async () => {
    now = DAY_LESS_A_MINUTE_BEFORE;
    expect((await ask(creator)).json()).toMatchObject({ refund_cents: 0 });
    await must(creator, "PATCH", `${V1}/bookings/${booking}/status`, { status: "cancelled" });
    const { events } = await api.ctx.store.readStream(calendarStream(expert.id));
    expect(events.find((e) => e.type === "Cancelled")?.data).toMatchObject({ bookingId: booking, by: "creator", refundCents: 0 });
    const after = await ask(creator);
    expect(after.statusCode).toBe(409);
    expect(after.json()).toMatchObject({ code: "booking_transition_refused" });
  });
});
