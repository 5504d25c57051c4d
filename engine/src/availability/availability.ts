import { DateTime, IANAZone } from "luxon";
import {
  BOOKING_WINDOW_DAYS,
  PROPOSED_TIME_FIRST,
  PROPOSED_TIME_LAST,
  SLOT_STEP_MINUTES,
  WEEKDAYS,
  minutesOfDay,
  type WeeklySchedule,
} from "@booking/contracts";

// When a session can start. Pure: the clock comes in as `now`. luxon does every conversion
// between an expert's wall-clock times and instants, so DST days (gaps, repeated hours,
// 30-minute shifts) follow the tz database rather than offset arithmetic.

/** A time already taken: an active booking's start and length. */
export type BusyPeriod = { start: string; lengthMinutes: number };

export type AvailabilityQuery = {
  schedule: WeeklySchedule;
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

type Window = { start: number; end: number };

function bookingWindow(q: Pick<AvailabilityQuery, "now" | "from" | "to">): Window {
  const now = Date.parse(q.now);
  let start = now;
  let end = DateTime.fromMillis(now, { zone: "utc" }).plus({ days: BOOKING_WINDOW_DAYS }).toMillis();
  if (q.from !== undefined) start = Math.max(start, Date.parse(q.from));
  if (q.to !== undefined) end = Math.min(end, Date.parse(q.to));
  return { start, end };
}

function overlapsBusy(startMs: number, lengthMinutes: number, busy: readonly { start: number; end: number }[]): boolean {
  const endMs = startMs + lengthMinutes * 60_000;
  return busy.some((b) => startMs < b.end && b.start < endMs);
}

function busyIntervals(busy: readonly BusyPeriod[], window: Window, maxLengthMinutes: number) {
  const margin = maxLengthMinutes * 60_000;
  return busy
    .map((b) => {
      const start = Date.parse(b.start);
      return { start, end: start + b.lengthMinutes * 60_000 };
    })
    .filter((b) => b.end > window.start - margin && b.start < window.end + margin);
}


function atLocal(day: DateTime, hhmm: string, zone: string): DateTime {
  const minutes = minutesOfDay(hhmm);
  return DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour: Math.floor(minutes / 60), minute: minutes % 60 },
    { zone },
  );
}

/** The local calendar days (in `zone`) that a window touches. */
function localDays(window: Window, zone: string): DateTime[] {
  const first = DateTime.fromMillis(window.start, { zone }).startOf("day").minus({ days: 1 });
  const last = DateTime.fromMillis(window.end, { zone }).startOf("day").plus({ days: 1 });
  const days: DateTime[] = [];
  for (let d = first; d <= last; d = d.plus({ days: 1 })) days.push(d);
  return days;
}

type WallReading = { date: string; weekday: number; minute: number };

// Readings are remembered process-wide, per zone: every expert in a zone walks the same
// 15-minute grid, and luxon finds each offset through Intl (formatToParts), the dearest step here.
const READINGS_PER_ZONE = 100_000;
const readings = new Map<string, Map<number, WallReading>>();

