import { describe, expect, it } from "vitest";
import { EarningsRecord, type DomainEvent } from "@booking/contracts";
import { earningsBookingReply, earningsProjection, expertEarnings, type EarningsRow } from "../src/index.ts";
import { readModelSpec, type GivenEvent } from "./read-model-spec.ts";

// The earnings read model's rule without a database: given these events, then these rows (one
// per booking, in the month of its session), and what the expert's earnings calls make of them.

const spec = readModelSpec(earningsProjection);
const on = (expert: string, ...events: DomainEvent[]): GivenEvent[] => events.map((event) => ({ stream: `calendar-${expert}`, event }));

const requested = (bookingId: string, scheduledTime: string): DomainEvent => ({
  type: "BookingRequested",
  data: {
    bookingId,
    expertId: "e1",
    expertUserId: "e1",
    creatorId: "c1",
    sessionId: "s1",
    sessionTitle: "Pricing review",
    lengthMinutes: 60,
    priceCents: 15_000,
    prepQuestions: ["Goal?"],
    scheduledTime,
    heldUntil: "2030-01-06T09:15:00.000Z",
  },
});
const paid = (bookingId: string, amountCents = 15_000): DomainEvent => ({
  type: "PaymentSucceeded",
  data: { bookingId, paymentId: `p-${bookingId}`, amountCents, provider: "test" },
});
const confirmed = (bookingId: string): DomainEvent => ({ type: "Confirmed", data: { bookingId, by: "expert" } });
const cancelled = (bookingId: string, refundCents: number): DomainEvent => ({
  type: "Cancelled",
  data: { bookingId, by: "creator", reason: "Moved", refundCents },
});
const MARCH = "2030-03-10T10:00:00.000Z";

describe("earnings read model: given events, then rows", () => {
  it("an accepted, paid booking earns its price in the month of its session, in a row of the contracts' shape", () => {
    const given = spec.given(
      ...on("e1", requested("b1", MARCH), paid("b1"), confirmed("b1"), { type: "Completed", data: { bookingId: "b1" } }),
    );
    given.then([
      {
        booking_id: "b1",
        expert_id: "e1",
        month: "2030-03",
        status: "completed",
        accepted: true,
        earning: true,
        payments_count: 1,
        paid_cents: 15_000,
        refunded_cents: 0,
        stream_version: 4,
      },
    ]);
    for (const row of given.rows()) expect(EarningsRecord.parse(row)).toEqual(row);
  });

  it("a paid request the expert has not accepted earns nothing yet; an unpaid confirmed one neither", () => {
    spec.given(...on("e1", requested("b1", MARCH), paid("b1"), requested("b2", MARCH), confirmed("b2"))).then([
      { booking_id: "b1", paid_cents: 15_000, accepted: false, earning: false },
      { booking_id: "b2", paid_cents: 0, accepted: true, earning: false },
    ]);
  });

  it("refunds count when owed (a refunding cancellation, a refund due), and issuing one does not count it again", () => {
    spec
      .given(
        ...on("e1", requested("b1", MARCH), paid("b1"), confirmed("b1"), cancelled("b1", 15_000)),
        ...on("e1", requested("b2", MARCH), paid("b2"), confirmed("b2"), {
          type: "RefundDue",
          data: { bookingId: "b2", paymentId: "p-b2", amountCents: 5_000, reason: "Goodwill" },
        }),
        ...on("e1", {
          type: "RefundIssued",
          data: { bookingId: "b2", refundKey: "ev-11", refundId: "re_1", amountCents: 5_000, provider: "test" },
        }),
      )
      .then([
        { booking_id: "b1", status: "cancelled", paid_cents: 15_000, refunded_cents: 15_000, refund_issued_cents: 0, earning: true },
        { booking_id: "b2", status: "confirmed", paid_cents: 15_000, refunded_cents: 5_000, refund_issued_cents: 5_000, earning: true },
      ]);
  });

  it("a late cancellation of a request never accepted earns what the creator is not refunded; a full refund earns nothing", () => {
    spec
      .given(
        ...on("e1", requested("b1", MARCH), paid("b1"), cancelled("b1", 0), requested("b2", MARCH), paid("b2"), cancelled("b2", 15_000)),
      )
      .then([
        { booking_id: "b1", earning: true },
        { booking_id: "b2", earning: false },
      ]);
  });

  it("a new time moves the booking to that session's month", () => {
    spec
      .given(
        ...on("e1", requested("b1", MARCH), {
          type: "TimeProposed",
          data: { bookingId: "b1", scheduledTime: "2030-04-01T09:00:00.000Z", previousTime: MARCH },
        }),
      )
      .then([{ booking_id: "b1", month: "2030-04", scheduled_time: "2030-04-01T09:00:00.000Z", status: "time_proposed" }]);
  });

  it("an accepted move counts the booking in its new month, confirmed as before", () => {
    const move = { bookingId: "b1", from: MARCH, to: "2030-04-02T09:00:00.000Z", by: "creator" as const };
    spec
      .given(
        ...on(
          "e1",
          requested("b1", MARCH),
          paid("b1"),
          confirmed("b1"),
          { type: "RescheduleRequested", data: move },
          { type: "RescheduleAccepted", data: move },
        ),
      )
      .then([{ booking_id: "b1", scheduled_time: "2030-04-02T09:00:00.000Z", month: "2030-04", status: "confirmed", earning: true }]);
  });

  it("events that move nothing and bookings never requested make no row", () => {
    spec.given(...on("e1", paid("b9"), { type: "ScheduleSet", data: { expertId: "e1", timezone: "UTC", slots: [] } })).then([]);
  });
});

