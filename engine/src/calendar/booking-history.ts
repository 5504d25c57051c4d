import type { CalendarEvent, SessionNotes } from "@booking/contracts";
import { blocksTime, calendarDecider, openReschedule, type Booking, type CalendarState } from "./calendar.ts";

// A booking as it was after any event of its history, for the console's time travel. The calendar
// stream is folded with the engine's own evolve (`calendarDecider.evolve`), so what the engine
// kept is exactly what it decided on then; what the console shows and the engine does not keep
// (prep answers, notes, the cancel reason...) is folded from the same events beside it.

/** One event of a calendar stream, with the time it was recorded (its metadata's `at`). */
export type RecordedCalendarEvent = { event: CalendarEvent; at: string };

/** What the console shows of a booking that the calendar's state does not keep. */
export type BookingRecordOnly = {
  prepQuestions: readonly string[];
  prepAnswers: readonly string[] | null;
  infoRequestNote: string | null;
  notes: SessionNotes | null;
  /** The time it had before the expert proposed another, or before it moved. */
  previousTime: string | null;
  rescheduleRequestedAt: string | null;
  paymentFailures: readonly { paymentId: string; reason: string }[];
  refundFailures: readonly { refundKey: string; reason: string }[];
  cancelledBy: string | null;
  cancelReason: string | null;
  confirmedAt: string | null;
  cancelledAt: string | null;
};

/** A booking as of one moment: the engine's state of it, what only the console reads, and whether it held its time then. */
export type BookingAsOf = Booking &
  BookingRecordOnly & {
    /** It kept its time from other bookings at that moment (`blocksTime`). */
    holdsTime: boolean;
    /** The time an open request to move it held at that moment (`openReschedule`); null when none. */
    rescheduleHeld: string | null;
  };

/** One event of the booking's history: the booking just before and just after it (both read at the event's time), and what changed. */
export type BookingStep = {
  /** Where the event is in the stream given (0-based). */
  index: number;
  at: string;
  event: CalendarEvent;
  /** Null before the booking was requested. */
  before: BookingAsOf | null;
  after: BookingAsOf | null;
  changes: FieldChange[];
};

export type FieldChange = { field: string; before: unknown; after: unknown };

/** An event of this booking's history: any that names it (so an event type added later is followed without a change here). */
export function concernsBooking(event: { data: unknown }, bookingId: string): boolean {
  const data = event.data;
  return typeof data === "object" && data !== null && "bookingId" in data && data.bookingId === bookingId;
}

const NOTHING_ONLY_RECORDED: BookingRecordOnly = {
  prepQuestions: [],
  prepAnswers: null,
  infoRequestNote: null,
  notes: null,
  previousTime: null,
  rescheduleRequestedAt: null,
  paymentFailures: [],
  refundFailures: [],
  cancelledBy: null,
  cancelReason: null,
  confirmedAt: null,
  cancelledAt: null,
};

/** The part the engine does not keep, after one more event of the booking; an event it does not know leaves it as it was. */
export function evolveRecordOnly(r: BookingRecordOnly, { event: e, at }: RecordedCalendarEvent): BookingRecordOnly {
  switch (e.type) {
    case "BookingRequested":
      return { ...NOTHING_ONLY_RECORDED, prepQuestions: e.data.prepQuestions };
    case "PaymentFailed":
      return { ...r, paymentFailures: [...r.paymentFailures, { paymentId: e.data.paymentId, reason: e.data.reason }] };
    case "RefundFailed":
      return { ...r, refundFailures: [...r.refundFailures, { refundKey: e.data.refundKey, reason: e.data.reason }] };
    case "PrepSubmitted":
      return { ...r, prepAnswers: e.data.answers };
    case "InfoRequested":
      return { ...r, infoRequestNote: e.data.note };
    case "NotesAdded":
      return { ...r, notes: e.data.notes };
    case "TimeProposed":
      return { ...r, previousTime: e.data.previousTime, rescheduleRequestedAt: null };
    case "RescheduleRequested":
      return { ...r, rescheduleRequestedAt: at };
    case "RescheduleAccepted":
      return { ...r, previousTime: e.data.from, rescheduleRequestedAt: null };
    case "RescheduleDeclined":
    case "RescheduleWithdrawn":
    case "Completed":
      return { ...r, rescheduleRequestedAt: null };
    case "Confirmed":
      return { ...r, confirmedAt: at };
    case "Cancelled":
      return { ...r, cancelledBy: e.data.by, cancelReason: e.data.reason, cancelledAt: at, rescheduleRequestedAt: null };
    default:
      return r;
  }
}

/** The booking as the folded calendar has it, read at `at`. */
function viewOf(state: CalendarState, recordOnly: BookingRecordOnly, bookingId: string, at: string): BookingAsOf | null {
  const b = state.bookings.get(bookingId);
  if (!b) return null;
  return { ...b, ...recordOnly, holdsTime: blocksTime(b, at), rescheduleHeld: blocksTime(b, at) ? openReschedule(b, at) : null };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Field by field, what differs between two records (a field only one of them has counts as changed); null is "no record". */
export function changedFields(
  before: Readonly<Record<string, unknown>> | null,
  after: Readonly<Record<string, unknown>> | null,
): FieldChange[] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const was = before?.[field] ?? null;
    const is = after?.[field] ?? null;
    if (!same(was, is)) changes.push({ field, before: was, after: is });
  }
  return changes;
}

/**
 * Every event of one booking in a calendar stream (in stream order), each with the booking just
 * before and just after it. The whole stream is folded with the engine's evolve: the events of
 * other bookings and the expert's hours in one step up to each of this booking's events, so a long
 * calendar folds in linear time.
 */
export function bookingHistory(stream: readonly RecordedCalendarEvent[], bookingId: string): BookingStep[] {
  const evolve = calendarDecider.evolve;
  let state = calendarDecider.initialState();
  let recordOnly = NOTHING_ONLY_RECORDED;
  let between: CalendarEvent[] = [];
  const steps: BookingStep[] = [];
  stream.forEach((recorded, index) => {
    if (!concernsBooking(recorded.event, bookingId)) {
      between.push(recorded.event);
      return;
    }
    state = evolve(state, between);
    between = [];
    const before = viewOf(state, recordOnly, bookingId, recorded.at);
    state = evolve(state, [recorded.event]);
    recordOnly = evolveRecordOnly(recordOnly, recorded);
    const after = viewOf(state, recordOnly, bookingId, recorded.at);
    steps.push({ index, at: recorded.at, event: recorded.event, before, after, changes: changedFields(before, after) });
  });
  return steps;
}

/** The last step recorded at or before `instant` (null: the booking's history had not begun). */
export function stepAt(steps: readonly BookingStep[], instant: string): BookingStep | null {
  const t = Date.parse(instant);
  let found: BookingStep | null = null;
  for (const step of steps) {
    if (Date.parse(step.at) > t) break;
    found = step;
  }
  return found;
}