/** Wall-clock reading of instants in one (valid) zone. */
function wallClockReader(zone: string) {
  let memo = readings.get(zone);
  if (!memo) readings.set(zone, (memo = new Map()));
  const zoneReadings = memo;
  return (t: number): WallReading => {
    let w = zoneReadings.get(t);
    if (!w) {
      const local = DateTime.fromMillis(t, { zone });
      w = { date: local.toISODate()!, weekday: local.weekday, minute: local.hour * 60 + local.minute };
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

/**
 * Rule: a session starting at `t` sits inside a weekly slot when it starts on a 30-minute step of
 * the expert's wall clock and every moment of it reads, on that same local date, between the
 * slot's start and end. Reading the wall clock of instants (never converting wall times to
 * instants) keeps DST days exact: a skipped hour is simply absent, a repeated hour counts twice.
 */
function sitsInsideSlot(t: number, lengthMinutes: number, schedule: WeeklySchedule, wall: WallClock): boolean {
  if (t % (WALK_MINUTES * 60_000) !== 0) return false;
  const first = wall(t);
  if (first.minute % SLOT_STEP_MINUTES !== 0) return false;
  const weekday = WEEKDAYS[first.weekday - 1];
  return schedule.slots.some((slot) => {
    if (slot.weekday !== weekday) return false;
    const start = minutesOfDay(slot.start_local);
    const end = minutesOfDay(slot.end_local);
    if (first.minute < start) return false;
    // Offsets change only on 15-minute boundaries, so checking every 15 minutes checks every moment.
    for (let u = t; u < t + lengthMinutes * 60_000; u += WALK_MINUTES * 60_000) {
      const w = wall(u);
      if (w.date !== first.date || w.minute < start || w.minute >= end) return false;
    }
    return true;
  });
}

function bookableAt(t: number, q: AvailabilityQuery, window: Window, busy: readonly { start: number; end: number }[], wall: WallClock): boolean {
  return t >= window.start && t <= window.end && sitsInsideSlot(t, q.lengthMinutes, q.schedule, wall) && !overlapsBusy(t, q.lengthMinutes, busy);
}

/**
 * Rule: a time is bookable when it lies between now and 28 days ahead; it starts on a 30-minute
 * step of local time inside one of the expert's weekly slots for that weekday; the whole session
 * fits before the slot ends; and it overlaps no active booking.
 */
export function bookableStarts(q: AvailabilityQuery): string[] {
  const zone = q.schedule.timezone;
  if (!isKnownZone(zone)) return [];
  const window = bookingWindow(q);
  if (window.end < window.start) return [];
  const busy = busyIntervals(q.busy, window, Math.max(q.lengthMinutes, 240));
  const wall = wallClockReader(zone);
  const step = WALK_MINUTES * 60_000;
  const found = new Set<number>();
  for (const day of localDays(window, zone)) {
    const weekday = WEEKDAYS[day.weekday - 1];
    for (const slot of q.schedule.slots) {
      if (slot.weekday !== weekday) continue;
      // Walk a little beyond the slot's nominal instants: on DST days its wall times map to
      // instants up to an hour either way.
      const from = Math.floor((atLocal(day, slot.start_local, zone).toMillis() - 2 * 3_600_000) / step) * step;
      const to = atLocal(day, slot.end_local, zone).toMillis() + 2 * 3_600_000;
      for (let t = Math.max(from, Math.ceil(window.start / step) * step); t <= Math.min(to, window.end); t += step) {
        if (!found.has(t) && bookableAt(t, q, window, busy, wall)) found.add(t);
      }
    }
  }
  return [...found].sort((a, b) => a - b).map((t) => new Date(t).toISOString());
}

/** The booking decision asks the same rule about one instant that the availability list uses. */
export function isBookableStart(q: Omit<AvailabilityQuery, "from" | "to">, start: string): boolean {
  const t = Date.parse(start);
  if (!isKnownZone(q.schedule.timezone) || Number.isNaN(t)) return false;
  const window = bookingWindow(q);
  return bookableAt(t, q, window, busyIntervals(q.busy, window, Math.max(q.lengthMinutes, 240)), wallClockReader(q.schedule.timezone));
}

export type ProposalQuery = { timezone: string; lengthMinutes: number; busy: readonly BusyPeriod[]; now: string; from?: string; to?: string };

/**
 * Rule: an expert may propose any start from 9:00 to 17:30, half-hourly, in the expert's timezone,
 * within the booking window, that overlaps no other active booking.
 */
export function proposableStarts(q: ProposalQuery): string[] {
  const zone = q.timezone;
  if (!isKnownZone(zone)) return [];
  const window = bookingWindow(q);
  if (window.end < window.start) return [];
  const busy = busyIntervals(q.busy, window, Math.max(q.lengthMinutes, 240));
  const first = minutesOfDay(PROPOSED_TIME_FIRST);
  const last = minutesOfDay(PROPOSED_TIME_LAST);
  const found: number[] = [];
  for (const day of localDays(window, zone)) {
    for (let m = first; m <= last; m += SLOT_STEP_MINUTES) {
      const hhmm = `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
      const at = atLocal(day, hhmm, zone);
      if (at.toFormat("HH:mm") !== hhmm) continue; // the wall time does not exist that day (DST gap)
      const t = at.toMillis();
      if (t < window.start || t > window.end) continue;
      if (overlapsBusy(t, q.lengthMinutes, busy)) continue;
      found.push(t);
    }
  }
  return found.sort((a, b) => a - b).map((t) => new Date(t).toISOString());
}

export function isProposableStart(q: Omit<ProposalQuery, "from" | "to">, start: string): boolean {
  const iso = new Date(start).toISOString();
  return proposableStarts({ ...q, from: iso, to: iso }).includes(iso);
}
