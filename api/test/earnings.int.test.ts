import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExpertEarningsReply, ExpertMonthEarningsReply } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// The expert's earnings calls: months with sessions, gross, refunds owed, net, the platform's fee
// and the expert's share (issue 29.1), a month's bookings; each expert sees only their own, an
// admin anyone's, a creator nobody's. Every payment here is in US dollars under the 15 % fee.

const V1 = "/api/v1";
let api: TestApi;
let ines: ExpertCalendar;
let sam: ExpertCalendar;
let creator: TestUser;
let admin: TestUser;

beforeAll(async () => {
  const now = "2030-01-28T08:00:00.000Z";
  api = await startTestApi({ clock: () => now });
  creator = await api.user("creator");
  admin = await api.user("admin");
  ines = await expertCalendar(api, await api.user("expert"));
  sam = await expertCalendar(api, await api.user("expert"));
  await ines.confirmedBooking(creator, "2030-01-29T10:00:00.000Z", 15_000, "Pricing review");
  const refunded = await ines.confirmedBooking(creator, "2030-01-30T10:00:00.000Z", 9_000, "Launch plan");
  await ines.confirmedBooking(creator, "2030-02-05T10:00:00.000Z", 12_000, "Brand deals");
  // Paid, not yet accepted: the money is held, not earned.
  await ines.paidRequest(creator, "2030-01-31T10:00:00.000Z", 7_000, "Quick check");
  // The expert cancels: the creator is owed all of it back.
  await ines.run({
    type: "CancelBooking",
    expertId: ines.expert.id,
    bookingId: refunded,
    actor: { userId: ines.expert.id, role: "expert" },
    reason: "Ill",
  });
  await sam.confirmedBooking(creator, "2030-01-29T12:00:00.000Z", 50_000, "Sam's session");
});
afterAll(async () => api.close());

describe("GET /experts/me/earnings", () => {
  it("gives the expert's months with sessions, gross, refunds and net after a refund, newest first", async () => {
    const r = await api.call("GET", `${V1}/experts/me/earnings`, { user: ines.expert });
    expect(r.statusCode, r.body).toBe(200);
    const totals = {
      currency: "USD",
      sessions: 2,
      gross_cents: 36_000,
      refunds_cents: 9_000,
      net_cents: 27_000,
      fee_cents: 4050,
      share_cents: 22_950,
    };
    expect(ExpertEarningsReply.parse(r.json())).toEqual({
      expert_id: ines.expert.id,
      months: [
        {
          month: "2030-02",
          currency: "USD",
          sessions: 1,
          gross_cents: 12_000,
          refunds_cents: 0,
          net_cents: 12_000,
          fee_cents: 1800,
          share_cents: 10_200,
        },
        {
          month: "2030-01",
          currency: "USD",
          sessions: 1,
          gross_cents: 24_000,
          refunds_cents: 9_000,
          net_cents: 15_000,
          fee_cents: 2250,
          share_cents: 12_750,
        },
      ],
      totals,
      totals_by_currency: [totals],
    });
  });

  it("lists a month's bookings, the refunded one with its refund still pending", async () => {
    const r = await api.call("GET", `${V1}/experts/me/earnings/2030-01`, { user: ines.expert });
    expect(r.statusCode, r.body).toBe(200);
    const month = ExpertMonthEarningsReply.parse(r.json());
    expect(month).toMatchObject({
      month: "2030-01",
      currency: "USD",
      sessions: 1,
      net_cents: 15_000,
      fee_cents: 2250,
      share_cents: 12_750,
    });
    expect(month.by_currency).toEqual([
      {
        month: "2030-01",
        currency: "USD",
        sessions: 1,
        gross_cents: 24_000,
        refunds_cents: 9_000,
        net_cents: 15_000,
        fee_cents: 2250,
        share_cents: 12_750,
      },
    ]);
    expect(month.bookings.map((b) => [b.session_title, b.status, b.net_cents, b.refund_state])).toEqual([
      ["Pricing review", "confirmed", 15_000, "none"],
      ["Launch plan", "cancelled", 0, "pending"],
    ]);
    // Each earning shows the fee rate it was paid under, the fee and what the expert receives.
    expect(month.bookings.map((b) => [b.currency, b.fee_basis_points, b.fee_cents, b.share_cents])).toEqual([
      ["USD", 1500, 2250, 12_750],
      ["USD", 1500, 0, 0],
    ]);
    expect((await api.call("GET", `${V1}/experts/me/earnings/2030-13`, { user: ines.expert })).statusCode).toBe(400);
  });

  it("shows the refund as refunded once the provider has paid it back, and the net unchanged", async () => {
    const launch = async () =>
      ExpertMonthEarningsReply.parse((await api.call("GET", `${V1}/experts/me/earnings/2030-01`, { user: ines.expert })).json());
    const { booking_id: bookingId } = (await launch()).bookings.find((b) => b.session_title === "Launch plan")!;
    const owing = (await api.ctx.store.readStream(calendarStream(ines.expert.id))).events.find(
      (e) => e.type === "Cancelled" && (e.data as { bookingId: string }).bookingId === bookingId,
    )!;
    const system = { userId: "refunds", role: "system" } as const;
    await ines.run({
      type: "RecordRefund",
      expertId: ines.expert.id,
      bookingId,
      actor: system,
      refundKey: owing.eventId,
      refundId: "re_1",
      amountCents: 9_000,
      provider: "test",
    });
    const after = await launch();
    expect(after.bookings.find((b) => b.booking_id === bookingId)).toMatchObject({
      refunds_cents: 9_000,
      net_cents: 0,
      refund_state: "refunded",
    });
    expect(after.net_cents).toBe(15_000);
  });

  it("shows an expert only their own: another expert's are refused, and an admin sees anyone's", async () => {
    const own = (await api.call("GET", `${V1}/experts/me/earnings`, { user: sam.expert })).json();
    expect(own.totals).toEqual({
      currency: "USD",
      sessions: 1,
      gross_cents: 50_000,
      refunds_cents: 0,
      net_cents: 50_000,
      fee_cents: 7500,
      share_cents: 42_500,
    });
    for (const path of [`/experts/${ines.expert.id}/earnings`, `/experts/${ines.expert.id}/earnings/2030-01`]) {
      const theirs = await api.call("GET", `${V1}${path}`, { user: sam.expert });
      expect(theirs.statusCode).toBe(403);
      expect(theirs.json()).toEqual({ code: "forbidden", message: "You do not have access to this." });
    }
    const byAdmin = await api.call("GET", `${V1}/experts/${ines.expert.id}/earnings`, { user: admin });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().totals.net_cents).toBe(27_000);
  });

  it("refuses a creator with the catalogue's message, and anyone signed out", async () => {
    for (const path of ["/experts/me/earnings", `/experts/${ines.expert.id}/earnings`]) {
      const r = await api.call("GET", `${V1}${path}`, { user: creator });
      expect(r.statusCode).toBe(403);
      expect(r.json()).toEqual({ code: "forbidden", message: "You do not have access to this." });
    }
    expect((await api.call("GET", `${V1}/experts/me/earnings`)).statusCode).toBe(401);
  });
});
