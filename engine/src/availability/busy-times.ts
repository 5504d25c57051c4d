import type { BookingRules, BusyInterval } from "@booking/contracts";

// The times a session keeps clear of, with the expert's buffers: their active bookings and the busy
// times of their connected calendars (issue 32). Instants are milliseconds here; availability.ts
// walks the candidate starts and asks these rules about each.

/** A time already taken: an active booking's start and length. */
export type BusyPeriod = { start: string; lengthMinutes: number };

export type Window = { start: number; end: number };
export type Interval = { start: number; end: number };

/** A session, or an active booking, with the expert's buffers kept free around it. */
export function withBuffers(start: number, lengthMinutes: number, rules: BookingRules): Interval {
  return { start: start - rules.bufferBeforeMinutes * 60_000, end: start + (lengthMinutes + rules.bufferAfterMinutes) * 60_000 };
}

/**
 * Rule: a session with its buffers before and after overlaps no active booking with its buffers
 * (so consecutive sessions keep at least the after-buffer plus the before-buffer between them).
 */
export function clearOfBookings(t: number, lengthMinutes: number, busy: readonly Interval[], rules: BookingRules): boolean {
  const own = withBuffers(t, lengthMinutes, rules);
  return !busy.some((b) => own.start < b.end && b.start < own.end);
}

/**
 * Rule: a session with the expert's buffers before and after it overlaps no busy time of their
 * connected calendars (the buffers are the expert's own: they keep them free of other meetings too).
 * The busy times are sorted by start (see externalBusyNear), so the search stops at the first that
 * starts after the session.
 */
export function clearOfExternalBusy(t: number, lengthMinutes: number, busy: readonly Interval[], rules: BookingRules): boolean {
  if (busy.length === 0) return true;
  const own = withBuffers(t, lengthMinutes, rules);
  // The first busy time ending after the session's start, by binary search over the ends' running maximum.
  let [lo, hi] = [0, busy.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (busy[mid]!.end <= own.start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < busy.length && busy[i]!.start < own.end; i++) if (busy[i]!.end > own.start) return false;
  return true;
}

// The joined, sorted form of a busy list, made once per list: a calendar with many busy times is asked
// about on every availability question and booking decision, and parsing and sorting them is the cost.
const joinedLists = new WeakMap<readonly BusyInterval[], Interval[]>();

function joined(busy: readonly BusyInterval[]): Interval[] {
  let found = joinedLists.get(busy);
  if (found) return found;
  const sorted = busy
    .map((b) => ({ start: Date.parse(b.start), end: Date.parse(b.end) }))
    .filter((b) => b.start < b.end)
    .sort((a, b) => a.start - b.start);
  found = [];
  for (const b of sorted) {
    const last = found.at(-1);
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    else found.push(b);
  }
  joinedLists.set(busy, found);
  return found;
}

/**
 * External busy times near the window as disjoint intervals sorted by start (overlapping ones
 * joined), so the ends rise with the starts and clearOfExternalBusy can search them.
 */
export function externalBusyNear(
  busy: readonly BusyInterval[] | undefined,
  window: Window,
  maxLengthMinutes: number,
  rules: BookingRules,
): Interval[] {
  if (!busy?.length) return [];
  return joined(busy).filter(nearWindow(maxLengthMinutes, rules, window));
}

/** Whether a booking with its buffers can meet a session (of at most `maxLengthMinutes`, with buffers) starting in the window. */
export function nearWindow(maxLengthMinutes: number, rules: BookingRules, window: Window): (b: Interval) => boolean {
  const margin = (maxLengthMinutes + rules.bufferBeforeMinutes + rules.bufferAfterMinutes) * 60_000;
  return (b) => b.end > window.start - margin && b.start < window.end + margin;
}

/** Active bookings with their buffers, those near the window only. */
export function busyIntervals(busy: readonly BusyPeriod[], window: Window, maxLengthMinutes: number, rules: BookingRules): Interval[] {
  return busy.map((b) => withBuffers(Date.parse(b.start), b.lengthMinutes, rules)).filter(nearWindow(maxLengthMinutes, rules, window));
}

/**
 * Rule: any moment of a session meets a busy time of a connected calendar (buffers aside: a booking
 * made before the busy time appeared is listed to the expert by what it itself overlaps).
 */
export function meetsExternalBusy(busy: readonly BusyInterval[], start: string, lengthMinutes: number): boolean {
  const [from, to] = [Date.parse(start), Date.parse(start) + lengthMinutes * 60_000];
  return busy.some((b) => Date.parse(b.start) < to && from < Date.parse(b.end));
}
