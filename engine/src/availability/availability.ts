import { DateTime, IANAZone } from "luxon";
import {
  BOOKING_WINDOW_DAYS,
  NO_BOOKING_RULES,
  SLOT_STEP_MINUTES,
  WEEKDAYS,
  minutesOfDay,
  type BookingRules,
  type BusyInterval,
  type DateOverride,
  type TimeOff,
  type WeeklySchedule,
} from "@booking/contracts";

import {
  busyIntervals,
  clearOfBookings,
  clearOfExternalBusy,
  externalBusyNear,
  nearWindow,
  withBuffers,
  type BusyPeriod,
  type Interval,
  type Window,
} from "./busy-times.ts";

export type { BusyPeriod } from "./busy-times.ts";
export { meetsExternalBusy } from "./busy-times.ts";

// When a session can start. Pure: the clock comes in as `now`. luxon does every conversion
// between an expert's wall-clock times and instants, so DST days (gaps, repeated hours,
// 30-minute shifts) follow the tz database rather than offset arithmetic.

/**
 * The expert's calendar as availability reads it: weekly hours, and (none when absent) time off,
 * extra hours on given dates and the booking rules (buffers, minimum notice).
 */
export type ExpertHours = {
  schedule: WeeklySchedule;
  timeOff?: readonly Pick<TimeOff, "start" | "end">[];
  dateOverrides?: readonly Pick<DateOverride, "date" | "start_local" | "end_local">[];
  rules?: BookingRules;
  /** Busy times of the expert's connected calendars (issue 32), instants, end exclusive; in any order, may overlap. */
  externalBusy?: readonly BusyInterval[];
};

export type AvailabilityQuery = ExpertHours & {
  lengthMinutes: number;
  busy: readonly BusyPeriod[];
  now: string;
  /** Optional narrowing of the booking window (inclusive instants). */
  from?: string;
  to?: string;
};

// Every tz offset in use is a multiple of 15 minutes, so walking a slot in 15-minute instants
// meets every half-hour of local wall-clock time even across a 30-minute DST shift.
const WALK_MINUTES = 15;
const STEP_MS = WALK_MINUTES * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Rule: a session starts no sooner than the expert's minimum notice from now, and at most 28 days
 * after now (the query may narrow this further).
 */
function bookingWindow(q: Pick<AvailabilityQuery, "now" | "from" | "to" | "rules">): Window {
  const now = Date.parse(q.now);
  let start = now + (q.rules?.minNoticeHours ?? 0) * HOUR_MS;
  // Days in UTC are all 24 hours: plain arithmetic, no luxon on every question.
  let end = now + BOOKING_WINDOW_DAYS * DAY_MS;
  if (q.from !== undefined) start = Math.max(start, Date.parse(q.from));
  if (q.to !== undefined) end = Math.min(end, Date.parse(q.to));
  return { start, end };
}

/** The wall-clock date and time of an instant in `zone`, as time off is written (`YYYY-MM-DDTHH:mm`). */
export const localDateTime = (instant: string, zone: string): string => DateTime.fromISO(instant, { zone }).toFormat("yyyy-MM-dd'T'HH:mm");

/** An instant on the expert's wall clock: its local date, weekday, minute of the day, and both as `YYYY-MM-DDTHH:mm`. */
type WallReading = { date: string; weekday: number; minute: number; local: string };

// Readings are remembered process-wide, per zone: every expert in a zone walks the same
// 15-minute grid, and luxon finds each offset through Intl (formatToParts), the dearest step here.
const READINGS_PER_ZONE = 100_000;
const readings = new Map<string, Map<number, WallReading>>();

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** Wall-clock reading of instants in one (valid) zone. */
function wallClockReader(zone: string) {
  let memo = readings.get(zone);
  if (!memo) readings.set(zone, (memo = new Map()));
  const zoneReadings = memo;
  return (t: number): WallReading => {
    let w = zoneReadings.get(t);
    if (!w) {
      const local = DateTime.fromMillis(t, { zone });
      const date = local.toISODate()!;
      const minute = local.hour * 60 + local.minute;
      w = { date, weekday: local.weekday, minute, local: `${date}T${hhmm(minute)}` };
      if (zoneReadings.size >= READINGS_PER_ZONE) zoneReadings.clear();
      zoneReadings.set(t, w);
    }
    return w;
  };
}

