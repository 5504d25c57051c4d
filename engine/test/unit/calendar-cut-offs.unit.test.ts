import { describe, expect, it } from "vitest";
import type { CalendarCommand, CalendarEvent } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import { BOOKING, CREATOR, EXPERT_ID, NOW, PRICE, T1, paid, requestBooking, requested, scheduleSet, session } from "./calendar-fixtures.ts";

// Cut-offs per session (issue 31.4), given/when/then: a booking is made under its session's cut-offs, recorded in its
// request, and the refund and move rules read the booking's own terms at their exact edges, whatever the session says later.

const spec = deciderSpec(calendarDecider, NOW);
const HOUR = 3_600_000;
const before = (hours: number, ms = 0) => new Date(Date.parse(T1) - hours * HOUR + ms).toISOString();
const on = { expertId: EXPERT_ID, bookingId: BOOKING };

/** Booking b1 at T1 made under these cut-offs, paid and confirmed. */
function confirmedUnder(fullRefundHours: number, rescheduleHours: number): CalendarEvent[] {
  const base = requested();
  const withTerms = { ...base, data: { ...base.data, fullRefundHours, rescheduleHours } } as CalendarEvent;
  return [scheduleSet, withTerms, paid(), { type: "Confirmed", data: { bookingId: BOOKING, by: "expert" } }];
}
const cancel: CalendarCommand = { type: "CancelBooking", ...on, actor: CREATOR, reason: "Plans changed" };
const move = (to = "2026-03-05T13:00:00.000Z"): CalendarCommand => ({
  type: "RequestReschedule",
  ...on,
  actor: CREATOR,
  scheduledTime: to,
  creatorBookings: [],
});
const refundOf = (given: CalendarEvent[], now: string) => {
  const r = spec(given).when(cancel, now).result;
  return r.ok && r.value[0]?.type === "Cancelled" ? r.value[0].data.refundCents : null;
};

describe("a booking is made under its session's cut-offs", () => {
  it("the request records them; a session without them records none (the policy's 24 hours apply)", () => {
    const chosen = spec([scheduleSet]).when(requestBooking({ session: { ...session, fullRefundHours: 72, rescheduleHours: 12 } })).result;
    expect(chosen).toMatchObject({ ok: true, value: [{ type: "BookingRequested", data: { fullRefundHours: 72, rescheduleHours: 12 } }] });
    const none = spec([scheduleSet]).when(requestBooking()).result;
    expect(none.ok && none.value[0]!.data).not.toHaveProperty("fullRefundHours");
  });
});

describe("the refund rule reads the booking's own cut-off", () => {
  it("48 hours: a full refund at exactly 48 hours before the start, nothing a millisecond later", () => {
    const given = confirmedUnder(48, 24);
    expect(refundOf(given, before(48))).toBe(PRICE);
    expect(refundOf(given, before(48, 1))).toBe(0);
  });

  it("72 hours: 60 hours before is already too late; a booking made before cut-offs keeps the 24 hours", () => {
    expect(refundOf(confirmedUnder(72, 24), before(60))).toBe(0);
    const old = [scheduleSet, requested(), paid(), { type: "Confirmed", data: { bookingId: BOOKING, by: "expert" } } as CalendarEvent];
    expect(refundOf(old, before(24))).toBe(PRICE);
    expect(refundOf(old, before(24, 1))).toBe(0);
  });
});

describe("the move rule reads the booking's own cut-off", () => {
  it("12 hours: a move may be asked 12 hours before, not a millisecond later; the refusal names the booking's hours", () => {
    const given = confirmedUnder(24, 12);
    expect(spec(given).when(move(), before(12)).result.ok).toBe(true);
    spec(given)
      .when(move(), before(12, 1))
      .thenRefused(
        "reschedule_too_late",
        "A booking can be moved until 12 hours before it starts. This one starts sooner: please contact your expert or cancel it instead.",
      );
  });

  it("48 hours: 30 hours before is too late", () => {
    spec(confirmedUnder(24, 48)).when(move(), before(30)).thenRefused("reschedule_too_late");
  });
});
