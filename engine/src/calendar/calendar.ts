import { ok, refused, type CalendarCommand, type CalendarEvent } from "@booking/contracts";
import type { Decider, DecisionContext } from "../decider.ts";
import { decideOnBooking, requestBooking } from "./booking-lifecycle.ts";
import { evolveCalendar, initialCalendarState, type CalendarState } from "./calendar-state.ts";
import { isAdmin, type Decision } from "./decision-rules.ts";
import { decideOnExternalBusy, isExternalBusyCommand } from "./external-busy.ts";
import { decideOnHours, isHoursCommand } from "./hours.ts";

export * from "./refund-policy.ts";
export * from "./join-link.ts";
export * from "./request-answer.ts";
export {
  blocksTime,
  busyPeriods,
  evolveCalendar,
  expertHours,
  holdExpired,
  initialCalendarState,
  openReschedule,
} from "./calendar-state.ts";
export type { Booking, CalendarState } from "./calendar-state.ts";
export { creatorRefusal } from "./decision-rules.ts";
export { bookingsInTimeOff, type BookingInTimeOff } from "./hours.ts";
export { bookingsInExternalBusy, type BookingInExternalBusy } from "./external-busy.ts";
export { rescheduleNoticeMet } from "./reschedule.ts";
export { noShowOpen, noShowWindow, type NoShowState } from "./no-shows.ts";

// Stream `calendar-{expertId}`: the expert's weekly schedule, time off, extra hours and booking
// rules, and every booking with that expert. One decision sees them all, so two overlapping
// bookings can never both be committed, and none lands where availability offers nothing.
// The decider composes the rules of calendar-state.ts (state, evolve), hours.ts,
// booking-lifecycle.ts and reschedule.ts.

export function decideCalendar(c: CalendarCommand, s: CalendarState, ctx: DecisionContext): Decision {
  if (s.expertId !== null && s.expertId !== c.expertId) return refused("invalid_request");
  switch (c.type) {
    case "SetSchedule":
      if (c.actor.role !== "expert" && !isAdmin(c.actor)) return refused("forbidden");
      return ok([{ type: "ScheduleSet", data: { expertId: c.expertId, timezone: c.schedule.timezone, slots: c.schedule.slots } }]);
    case "RequestBooking":
      return requestBooking(c, s, ctx.now);
    case "PauseBookings":
    case "ResumeBookings": {
      // Rule: suspending an expert is an admin's decision (expert/vetting.ts); the calendar only follows it.
      if (!isAdmin(c.actor)) return refused("forbidden");
      const pause = c.type === "PauseBookings";
      if (s.paused === pause) return ok([]);
      const by = { expertId: c.expertId, by: c.actor.userId };
      return ok([pause ? { type: "BookingsPaused", data: { ...by, reason: c.reason } } : { type: "BookingsResumed", data: by }]);
    }
    default:
      if (isExternalBusyCommand(c)) return decideOnExternalBusy(c, s);
      return isHoursCommand(c) ? decideOnHours(c, s, ctx.now) : decideOnBooking(c, s, ctx.now);
  }
}

export const calendarDecider: Decider<CalendarCommand, CalendarEvent, CalendarState> = {
  initialState: initialCalendarState,
  evolve: evolveCalendar,
  decide: decideCalendar,
};

export const calendarStream = (expertId: string) => `calendar-${expertId}`;
