import { describe, expect, it } from "vitest";
import { CalendarCommand, parseInput, type Actor, type CalendarEvent } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import {
  ADMIN,
  BOOKING,
  CREATOR,
  EXPERT,
  EXPERT_ID,
  NOW,
  OTHER_CREATOR,
  PRICE,
  SYSTEM,
  T1,
  bookingIn,
  commands,
  paid,
  requested,
} from "./calendar-fixtures.ts";

// The cancellation policy (issue 15) as the calendar decides it, and the refunds that follow:
// an admin's refund, the provider's answers, and completion by the system.

const spec = deciderSpec(calendarDecider, NOW);
// T1 is 2026-03-03 10:00 UTC; the full-refund notice ends 24 hours earlier, 2026-03-02 10:00 UTC.
const DAY_AND_A_MINUTE_BEFORE = "2026-03-02T09:59:00.000Z";
const EXACTLY_A_DAY_BEFORE = "2026-03-02T10:00:00.000Z";
const DAY_LESS_A_MINUTE_BEFORE = "2026-03-02T10:01:00.000Z";
const HOUR_BEFORE = "2026-03-03T09:00:00.000Z";

const cancelled = (by: "creator" | "expert" | "admin" | "system", refundCents: number, reason = "Plans changed"): CalendarEvent => ({
  type: "Cancelled",
  data: { bookingId: BOOKING, by, reason, refundCents },
});
const on = { expertId: EXPERT_ID, bookingId: BOOKING };
const refund = (amountCents: number, reason = "Expert was late", actor: Actor = ADMIN) =>
  ({ type: "RefundBooking", ...on, actor, amountCents, reason }) as CalendarCommand;
const refundDue = (amountCents: number, reason = "Expert was late"): CalendarEvent => ({
  type: "RefundDue",
  data: { bookingId: BOOKING, paymentId: "pi_1", amountCents, reason },
});
const recordRefund = (refundKey = "ev-cancelled", actor: Actor = SYSTEM, amountCents = PRICE): CalendarCommand => ({
  type: "RecordRefund",
  ...on,
  actor,
  refundKey,
  refundId: `re_${refundKey}`,
  amountCents,
  provider: "test",
});
const refundIssued = (refundKey = "ev-cancelled", amountCents = PRICE): CalendarEvent => ({
  type: "RefundIssued",
  data: { bookingId: BOOKING, refundKey, refundId: `re_${refundKey}`, amountCents, provider: "test" },
});
const recordFailure = (refundKey = "ev-cancelled", actor: Actor = SYSTEM): CalendarCommand => ({
  type: "RecordRefundFailure",
  ...on,
  actor,
  refundKey,
  reason: "card_expired",
});

describe("cancellation policy: what a cancellation refunds", () => {
  it("the expert cancels a confirmed booking an hour before: everything paid", () => {
    spec(bookingIn("confirmed"))
      .when(commands.cancel(EXPERT), HOUR_BEFORE)
      .then([cancelled("expert", PRICE)]);
  });
  it("the creator cancels a confirmed booking 24 h + 1 min before the start: everything paid", () => {
    spec(bookingIn("confirmed"))
      .when(commands.cancel(CREATOR), DAY_AND_A_MINUTE_BEFORE)
      .then([cancelled("creator", PRICE)]);
  });
  it("the creator cancels exactly 24 h before the start: still everything paid", () => {
    spec(bookingIn("confirmed"))
      .when(commands.cancel(CREATOR), EXACTLY_A_DAY_BEFORE)
      .then([cancelled("creator", PRICE)]);
  });
  it("the creator cancels a confirmed booking 24 h - 1 min before the start: nothing", () => {
    spec(bookingIn("confirmed"))
      .when(commands.cancel(CREATOR), DAY_LESS_A_MINUTE_BEFORE)
      .then([cancelled("creator", 0)]);
  });
  it("the creator withdraws a request the expert never confirmed, an hour before: everything paid", () => {
    for (const status of ["pending", "more_info_requested", "time_proposed"] as const) {
      spec(bookingIn(status))
        .when(commands.cancel(CREATOR), HOUR_BEFORE)
        .then([cancelled("creator", PRICE)]);
    }
  });
  it("an admin cancels an hour before: everything paid", () => {
    spec(bookingIn("confirmed"))
      .when(commands.cancel(ADMIN), HOUR_BEFORE)
      .then([cancelled("admin", PRICE)]);
  });
  it("the system cancels a booking paid after its hold when its time was taken: everything paid", () => {
    const given = [...bookingIn("pending", false), requested("b9", T1, OTHER_CREATOR.userId), paid("b9", "pi_9")];
    spec(given)
      .when(commands.recordPayment("pi_late"), "2026-03-02T08:30:00.000Z")
      .then([
        {
          type: "PaymentSucceeded",
          data: { bookingId: BOOKING, paymentId: "pi_late", amountCents: PRICE, provider: "test", currency: "USD", feeBasisPoints: 1500 },
        },
        cancelled("system", PRICE, "payment_timeout"),
      ]);
  });
  it("an unpaid booking refunds nothing, whoever cancels", () => {
    spec(bookingIn("pending", false))
      .when(commands.cancel(EXPERT), HOUR_BEFORE)
      .then([cancelled("expert", 0)]);
  });
  it("after an admin's partial refund, the expert cancelling refunds the rest, not twice", () => {
    spec([...bookingIn("confirmed"), refundDue(5_000)])
      .when(commands.cancel(EXPERT), HOUR_BEFORE)
      .then([cancelled("expert", PRICE - 5_000)]);
  });
});

