import { describe, expect, it } from "vitest";
import { EarningsRecord, type Currency, type DomainEvent } from "@booking/contracts";
import {
  earningsBookingReply,
  earningsProjection,
  expertEarnings,
  monthEarnings,
  monthEarningsByCurrency,
  type EarningsRow,
} from "../src/index.ts";
import { readModelSpec, type GivenEvent } from "./read-model-spec.ts";

// Issue 29.1: each earning shows its currency, the fee rate it was paid under, the fee and the
// expert's share; months and totals add them up per currency, never across currencies.

const spec = readModelSpec(earningsProjection);
const on = (...events: DomainEvent[]): GivenEvent[] => events.map((event) => ({ stream: "calendar-e1", event }));
const MARCH = "2030-03-10T10:00:00.000Z";

const requested = (bookingId: string, currency?: Currency): DomainEvent => ({
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
    prepQuestions: [],
    scheduledTime: MARCH,
    heldUntil: "2030-01-06T09:15:00.000Z",
    ...(currency ? { currency } : {}),
  },
});
const paid = (bookingId: string, more: { currency?: Currency; feeBasisPoints?: number } = {}): DomainEvent => ({
  type: "PaymentSucceeded",
  data: { bookingId, paymentId: `p-${bookingId}`, amountCents: 15_000, provider: "test", ...more },
});
const confirmed = (bookingId: string): DomainEvent => ({ type: "Confirmed", data: { bookingId, by: "expert" } });
const refundDue = (bookingId: string, amountCents: number): DomainEvent => ({
  type: "RefundDue",
  data: { bookingId, paymentId: `p-${bookingId}`, amountCents, reason: "Goodwill" },
});

describe("earnings read model: the fee on each earning", () => {
  it("a booking paid under a 15 % fee: $22.50 to the platform, $127.50 to the expert, in a row of the contracts' shape", () => {
    const given = spec.given(...on(requested("b1", "USD"), paid("b1", { currency: "USD", feeBasisPoints: 1500 }), confirmed("b1")));
    given.then([{ booking_id: "b1", currency: "USD", fee_basis_points: 1500, fee_cents: 2250, share_cents: 12_750 }]);
    for (const row of given.rows()) expect(EarningsRecord.parse(row)).toEqual(row);
  });

  it("a booking in euros is in euros from its request on, and its payment's currency is the one kept", () => {
    spec.given(...on(requested("b1", "EUR"))).then([{ booking_id: "b1", currency: "EUR" }]);
    spec
      .given(...on(requested("b1", "EUR"), paid("b1", { currency: "EUR", feeBasisPoints: 1500 })))
      .then([{ booking_id: "b1", currency: "EUR", fee_cents: 2250 }]);
    spec.given(...on(requested("b1"), paid("b1", { currency: "GBP" }))).then([{ booking_id: "b1", currency: "GBP" }]);
  });

  it("a booking paid before fees were recorded (no rate, no currency): US dollars, no fee, all of it the expert's", () => {
    spec
      .given(...on(requested("b1"), paid("b1"), confirmed("b1")))
      .then([{ booking_id: "b1", currency: "USD", fee_basis_points: 0, fee_cents: 0, share_cents: 15_000 }]);
  });

  it("the fee is on what was kept: a partial refund lowers fee and share, a full one leaves nothing", () => {
    const fee = { feeBasisPoints: 1500 };
    spec
      .given(
        ...on(requested("b1"), paid("b1", fee), confirmed("b1"), refundDue("b1", 5_000)),
        ...on(requested("b2"), paid("b2", fee), confirmed("b2"), {
          type: "Cancelled",
          data: { bookingId: "b2", by: "expert", reason: "Ill", refundCents: 15_000 },
        }),
      )
      .then([
        { booking_id: "b1", refunded_cents: 5_000, fee_cents: 1500, share_cents: 8500 },
        { booking_id: "b2", refunded_cents: 15_000, fee_cents: 0, share_cents: 0 },
      ]);
  });
});

describe("an expert's fee and share by month, per currency", () => {
  const row = (booking_id: string, month: string, currency: Currency, more: Partial<EarningsRow> = {}): EarningsRow => ({
    booking_id,
    expert_id: "e1",
    session_title: "Pricing review",
    scheduled_time: `${month}-${booking_id === "b1" ? "10" : "20"}T10:00:00.000Z`,
    month,
    status: "completed",
    accepted: true,
    earning: true,
    payments_count: 1,
    paid_cents: 15_000,
    refunded_cents: 0,
    refund_issued_cents: 0,
    currency,
    fee_basis_points: 1500,
    fee_cents: 2250,
    share_cents: 12_750,
    stream_version: 1,
    ...more,
  });
  const one = { sessions: 1, gross_cents: 15_000, refunds_cents: 0, net_cents: 15_000, fee_cents: 2250, share_cents: 12_750 };

  it("each booking shows its currency, rate, fee and share", () => {
    expect(earningsBookingReply(row("b1", "2030-03", "GBP"))).toMatchObject({
      currency: "GBP",
      gross_cents: 15_000,
      net_cents: 15_000,
      fee_basis_points: 1500,
      fee_cents: 2250,
      share_cents: 12_750,
    });
  });

  it("one month per currency; totals per currency; the headline totals in the currency of the latest session", () => {
    const rows = [row("b1", "2030-03", "USD"), row("b2", "2030-03", "EUR"), row("b3", "2030-04", "EUR")];
    expect(expertEarnings("e1", rows)).toEqual({
      expert_id: "e1",
      months: [
        { month: "2030-04", currency: "EUR", ...one },
        { month: "2030-03", currency: "USD", ...one },
        { month: "2030-03", currency: "EUR", ...one },
      ],
      totals: {
        currency: "EUR",
        sessions: 2,
        gross_cents: 30_000,
        refunds_cents: 0,
        net_cents: 30_000,
        fee_cents: 4500,
        share_cents: 25_500,
      },
      totals_by_currency: [
        { currency: "USD", ...one },
        { currency: "EUR", sessions: 2, gross_cents: 30_000, refunds_cents: 0, net_cents: 30_000, fee_cents: 4500, share_cents: 25_500 },
      ],
    });
  });

  it("a month's totals never add dollars to euros", () => {
    const march = [row("b1", "2030-03", "USD"), row("b2", "2030-03", "EUR")];
    expect(monthEarnings("2030-03", march)).toEqual({ month: "2030-03", currency: "EUR", ...one });
    expect(monthEarningsByCurrency("2030-03", march)).toEqual([
      { month: "2030-03", currency: "USD", ...one },
      { month: "2030-03", currency: "EUR", ...one },
    ]);
  });

  it("without earnings: US dollars and zeros", () => {
    expect(expertEarnings("e1", [])).toEqual({
      expert_id: "e1",
      months: [],
      totals: { currency: "USD", sessions: 0, gross_cents: 0, refunds_cents: 0, net_cents: 0, fee_cents: 0, share_cents: 0 },
      totals_by_currency: [],
    });
  });
});
