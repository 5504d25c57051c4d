import { DateTime } from "luxon";
import type { BookingRules, BookingStatus, BusyInterval, TimeOff } from "@booking/contracts";
import { bookableStarts } from "../availability/availability.ts";
import { blocksTime, busyPeriods, calendarDecider, expertHours, openReschedule, type CalendarState } from "./calendar.ts";
import type { RecordedCalendarEvent } from "./booking-history.ts";

// An expert's calendar as it stood at an instant, for the console's time travel: the stream
// folded with the engine's evolve up to that instant, and the engine's availability read over it
// with `now` at that instant. Answers "the creator says the slot was free at 10:02".

/**
 * The calendar folded over the events recorded at or before `instant`: the stream's longest such
 * prefix (a later event ends it, so a clock that stepped back between two writers never folds an
 * event without those before it). `folded` is how many events that is.
 */
export function calendarAt(stream: readonly RecordedCalendarEvent[], instant: string): { state: CalendarState; folded: number } {
  const t = Date.parse(instant);
  let folded = 0;
  while (folded < stream.length && Date.parse(stream[folded]!.at) <= t) folded++;
  const state = calendarDecider.evolve(
    calendarDecider.initialState(),
    stream.slice(0, folded).map((r) => r.event),
  );
  return { state, folded };
}

/** A time a booking held at the instant: its own, or the new time an open request to move it held beside it. */
export type HeldTime = {
  bookingId: string;
  creatorId: string;
  status: BookingStatus;
  /** "booking": the booking's time; "reschedule": the time an open request to move it held. */
  holds: "booking" | "reschedule";
  start: string;
  lengthMinutes: number;
  /** The expert's buffers then, kept free either side. */
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
};

/** Rule: the times bookings held at `now` (`blocksTime`, `openReschedule`) whose span with buffers meets [from, to), earliest first. */
export function heldTimes(state: CalendarState, now: string, from: string, to: string): HeldTime[] {
  const { bufferBeforeMinutes, bufferAfterMinutes } = state.rules;
  const [lo, hi] = [Date.parse(from), Date.parse(to)];
  const held: HeldTime[] = [];
  for (const b of state.bookings.values()) {
    if (!blocksTime(b, now)) continue;
    const moved = openReschedule(b, now);
    const spans: [HeldTime["holds"], string][] = [
      ["booking", b.scheduledTime],
      ...(moved ? [["reschedule", moved] as [HeldTime["holds"], string]] : []),
    ];
    for (const [holds, start] of spans) {
      const begins = Date.parse(start) - bufferBeforeMinutes * 60_000;
      const ends = Date.parse(start) + (b.lengthMinutes + bufferAfterMinutes) * 60_000;
      if (begins < hi && lo < ends)
        held.push({
          bookingId: b.bookingId,
          creatorId: b.creatorId,
          status: b.status,
          holds,
          start,
          lengthMinutes: b.lengthMinutes,
          bufferBeforeMinutes,
          bufferAfterMinutes,
        });
    }
  }
  return held.sort((a, b) => Date.parse(a.start) - Date.parse(b.start) || a.bookingId.localeCompare(b.bookingId));
}

/** The instants a local date in `zone` spans: its first moment and the next date's first. */
export function localDay(date: string, zone: string): { from: string; to: string } {
  const start = DateTime.fromISO(date, { zone }).startOf("day");
  return { from: start.toUTC().toISO()!, to: start.plus({ days: 1 }).toUTC().toISO()! };
}

/** The local date of an instant in `zone`. */
export const localDateOf = (instant: string, zone: string): string => DateTime.fromISO(instant, { zone }).toISODate()!;

/** What the calendar answered at `now` for one local date: what could be booked for a session of `lengthMinutes`, and what was held. */
export type CalendarDayAsOf = {
  /** Null before the expert had set a schedule (nothing was bookable). */
  timezone: string | null;
  date: string;
  rules: BookingRules;
  /** Time off that touched the date, on the expert's wall clock. */
  timeOff: TimeOff[];
  /** Busy times of the expert's connected calendars that touched the date, by calendar (issue 32). */
  externalBusy: (BusyInterval & { sourceId: string })[];
  bookable: string[];
  held: HeldTime[];
};

/**
 * The day as availability saw it at `now`: `bookableStarts` over the folded calendar, with the
 * busy periods the booking decision reads (`busyPeriods`) and `now` itself (so notice, the 28-day
 * window and expired holds are as they were then), narrowed to the date.
 */
export function calendarDayAsOf(state: CalendarState, now: string, date: string, lengthMinutes: number): CalendarDayAsOf {
  const hours = expertHours(state);
  if (!hours) return { timezone: null, date, rules: state.rules, timeOff: [], externalBusy: [], bookable: [], held: [] };
  const zone = hours.schedule.timezone;
  const { from, to } = localDay(date, zone);
  const bookable = bookableStarts({
    ...hours,
    lengthMinutes,
    busy: busyPeriods(state, now),
    now,
    from,
    to: new Date(Date.parse(to) - 1).toISOString(),
  });
  const [first, next] = [`${date}T00:00`, `${DateTime.fromISO(date).plus({ days: 1 }).toISODate()}T00:00`];
  const timeOff = [...state.timeOff.values()].filter((o) => o.start < next && first < o.end);
  const externalBusy = [...state.externalBusy].flatMap(([sourceId, busy]) =>
    busy.filter((b) => b.start < to && from < b.end).map((b) => ({ sourceId, ...b })),
  );
  return { timezone: zone, date, rules: state.rules, timeOff, externalBusy, bookable, held: heldTimes(state, now, from, to) };
}
