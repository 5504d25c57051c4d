import { describe, expect, it } from "vitest";
import type { CalendarCommand, CalendarEvent } from "@booking/contracts";
import { calendarDecider, meetingLinkOf, respondByOf } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import {
  BOOKING,
  EXPERT,
  EXPERT_ID,
  NOW,
  PRICE,
  SYSTEM,
  T1,
  commands,
  paid,
  requestBooking,
  requested,
  scheduleSet,
  session,
} from "./calendar-fixtures.ts";

// Issue 27.6: a session may be booked instantly (accepted on payment); any other paid request
// waits for the expert until a deadline recorded with the payment, and lapses (refunded in full)
// when nobody accepted it by then. Issue 27.13: a confirmation records the meeting room it chose.

const spec = deciderSpec(calendarDecider, NOW);
const ROOM = "q3Zr8Vv1o0Jm2H5kT7yW9A";
const on = { expertId: EXPERT_ID, bookingId: BOOKING };
const pay = (meetingRoom?: string): CalendarCommand => ({
  type: "RecordPayment",
  ...on,
  actor: SYSTEM,
  paymentId: "pi_9",
  amountCents: PRICE,
  provider: "test",
  ...(meetingRoom && { meetingRoom }),
});
const instantRequested = (): CalendarEvent => {
  const e = requested();
  return e.type === "BookingRequested" ? { ...e, data: { ...e.data, instantBooking: true } } : e;
};
const paidWith = (respondBy: string): CalendarEvent => ({
  type: "PaymentSucceeded",
  data: { bookingId: BOOKING, paymentId: "pi_1", amountCents: PRICE, provider: "test", respondBy },
});

describe("instant booking (issue 27.6)", () => {
  it("a booking of an instant session records that it is instant", () => {
    const result = spec([scheduleSet]).when(requestBooking({ session: { ...session, instantBooking: true } })).result;
    expect(result.ok && result.value[0]?.type === "BookingRequested" && result.value[0].data.instantBooking).toBe(true);
  });

  it("its payment confirms it in the same decision, with the room the caller chose", () => {
    spec([scheduleSet, instantRequested()])
      .when(pay(ROOM))
      .then([
        {
          type: "PaymentSucceeded",
          data: { bookingId: BOOKING, paymentId: "pi_9", amountCents: PRICE, provider: "test", currency: "USD", feeBasisPoints: 1500 },
        },
        { type: "Confirmed", data: { bookingId: BOOKING, by: "system", instant: true, meetingRoom: ROOM } },
      ]);
  });

  it("paid after its hold ran out, it is still confirmed while the time is free", () => {
    const result = spec([scheduleSet, instantRequested()]).when(pay(ROOM), "2026-03-02T08:20:00.000Z").result;
    expect(result.ok && result.value.map((e) => e.type)).toEqual(["PaymentSucceeded", "Confirmed"]);
  });

  it("paid after its hold ran out and the time was taken, it is cancelled and refunded, never confirmed", () => {
    const late = "2026-03-02T08:20:00.000Z";
    const other = requested("b9", T1, "c9");
    const result = spec([scheduleSet, instantRequested(), other, paid("b9", "pi_other")]).when(pay(ROOM), late).result;
    expect(result.ok && result.value.map((e) => e.type)).toEqual(["PaymentSucceeded", "Cancelled"]);
  });

  it("a session without instant booking stays a request, with the expert's deadline on its payment", () => {
    // 48 hours after payment, but never past the start: here the start (T1, the next day) comes first.
    spec([scheduleSet, requested()])
      .when(pay())
      .then([
        {
          type: "PaymentSucceeded",
          data: {
            bookingId: BOOKING,
            paymentId: "pi_9",
            amountCents: PRICE,
            provider: "test",
            respondBy: T1,
            currency: "USD",
            feeBasisPoints: 1500,
          },
        },
      ]);
    expect(respondByOf(NOW, "2026-03-20T10:00:00.000Z")).toBe("2026-03-04T08:00:00.000Z");
  });
});

describe("the expert's deadline to accept a paid request (issue 27.6)", () => {
  const DEADLINE = "2026-03-02T20:00:00.000Z";
  const given = [scheduleSet, requested(), paidWith(DEADLINE)];

  it("the expert may accept until the deadline, and no later", () => {
    spec(given)
      .when(commands.confirm(EXPERT), "2026-03-02T19:59:59.000Z")
      .then([{ type: "Confirmed", data: { bookingId: BOOKING, by: "expert" } }]);
    spec(given).when(commands.confirm(EXPERT), DEADLINE).thenRefused("booking_request_lapsed");
  });

  it("unanswered past it, the system cancels the request and everything paid is owed back", () => {
    spec(given).when(commands.expireHold(), "2026-03-02T19:00:00.000Z").thenRefused("hold_not_expired");
    spec(given)
      .when(commands.expireHold(), DEADLINE)
      .then([{ type: "Cancelled", data: { bookingId: BOOKING, by: "system", reason: "not_answered", refundCents: PRICE } }]);
    spec([...given, { type: "InfoRequested", data: { bookingId: BOOKING, note: "More?" } }])
      .when(commands.expireHold(), DEADLINE)
      .then([{ type: "Cancelled", data: { bookingId: BOOKING, by: "system", reason: "not_answered", refundCents: PRICE } }]);
  });

  it("an answered request has no deadline", () => {
    const confirmed: CalendarEvent = { type: "Confirmed", data: { bookingId: BOOKING, by: "expert" } };
    spec([...given, confirmed])
      .when(commands.expireHold(), DEADLINE)
      .thenRefused("booking_transition_refused");
  });
});

describe("a confirmed booking's room (issue 27.13)", () => {
  it("the expert's acceptance records the room chosen for it", () => {
    spec([scheduleSet, requested(), paid()])
      .when({ ...commands.confirm(EXPERT), meetingRoom: ROOM } as CalendarCommand)
      .then([{ type: "Confirmed", data: { bookingId: BOOKING, by: "expert", meetingRoom: ROOM } }]);
  });

  it("the room link names the recorded room, and the expert's own link replaces it", () => {
    const facts = { bookingId: BOOKING, status: "confirmed" as const, scheduledTime: T1, joinLink: null, meetingRoom: ROOM };
    expect(meetingLinkOf(facts, "https://meet.jit.si/{room}")).toEqual({ url: `https://meet.jit.si/${ROOM}`, source: "generated" });
    expect(meetingLinkOf({ ...facts, joinLink: "https://zoom.us/j/1" }, "https://meet.jit.si/{room}")).toEqual({
      url: "https://zoom.us/j/1",
      source: "expert",
    });
  });
});