describe("an admin refunds a booking", () => {
  it("a partial refund of a confirmed booking is owed against its first payment, with the reason", () => {
    spec(bookingIn("confirmed"))
      .when(refund(5_000, "  Expert was late  "))
      .then([refundDue(5_000, "Expert was late")]);
  });
  it("a second partial refund may take the rest, and no more", () => {
    spec([...bookingIn("confirmed"), refundDue(5_000)])
      .when(refund(PRICE - 5_000))
      .then([refundDue(PRICE - 5_000)]);
    spec([...bookingIn("confirmed"), refundDue(5_000)])
      .when(refund(PRICE - 4_999))
      .thenRefused(
        "refund_amount_too_high",
        "You can refund at most $100.00 for this booking: what was paid, less what is already owed back.",
      );
  });
  it("refuses an amount above what was paid", () => {
    spec(bookingIn("confirmed"))
      .when(refund(PRICE + 1))
      .thenRefused(
        "refund_amount_too_high",
        "You can refund at most $150.00 for this booking: what was paid, less what is already owed back.",
      );
  });
  it("refuses any refund of a booking already refunded in full by its cancellation", () => {
    spec([...bookingIn("confirmed"), cancelled("expert", PRICE)])
      .when(refund(1))
      .thenRefused("refund_amount_too_high");
  });
  it("may refund a creator's late cancellation that refunded nothing", () => {
    spec([...bookingIn("confirmed"), cancelled("creator", 0)])
      .when(refund(PRICE, "Goodwill"))
      .then([refundDue(PRICE, "Goodwill")]);
  });
  it("refuses to refund an unpaid booking", () => {
    spec(bookingIn("pending", false))
      .when(refund(100))
      .thenRefused("refund_booking_unpaid", "This booking has not been paid, so there is nothing to refund.");
  });
  it.each([0, -100, 12.5])("refuses %s cents: a refund is a whole, positive number of cents", (amount) => {
    spec(bookingIn("confirmed"))
      .when(refund(amount))
      .thenRefused("refund_amount_invalid", "Please enter a refund amount of at least one cent, in whole cents.");
  });
  it.each(["", "   "])("refuses an empty reason (%j)", (reason) => {
    spec(bookingIn("confirmed"))
      .when(refund(100, reason))
      .thenRefused("refund_reason_required", "Please give a reason for the refund, in at most 500 characters.");
  });
  it.each([
    ["the creator", CREATOR],
    ["the expert", EXPERT],
    ["the system", SYSTEM],
  ] as const)("refuses %s: only an admin refunds", (_who, actor) => {
    spec(bookingIn("confirmed"))
      .when(refund(100, "Why not", actor))
      .thenRefused("forbidden");
  });
  it("the same bad inputs are refused at the boundary with the same codes", () => {
    const parse = (over: object) => parseInput(CalendarCommand, { ...refund(100), ...over });
    expect(parse({ amountCents: 12.5 })).toMatchObject({ ok: false, refusal: { code: "refund_amount_invalid" } });
    expect(parse({ amountCents: 0 })).toMatchObject({ ok: false, refusal: { code: "refund_amount_invalid" } });
    expect(parse({ reason: " " })).toMatchObject({ ok: false, refusal: { code: "refund_reason_required" } });
    expect(parse({ reason: "x".repeat(501) })).toMatchObject({ ok: false, refusal: { code: "refund_reason_required" } });
  });
});