describe("an expert's earnings from the rows", () => {
  const row = (booking_id: string, month: string, more: Partial<EarningsRow> = {}): EarningsRow => ({
    booking_id,
    expert_id: "e1",
    session_title: "Pricing review",
    scheduled_time: `${month}-10T10:00:00.000Z`,
    month,
    status: "completed",
    accepted: true,
    earning: true,
    payments_count: 1,
    paid_cents: 15_000,
    refunded_cents: 0,
    refund_issued_cents: 0,
    currency: "USD",
    fee_basis_points: 0,
    fee_cents: 0,
    share_cents: 15_000 - (more.refunded_cents ?? 0),
    stream_version: 1,
    ...more,
  });

  const usd = { currency: "USD", fee_cents: 0 } as const;

  it("months newest first with sessions, gross, refunds and net; a cancelled booking is money but not a session", () => {
    const rows = [
      row("b1", "2030-03"),
      row("b2", "2030-03", { status: "cancelled", refunded_cents: 15_000 }),
      row("b3", "2030-04", { refunded_cents: 5_000 }),
    ];
    expect(expertEarnings("e1", rows)).toEqual({
      expert_id: "e1",
      months: [
        { month: "2030-04", ...usd, sessions: 1, gross_cents: 15_000, refunds_cents: 5_000, net_cents: 10_000, share_cents: 10_000 },
        { month: "2030-03", ...usd, sessions: 1, gross_cents: 30_000, refunds_cents: 15_000, net_cents: 15_000, share_cents: 15_000 },
      ],
      totals: { ...usd, sessions: 2, gross_cents: 45_000, refunds_cents: 20_000, net_cents: 25_000, share_cents: 25_000 },
      totals_by_currency: [{ ...usd, sessions: 2, gross_cents: 45_000, refunds_cents: 20_000, net_cents: 25_000, share_cents: 25_000 }],
    });
  });

  it("a booking's refund is pending until issued in full", () => {
    expect(earningsBookingReply(row("b1", "2030-03")).refund_state).toBe("none");
    expect(earningsBookingReply(row("b1", "2030-03", { refunded_cents: 5_000 })).refund_state).toBe("pending");
    expect(earningsBookingReply(row("b1", "2030-03", { refunded_cents: 5_000, refund_issued_cents: 5_000 }))).toMatchObject({
      refund_state: "refunded",
      net_cents: 10_000,
    });
  });
});
