import type { BookingRules, BusyInterval, CalendarCommand, CalendarEvent, DateOverride, TimeOff, WeeklySchedule } from "@booking/contracts";
import { evolveCalendar, initialCalendarState, type Booking, type CalendarState } from "./calendar.ts";
import { hasEnded } from "./decision-rules.ts";
import { decodeLeftOut, encodeLeftOut, leaveOut, mayBeLeftOut, nothingLeftOut } from "./left-out.ts";

// Snapshots of an expert's calendar that hold only its open bookings. A calendar stream keeps every
// booking forever, but a decision reads old ones rarely: time is held only by bookings that block it
// (never a completed or cancelled one), and a command about one closed booking (notes a month
// later, an admin's refund, a late payment) is decided on the whole stream instead. So a cold
// decision reads the snapshot and the events after it, however long the calendar.

/** A booking stays in snapshots this long after its end, so notes and refund answers soon after it stay fast. */
export const CLOSED_AFTER_DAYS = 30;

/** Rule: a booking is closed once it has ended (completed, cancelled or a no-show, no report open), owes nothing back, and ended over CLOSED_AFTER_DAYS ago. */
export function isClosed(b: Booking, now: string): boolean {
  if (!hasEnded(b.status)) return false;
  if (b.noShow && !b.noShow.settled) return false;
  if (b.owedCents > b.refundedCents) return false;
  return Date.parse(b.scheduledTime) + b.lengthMinutes * 60_000 + CLOSED_AFTER_DAYS * 86_400_000 < Date.parse(now);
}

/** The calendar without its closed bookings, whose ids go into `leftOut`. */
export function closeBooks(state: CalendarState, now: string): CalendarState {
  const open = new Map<string, Booking>();
  const closed: string[] = [];
  for (const [id, b] of state.bookings) {
    if (isClosed(b, now)) closed.push(id);
    else open.set(id, b);
  }
  if (closed.length === 0 && state.leftOut) return state;
  return { ...state, bookings: open, leftOut: leaveOut(state.leftOut ?? nothingLeftOut(), closed) };
}

/** True when a state from a snapshot may lack what the command needs: a booking it names that may be closed. */
export function needsWholeCalendar(command: CalendarCommand, state: CalendarState): boolean {
  if (!state.leftOut || !("bookingId" in command)) return false;
  // RequestBooking too: a new booking's id must not be a closed one's.
  return !state.bookings.has(command.bookingId) && mayBeLeftOut(state.leftOut, command.bookingId);
}

type EncodedCalendar = {
  expertId: string | null;
  schedule: WeeklySchedule | null;
  timeOff: TimeOff[];
  dateOverrides: DateOverride[];
  rules: BookingRules;
  bookings: Booking[];
  leftOut: { bits: string; count: number };
  paused: boolean;
  externalBusy: [string, BusyInterval[]][];
};

/**
 * The state's shape, which a snapshot is written under: a snapshot of another shape is ignored, not
 * misread. The field names of the state and of a booking are in it, so adding or renaming one
 * changes it by itself; bump the number when a field keeps its name but changes its meaning.
 */
const sample = evolveCalendar(initialCalendarState(), [
  {
    type: "BookingRequested",
    data: {
      bookingId: "b",
      expertId: "e",
      expertUserId: "e",
      creatorId: "c",
      sessionId: "s",
      sessionTitle: "t",
      lengthMinutes: 60,
      priceCents: 0,
      prepQuestions: [],
      scheduledTime: "",
      heldUntil: "",
    },
  } as CalendarEvent,
]);
export const CALENDAR_SNAPSHOT_SHAPE = `calendar-1:${Object.keys(sample).sort().join(",")}:${Object.keys(sample.bookings.get("b")!).sort().join(",")}`;

export function encodeCalendar(state: CalendarState, now: string): EncodedCalendar {
  const s = closeBooks(state, now);
  return {
    expertId: s.expertId,
    schedule: s.schedule,
    timeOff: [...s.timeOff.values()],
    dateOverrides: [...s.dateOverrides.values()],
    rules: s.rules,
    bookings: [...s.bookings.values()],
    leftOut: encodeLeftOut(s.leftOut ?? nothingLeftOut()),
    paused: s.paused,
    externalBusy: [...s.externalBusy].map(([source, busy]) => [source, [...busy]]),
  };
}

export function decodeCalendar(data: unknown): CalendarState {
  const d = data as EncodedCalendar;
  const lists = [d?.bookings, d?.timeOff, d?.dateOverrides, d?.externalBusy];
  if (!lists.every(Array.isArray) || typeof d.leftOut?.bits !== "string") throw new Error("Not a calendar snapshot");
  return {
    expertId: d.expertId,
    schedule: d.schedule,
    timeOff: new Map(d.timeOff.map((t) => [t.timeOffId, t])),
    dateOverrides: new Map(d.dateOverrides.map((o) => [o.overrideId, o])),
    rules: d.rules,
    bookings: new Map(d.bookings.map((b) => [b.bookingId, b])),
    leftOut: decodeLeftOut(d.leftOut),
    paused: d.paused === true,
    externalBusy: new Map(d.externalBusy),
  };
}

/** What the command handler needs to snapshot calendars (event-store's SnapshotCodec). */
export const calendarSnapshots = {
  shape: CALENDAR_SNAPSHOT_SHAPE,
  encode: encodeCalendar,
  decode: decodeCalendar,
  needsWholeStream: needsWholeCalendar,
};