// luxon's IANAZone.isValidZone builds an Intl.DateTimeFormat on every call; zones do not change
// validity while the process runs (the map is capped: zones come from user input).
const zoneValidity = new Map<string, boolean>();
function isKnownZone(zone: string): boolean {
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(zone);
    if (zoneValidity.size >= 1_000) zoneValidity.clear();
    zoneValidity.set(zone, valid);
  }
  return valid;
}

type WallClock = ReturnType<typeof wallClockReader>;

/** A local calendar date: `YYYY-MM-DD` and its weekday (1 = Monday ... 7 = Sunday, as luxon counts). */
type LocalDay = { date: string; weekday: number };

/** The date `days` after a `YYYY-MM-DD` date: calendar arithmetic, no zone involved. */
function dayAfter(date: string, days: number): LocalDay {
  const d = new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
  return { date: d.toISOString().slice(0, 10), weekday: ((d.getUTCDay() + 6) % 7) + 1 };
}

/**
 * The local calendar days (in the wall clock's zone) that a window touches, and one either side.
 * An instant's local date is that of the 15-minute instant at or before it (local midnights fall
 * on 15-minute instants), so the ends are read from the remembered wall-clock readings.
 */
function localDays(window: Window, wall: WallClock): LocalDay[] {
  const first = wall(Math.floor(window.start / STEP_MS) * STEP_MS).date;
  const last = wall(Math.floor(window.end / STEP_MS) * STEP_MS).date;
  const days: LocalDay[] = [];
  for (let k = -1; ; k++) {
    const day = dayAfter(first, k);
    days.push(day);
    if (day.date > last) return days;
  }
}

/** A wall-clock time on a local date as luxon resolves it: its instant, and the minute of the day it reads (another in a DST gap). */
type LocalInstant = { millis: number; minute: number };

// Remembered process-wide, per zone, like the readings: the same dates and opening times come up
// for every query in a zone, and luxon's conversion (through Intl) is the dearest step here.
const instants = new Map<string, Map<string, LocalInstant>>();

function localInstantReader(zone: string) {
  let memo = instants.get(zone);
  if (!memo) instants.set(zone, (memo = new Map()));
  const zoneInstants = memo;
  return (date: string, minutes: number): LocalInstant => {
    const key = `${date} ${minutes}`;
    let found = zoneInstants.get(key);
    if (!found) {
      const [year, month, day] = date.split("-").map(Number) as [number, number, number];
      const at = DateTime.fromObject({ year, month, day, hour: Math.floor(minutes / 60), minute: minutes % 60 }, { zone });
      found = { millis: at.toMillis(), minute: at.hour * 60 + at.minute };
      if (zoneInstants.size >= READINGS_PER_ZONE) zoneInstants.clear();
      zoneInstants.set(key, found);
    }
    return found;
  };
}

/**
 * Rule: open hours on a local date are that weekday's weekly slots joined with the date's extra
 * hours; touching or overlapping ones make one stretch (minutes of the day, end exclusive).
 */
function openStretches(hours: ExpertHours, date: string, weekday: number): Interval[] {
  const name = WEEKDAYS[weekday - 1];
  const parts: Interval[] = [];
  for (const s of hours.schedule.slots)
    if (s.weekday === name) parts.push({ start: minutesOfDay(s.start_local), end: minutesOfDay(s.end_local) });
  for (const o of hours.dateOverrides ?? [])
    if (o.date === date) parts.push({ start: minutesOfDay(o.start_local), end: minutesOfDay(o.end_local) });
  parts.sort((a, b) => a.start - b.start);
  const stretches: Interval[] = [];
  for (const p of parts) {
    const last = stretches.at(-1);
    if (last && p.start <= last.end) last.end = Math.max(last.end, p.end);
    else stretches.push({ ...p });
  }
  return stretches;
}

