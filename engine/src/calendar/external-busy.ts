import { MAX_BUSY_TIMES_PER_CALENDAR, ok, refused, type BusyInterval, type CalendarCommand } from "@booking/contracts";
import { meetsExternalBusy } from "../availability/availability.ts";
import { type Booking, type CalendarState, blocksTime } from "./calendar-state.ts";
import { type Decision, isAdmin, isSystem } from "./decision-rules.ts";

// Busy times of the expert's connected calendars (issue 32): each sync replaces one calendar's set on
// the calendar stream, so every booking rule (through expertHours) and time travel see what the
// decision saw. A sync that finds nothing changed records nothing, so a calendar read every few
// minutes does not grow the stream.

export type ExternalBusyCommand = Extract<CalendarCommand, { type: "SyncExternalBusyTimes" | "RemoveExternalBusyTimes" }>;
export const isExternalBusyCommand = (c: CalendarCommand): c is ExternalBusyCommand =>
  c.type === "SyncExternalBusyTimes" || c.type === "RemoveExternalBusyTimes";

const sameBusy = (a: readonly BusyInterval[], b: readonly BusyInterval[]) =>
  a.length === b.length && a.every((x, i) => x.start === b[i]!.start && x.end === b[i]!.end);

/** Instants as the stream keeps them (UTC ISO with milliseconds), earliest first, so equal sets compare equal. */
const normalised = (busy: readonly BusyInterval[]): BusyInterval[] =>
  busy
    .map((b) => ({ start: new Date(b.start).toISOString(), end: new Date(b.end).toISOString() }))
    .sort((a, b) => a.start.localeCompare(b.start) || a.end.localeCompare(b.end));

/**
 * Rules: the expert (connecting or syncing now), an admin or the sync sweeper records busy times, once
 * a schedule names the expert's zone; a calendar's set holds at most MAX_BUSY_TIMES_PER_CALENDAR, each ending after it starts. Removing a
 * calendar's set that is not there is a no-op (a disconnect retried).
 */
export function decideOnExternalBusy(c: ExternalBusyCommand, s: CalendarState): Decision {
  if (c.actor.role !== "expert" && !isAdmin(c.actor) && !isSystem(c.actor)) return refused("forbidden");
  const { expertId, sourceId } = c;
  if (c.type === "RemoveExternalBusyTimes")
    return s.externalBusy.has(sourceId) ? ok([{ type: "ExternalBusyTimesRemoved", data: { expertId, sourceId } }]) : ok([]);
  // All-day and floating events were read in the expert's zone, which only a schedule names.
  if (!s.schedule) return refused("calendar_schedule_first");
  if (c.busy.length > MAX_BUSY_TIMES_PER_CALENDAR)
    return refused("calendar_too_many_busy_times", { max: MAX_BUSY_TIMES_PER_CALENDAR.toLocaleString("en-US") });
  if (c.busy.some((b) => !(Date.parse(b.start) < Date.parse(b.end)))) return refused("invalid_request");
  const busy = normalised(c.busy);
  const current = s.externalBusy.get(sourceId);
  if (current && sameBusy(current, busy)) return ok([]);
  return ok([{ type: "ExternalBusyTimesSynced", data: { expertId, sourceId, from: c.from, to: c.to, busy } }]);
}

/** A booking the expert must handle: it still holds its time, is not over, and meets busy times of these calendars. */
export type BookingInExternalBusy = { booking: Booking; sourceIds: string[] };

/**
 * Rule: bookings that still hold their time and have not ended, any moment of which meets a busy
 * time of a connected calendar, earliest first. A new busy time never cancels a booking: the expert
 * sees the clash and moves or cancels it (as with time off).
 */
export function bookingsInExternalBusy(state: CalendarState, now: string): BookingInExternalBusy[] {
  if (state.externalBusy.size === 0) return [];
  const found: BookingInExternalBusy[] = [];
  for (const b of state.bookings.values()) {
    if (!blocksTime(b, now) || Date.parse(b.scheduledTime) + b.lengthMinutes * 60_000 <= Date.parse(now)) continue;
    const sourceIds = [...state.externalBusy]
      .filter(([, busy]) => meetsExternalBusy(busy, b.scheduledTime, b.lengthMinutes))
      .map(([id]) => id);
    if (sourceIds.length > 0) found.push({ booking: b, sourceIds });
  }
  return found.sort((a, b) => Date.parse(a.booking.scheduledTime) - Date.parse(b.booking.scheduledTime));
}
