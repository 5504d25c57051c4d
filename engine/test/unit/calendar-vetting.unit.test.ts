import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { calendarSnapshots } from "../../src/calendar/calendar-snapshot.ts";
import { deciderSpec } from "./decider-spec.ts";
import { ADMIN, CREATOR, EXPERT, EXPERT_ID, NOW, bookingIn, commands, requestBooking, scheduleSet } from "./calendar-fixtures.ts";

// The bookable rule on the calendar, where bookings are decided (issue 30): only an approved expert is
// bookable, and an expert's suspension cuts off every request after it on this stream.

const spec = deciderSpec(calendarDecider, NOW);
const paused: CalendarEvent = { type: "BookingsPaused", data: { expertId: EXPERT_ID, by: ADMIN.userId, reason: "Three no-shows" } };
const resumed: CalendarEvent = { type: "BookingsResumed", data: { expertId: EXPERT_ID, by: ADMIN.userId } };

describe("only approved experts are bookable", () => {
  it("refuses a request for an expert whose application is not approved, with the catalogue's message", () => {
    for (const vetting of ["draft", "submitted", "in_review", "changes_requested", "rejected"] as const) {
      spec([scheduleSet])
        .when(requestBooking({ expertVetting: vetting }))
        .thenRefused("expert_not_approved", "This expert is not taking bookings yet.");
    }
    spec([scheduleSet])
      .when(requestBooking({ expertVetting: "suspended" }))
      .thenRefused("expert_suspended");
    expect(spec([scheduleSet]).when(requestBooking()).result.ok).toBe(true);
  });

  it("after a suspension no request is accepted, whatever the request says; reinstating opens the calendar again", () => {
    spec([scheduleSet, paused]).when(requestBooking()).thenRefused("expert_suspended", "This expert is not taking bookings at the moment.");
    expect(spec([scheduleSet, paused, resumed]).when(requestBooking()).result.ok).toBe(true);
  });

  it("a suspended expert's open request is not confirmed by them; an admin resolves it", () => {
    spec([...bookingIn("pending"), paused])
      .when(commands.confirm(EXPERT))
      .thenRefused("expert_suspended");
    expect(spec([...bookingIn("pending"), paused]).when(commands.confirm(ADMIN)).result.ok).toBe(true);
  });

  it("only an admin pauses or resumes a calendar, and pausing twice changes nothing", () => {
    spec([scheduleSet]).when({ type: "PauseBookings", expertId: EXPERT_ID, actor: EXPERT, reason: "x" }).thenRefused("forbidden");
    spec([scheduleSet]).when({ type: "PauseBookings", expertId: EXPERT_ID, actor: CREATOR, reason: "x" }).thenRefused("forbidden");
    spec([scheduleSet]).when({ type: "PauseBookings", expertId: EXPERT_ID, actor: ADMIN, reason: "Three no-shows" }).then([paused]);
    spec([scheduleSet, paused]).when({ type: "PauseBookings", expertId: EXPERT_ID, actor: ADMIN, reason: "again" }).then([]);
    spec([scheduleSet, paused]).when({ type: "ResumeBookings", expertId: EXPERT_ID, actor: ADMIN }).then([resumed]);
    spec([scheduleSet]).when({ type: "ResumeBookings", expertId: EXPERT_ID, actor: ADMIN }).then([]);
  });

  it("a snapshot keeps the pause, so a cold calendar still refuses", () => {
    const state = calendarDecider.evolve(calendarDecider.initialState(), [scheduleSet, paused]);
    const restored = calendarSnapshots.decode(JSON.parse(JSON.stringify(calendarSnapshots.encode(state, NOW))));
    expect(calendarDecider.decide(requestBooking(), restored, { now: NOW })).toMatchObject({
      ok: false,
      refusal: { code: "expert_suspended" },
    });
  });
});