/** Open stretches per local date, worked out once per query. */
function openHoursReader(hours: ExpertHours) {
  const byDate = new Map<string, Interval[]>();
  return (date: string, weekday: number): Interval[] => {
    let stretches = byDate.get(date);
    if (!stretches) byDate.set(date, (stretches = openStretches(hours, date, weekday)));
    return stretches;
  };
}
type OpenHours = ReturnType<typeof openHoursReader>;

/**
 * Rule: a session starting at `t` sits in open hours when it starts on a 30-minute step of the
 * expert's wall clock and every moment of it reads, on that same local date, inside one open
 * stretch. Reading the wall clock of instants (never converting wall times to instants) keeps DST
 * days exact: a skipped hour is simply absent, a repeated hour counts twice.
 */
function sitsInOpenHours(t: number, lengthMinutes: number, open: OpenHours, wall: WallClock): boolean {
  if (t % STEP_MS !== 0) return false;
  const first = wall(t);
  if (first.minute % SLOT_STEP_MINUTES !== 0) return false;
  const stretch = open(first.date, first.weekday).find((s) => s.start <= first.minute && first.minute < s.end);
  if (!stretch) return false;
  // Offsets change only on 15-minute boundaries, so checking every 15 minutes checks every moment.
  for (let u = t; u < t + lengthMinutes * 60_000; u += STEP_MS) {
    const w = wall(u);
    if (w.date !== first.date || w.minute < stretch.start || w.minute >= stretch.end) return false;
  }
  return true;
}

/**
 * Rule: no moment of a session reads, on the expert's wall clock, inside time off (at or after its
 * start, before its end). Time off is on the half-hour grid, so the 15-minute walk sees every moment.
 */
function clearOfTimeOff(t: number, lengthMinutes: number, timeOff: ExpertHours["timeOff"], wall: WallClock): boolean {
  if (!timeOff?.length) return true;
  for (let u = Math.floor(t / STEP_MS) * STEP_MS; u < t + lengthMinutes * 60_000; u += STEP_MS) {
    const { local } = wall(u);
    if (timeOff.some((o) => o.start <= local && local < o.end)) return false;
  }
  return true;
}

/** Time off that can touch the window (a day of margin either way covers any offset). */
function timeOffNear(timeOff: ExpertHours["timeOff"], window: Window, zone: string): ExpertHours["timeOff"] {
  if (!timeOff?.length) return [];
  const from = DateTime.fromMillis(window.start, { zone }).minus({ days: 1 }).toFormat("yyyy-MM-dd'T'HH:mm");
  const to = DateTime.fromMillis(window.end, { zone }).plus({ days: 2 }).toFormat("yyyy-MM-dd'T'HH:mm");
  return timeOff.filter((o) => o.end > from && o.start < to);
}

/** What every check of one query shares: worked out once. */
type Checks = {
  window: Window;
  busy: Interval[];
  externalBusy: Interval[];
  wall: WallClock;
  open: OpenHours;
  timeOff: ExpertHours["timeOff"];
  rules: BookingRules;
};

function checksFor(q: AvailabilityQuery): Checks {
  const rules = q.rules ?? NO_BOOKING_RULES;
  const window = bookingWindow(q);
  const zone = q.schedule.timezone;
  const maxLength = Math.max(q.lengthMinutes, 240);
  return {
    window,
    busy: busyIntervals(q.busy, window, maxLength, rules),
    externalBusy: externalBusyNear(q.externalBusy, window, maxLength, rules),
    wall: wallClockReader(zone),
    open: openHoursReader(q),
    timeOff: timeOffNear(q.timeOff, window, zone),
    rules,
  };
}

/** Every rule of a bookable start, each by its name. */
function bookableAt(t: number, lengthMinutes: number, c: Checks): boolean {
  return (
    t >= c.window.start &&
    t <= c.window.end &&
    sitsInOpenHours(t, lengthMinutes, c.open, c.wall) &&
    clearOfTimeOff(t, lengthMinutes, c.timeOff, c.wall) &&
    clearOfBookings(t, lengthMinutes, c.busy, c.rules) &&
    clearOfExternalBusy(t, lengthMinutes, c.externalBusy, c.rules)
  );
}

