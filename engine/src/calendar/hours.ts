import {
  MAX_UPCOMING_DATE_OVERRIDES,
  MAX_UPCOMING_TIME_OFF,
  minutesOfDay,
  ok,
  refused,
  type CalendarCommand,
  type DateOverride,
  type TimeOff,
} from "@booking/contracts";
import { fallsInTimeOff, localDateTime } from "../availability/availability.ts";
import { type Booking, type CalendarState, blocksTime } from "./calendar-state.ts";
import { type Decision, isAdmin } from "./decision-rules.ts";

// The expert's own time: weekly hours, time off, extra hours and booking rules, and the bookings
// time off lands on.

/** The expert's own time: commands that change availability but no booking. */
export type HoursCommand = Extract<
  CalendarCommand,
  { type: "AddTimeOff" | "RemoveTimeOff" | "AddDateOverride" | "RemoveDateOverride" | "SetBookingRules" }
>;
export const HOURS_COMMANDS: ReadonlySet<CalendarCommand["type"]> = new Set<HoursCommand["type"]>([
  "AddTimeOff",
  "RemoveTimeOff",
  "AddDateOverride",
  "RemoveDateOverride",
  "SetBookingRules",
]);
export const isHoursCommand = (c: CalendarCommand): c is HoursCommand => HOURS_COMMANDS.has(c.type);

export const sameTimeOff = (a: TimeOff, b: TimeOff) => a.start === b.start && a.end === b.end && a.reason === b.reason;
export const sameOverride = (a: DateOverride, b: DateOverride) =>
  a.date === b.date && a.start_local === b.start_local && a.end_local === b.end_local;

/**
 * Rules of the expert's own time, all in their timezone, so a schedule (which names it) comes
 * first. Adding what is already there under the same id is a no-op (a retried request), and the
 * same id for something else is refused. Time off may cover bookings already made: it is added
 * all the same, and `bookingsInTimeOff` lists those bookings for the expert to handle.
 */
export function decideOnHours(c: HoursCommand, s: CalendarState, now: string): Decision {
  if (c.actor.role !== "expert" && !isAdmin(c.actor)) return refused("forbidden");
  if (!s.schedule) return refused("schedule_first");
  const expertId = c.expertId;
  const today = localDateTime(now, s.schedule.timezone);
  switch (c.type) {
    case "AddTimeOff": {
      const t = c.timeOff;
      const existing = s.timeOff.get(t.timeOffId);
      if (existing) return sameTimeOff(existing, t) ? ok([]) : refused("time_off_id_taken");
      if (!(t.start < t.end)) return refused("time_off_range_invalid");
      const upcoming = [...s.timeOff.values()].filter((o) => o.end > today).length;
      if (upcoming >= MAX_UPCOMING_TIME_OFF) return refused("time_off_limit", { max: String(MAX_UPCOMING_TIME_OFF) });
      return ok([{ type: "TimeOffAdded", data: { expertId, timeOffId: t.timeOffId, start: t.start, end: t.end, reason: t.reason } }]);
    }
    case "RemoveTimeOff":
      if (!s.timeOff.has(c.timeOffId)) return refused("time_off_not_found");
      return ok([{ type: "TimeOffRemoved", data: { expertId, timeOffId: c.timeOffId } }]);
    case "AddDateOverride": {
      const o = c.override;
      const existing = s.dateOverrides.get(o.overrideId);
      if (existing) return sameOverride(existing, o) ? ok([]) : refused("date_override_id_taken");
      const [start, end] = [minutesOfDay(o.start_local), minutesOfDay(o.end_local)];
      if (!(start < end)) return refused("date_override_invalid");
      const sameDate = [...s.dateOverrides.values()].filter((x) => x.date === o.date);
      if (sameDate.some((x) => start < minutesOfDay(x.end_local) && minutesOfDay(x.start_local) < end))
        return refused("date_override_overlap");
      const upcoming = [...s.dateOverrides.values()].filter((x) => x.date >= today.slice(0, 10)).length;
      if (upcoming >= MAX_UPCOMING_DATE_OVERRIDES) return refused("date_override_limit", { max: String(MAX_UPCOMING_DATE_OVERRIDES) });
      return ok([
        {
          type: "DateOverrideAdded",
          data: { expertId, overrideId: o.overrideId, date: o.date, start_local: o.start_local, end_local: o.end_local },
        },
      ]);
    }
    case "RemoveDateOverride":
      if (!s.dateOverrides.has(c.overrideId)) return refused("date_override_not_found");
      return ok([{ type: "DateOverrideRemoved", data: { expertId, overrideId: c.overrideId } }]);
    case "SetBookingRules": {
      const r = c.rules;
      const unchanged =
        r.bufferBeforeMinutes === s.rules.bufferBeforeMinutes &&
        r.bufferAfterMinutes === s.rules.bufferAfterMinutes &&
        r.minNoticeHours === s.rules.minNoticeHours;
      if (unchanged) return ok([]);
      return ok([
        {
          type: "BookingRulesSet",
          data: {
            expertId,
            bufferBeforeMinutes: r.bufferBeforeMinutes,
            bufferAfterMinutes: r.bufferAfterMinutes,
            minNoticeHours: r.minNoticeHours,
          },
        },
      ]);
    }
  }
}

/** A booking the expert must handle: it still holds its time, is not over, and falls in time off. */
export type BookingInTimeOff = { booking: Booking; timeOffIds: string[] };

/**
 * Rule: bookings that still hold their time (`blocksTime`) and have not ended, any moment of which
 * falls in time off (`fallsInTimeOff`), earliest first. Adding time off never cancels them.
 */
export function bookingsInTimeOff(state: CalendarState, now: string): BookingInTimeOff[] {
  if (!state.schedule || state.timeOff.size === 0) return [];
  const zone = state.schedule.timezone;
  const found: BookingInTimeOff[] = [];
  for (const b of state.bookings.values()) {
    if (!blocksTime(b, now) || Date.parse(b.scheduledTime) + b.lengthMinutes * 60_000 <= Date.parse(now)) continue;
    const timeOffIds = [...state.timeOff.values()]
      .filter((t) => fallsInTimeOff(zone, [t], b.scheduledTime, b.lengthMinutes))
      .map((t) => t.timeOffId);
    if (timeOffIds.length > 0) found.push({ booking: b, timeOffIds });
  }
  return found.sort((a, b) => Date.parse(a.booking.scheduledTime) - Date.parse(b.booking.scheduledTime));
}