describe("the payment provider's answers to a refund", () => {
  const given = [...bookingIn("confirmed"), cancelled("expert", PRICE)];
  it("a refund paid is recorded", () => {
    spec(given).when(recordRefund()).then([refundIssued()]);
  });
  it("is idempotent by refund key: the same answer redelivered records nothing", () => {
    spec([...given, refundIssued()])
      .when(recordRefund())
      .then([]);
  });
  it("a refund owed by another event is recorded beside it", () => {
    const partly = [
      ...bookingIn("confirmed"),
      refundDue(2_000),
      cancelled("expert", PRICE - 2_000),
      refundIssued("ev-cancelled", PRICE - 2_000),
    ];
    spec(partly)
      .when(recordRefund("ev-refund-due", SYSTEM, 2_000))
      .then([refundIssued("ev-refund-due", 2_000)]);
  });
  it("never records more back than was paid, less what was already refunded (issue 26.4)", () => {
    spec(given)
      .when(recordRefund("ev-cancelled", SYSTEM, PRICE + 1))
      .thenRefused("refund_amount_too_high");
    spec([...given, refundIssued("ev-cancelled", PRICE - 2_000)])
      .when(recordRefund("ev-other", SYSTEM, 2_001))
      .thenRefused("refund_amount_too_high");
    spec([...given, refundIssued("ev-cancelled", PRICE - 2_000)])
      .when(recordRefund("ev-other", SYSTEM, 2_000))
      .then([refundIssued("ev-other", 2_000)]);
  });
  it("a failure is recorded with its reason", () => {
    spec(given)
      .when(recordFailure())
      .then([{ type: "RefundFailed", data: { bookingId: BOOKING, refundKey: "ev-cancelled", reason: "card_expired" } }]);
  });
  it("a failure reported after the refund was issued changes nothing", () => {
    spec([...given, refundIssued()])
      .when(recordFailure())
      .then([]);
  });
  it.each([
    ["an admin", ADMIN],
    ["the expert", EXPERT],
    ["the creator", CREATOR],
  ] as const)("only the system records them, not %s", (_who, actor) => {
    spec(given).when(recordRefund("ev-cancelled", actor)).thenRefused("forbidden");
    spec(given).when(recordFailure("ev-cancelled", actor)).thenRefused("forbidden");
  });
  it("the calendar keeps what was paid, owed back and refunded", () => {
    const state = calendarDecider.evolve(calendarDecider.initialState(), [
      ...bookingIn("confirmed"),
      refundDue(5_000),
      cancelled("expert", PRICE - 5_000),
      refundIssued("ev-refund-due", 5_000),
    ]);
    expect(state.bookings.get(BOOKING)).toMatchObject({
      paidCents: PRICE,
      owedCents: PRICE,
      refundedCents: 5_000,
      refundKeys: ["ev-refund-due"],
    });
  });
});

describe("the system completes a session after its end", () => {
  const AFTER_END = "2026-03-03T11:00:00.000Z";
  it("once the end has passed", () => {
    spec(bookingIn("confirmed"))
      .when(commands.complete(SYSTEM), AFTER_END)
      .then([{ type: "Completed", data: { bookingId: BOOKING } }]);
  });
  it("not before", () => {
    spec(bookingIn("confirmed")).when(commands.complete(SYSTEM), "2026-03-03T10:59:00.000Z").thenRefused("session_not_over");
  });
  it("and the creator still may not", () => {
    spec(bookingIn("confirmed")).when(commands.complete(CREATOR), AFTER_END).thenRefused("not_booking_party");
  });
});