/**
 * Rule: a time is bookable when it lies between the minimum notice from now and 28 days ahead; it
 * starts on a 30-minute step of local time inside the expert's open hours for that date (weekly
 * slots and extra hours); the whole session fits before that stretch ends; none of it falls in time
 * off; and with the buffers around it, it overlaps no active booking with its buffers and no busy
 * time of the expert's connected calendars.
 */
export function bookableStarts(q: AvailabilityQuery): string[] {
  return [...walkBookable(q, false)].sort((a, b) => a - b).map((t) => new Date(t).toISOString());
}

/** The earliest of bookableStarts, found without walking the days after it (the listing's "soonest available"). */
export function firstBookableStart(q: AvailabilityQuery): string | null {
  const found = walkBookable(q, true);
  return found.size === 0 ? null : new Date(Math.min(...found)).toISOString();
}

/** The bookable instants, day by day in local order; `firstDayOnly` stops after the first day that has any. */
function walkBookable(q: AvailabilityQuery, firstDayOnly: boolean): Set<number> {
  const found = new Set<number>();
  const zone = q.schedule.timezone;
  if (!isKnownZone(zone)) return found;
  const c = checksFor(q);
  if (c.window.end < c.window.start) return found;
  const atLocal = localInstantReader(zone);
  for (const day of localDays(c.window, c.wall)) {
    for (const stretch of c.open(day.date, day.weekday)) {
      // Walk a little beyond the stretch's nominal instants: on DST days its wall times map to
      // instants up to an hour either way.
      const from = Math.floor((atLocal(day.date, stretch.start).millis - 2 * HOUR_MS) / STEP_MS) * STEP_MS;
      const to = atLocal(day.date, stretch.end).millis + 2 * HOUR_MS;
      for (let t = Math.max(from, Math.ceil(c.window.start / STEP_MS) * STEP_MS); t <= Math.min(to, c.window.end); t += STEP_MS) {
        if (!found.has(t) && bookableAt(t, q.lengthMinutes, c)) found.add(t);
      }
    }
    if (firstDayOnly && found.size > 0) return found;
  }
  return found;
}

/**
 * All that a bookableStarts answer reads of `now` and of the bookings: the first and last
 * 15-minute instants of its window (every start it can list is one) and the bookings near that
 * window. Queries alike in everything else and in these get the same answer, so a cache of
 * answers can key on them instead of on the exact instant.
 */
export function answerDependsOn(q: AvailabilityQuery): { firstStep: number; lastStep: number; busy: BusyPeriod[] } {
  const rules = q.rules ?? NO_BOOKING_RULES;
  const window = bookingWindow(q);
  const near = nearWindow(Math.max(q.lengthMinutes, 240), rules, window);
  const busy = q.busy.filter((b) => near(withBuffers(Date.parse(b.start), b.lengthMinutes, rules)));
  return { firstStep: Math.ceil(window.start / STEP_MS), lastStep: Math.floor(window.end / STEP_MS), busy };
}

/** The booking decision asks the same rules about one instant that the availability list uses. */
export function isBookableStart(q: Omit<AvailabilityQuery, "from" | "to">, start: string): boolean {
  const t = Date.parse(start);
  if (!isKnownZone(q.schedule.timezone) || Number.isNaN(t)) return false;
  return bookableAt(t, q.lengthMinutes, checksFor(q));
}

/**
 * Rule: any moment of a session that reads inside time off on the expert's wall clock. Bookings
 * made before the time off was added are listed to the expert with this (never dropped).
 */
export function fallsInTimeOff(timezone: string, timeOff: ExpertHours["timeOff"], start: string, lengthMinutes: number): boolean {
  if (!isKnownZone(timezone)) return false;
  return !clearOfTimeOff(Date.parse(start), lengthMinutes, timeOff, wallClockReader(timezone));
}

/**
 * Rule: an expert may propose exactly the times a creator could book (issue 27.12): inside their
 * weekly hours and extra hours, the whole session fitting, outside time off, within the booking
 * window and notice, clear of other bookings with their buffers. The booking being moved leaves
 * its own time out of `busy`.
 */
export const proposableStarts = (q: AvailabilityQuery): string[] => bookableStarts(q);

export const isProposableStart = (q: Omit<AvailabilityQuery, "from" | "to">, start: string): boolean => isBookableStart(q, start);
