import {
  DEFAULT_CURRENCY,
  FULL_REFUND_NOTICE_HOURS,
  NO_BOOKING_RULES,
  RESCHEDULE_NOTICE_HOURS,
  type Currency,
  type BookingRules,
  type BookingStatus,
  type DateOverride,
  type TimeOff,
  type CalendarEvent,
  type DisputeStatus,
  type WeeklySchedule,
  type BusyInterval,
} from "@booking/contracts";
import { type BusyPeriod, type ExpertHours } from "../availability/availability.ts";
import type { LeftOut } from "./left-out.ts";
import type { NoShowState } from "./no-shows.ts";

// The calendar stream's state: every booking with the expert and the expert's own time, and how
// each event changes it (evolve); the hold and busy-time rules that read it.

// Stream `calendar-{expertId}`: the expert's weekly schedule, time off, extra hours and booking
// rules, and every booking with that expert. One decision sees them all, so two overlapping
// bookings can never both be committed, and none lands where availability offers nothing.

export type Booking = {
  bookingId: string;
  status: BookingStatus;
  creatorId: string;
  expertUserId: string;
  sessionId: string;
  sessionTitle: string;
  scheduledTime: string;
  lengthMinutes: number;
  priceCents: number;
  /** The price's currency, and so of every amount of this booking (issue 29.8). */
  currency: Currency;
  heldUntil: string;
  /** How many preparation questions the session asked when booked: the creator answers each, no more (issue 27.10). */
  prepQuestionCount: number;
  /** Every cent received, never lowered by a refund (so a refunded booking still counts as paid for). */
  paidCents: number;
  paymentIds: readonly string[];
  /** Owed back by a refundable `Cancelled` or a `RefundDue`, whether or not the provider has paid it yet. */
  owedCents: number;
  /** Reached the creator (`RefundIssued`). */
  refundedCents: number;
  /** The owing events' ids whose refund was issued: a second report of one changes nothing. */
  refundKeys: readonly string[];
  hasNotes: boolean;
  /** The time an open request to move the booking holds as well (see `openReschedule`); null when none. */
  rescheduleTo: string | null;
  /** The expert's video meeting link; null until set (a generated room link may stand in, see join-link.ts). */
  joinLink: string | null;
  /** Accepted on payment (the session's instant booking, issue 27.6). */
  instantBooking: boolean;
  /** The paid request's deadline for the expert to accept (request-answer.ts); null when none was recorded. */
  respondBy: string | null;
  /** The generated room's name its confirmation recorded (issue 27.13); null: none. */
  meetingRoom: string | null;
  /** The session's cut-offs when booked (issue 31.4): full refund until, and moves until, this many hours before the start. */
  fullRefundHours: number;
  rescheduleHours: number;
  /** A no-show report on the session (issue 31.1, no-shows.ts); null: none made. */
  noShow: NoShowState | null;
  /** Each dispute of its payments by id, as last reported (issue 31.2, disputes.ts). */
  disputes: Readonly<Record<string, DisputeStatus>>;
};

export type CalendarState = {
  expertId: string | null;
  schedule: WeeklySchedule | null;
  /** By id, in the order added. */
  timeOff: ReadonlyMap<string, TimeOff>;
  dateOverrides: ReadonlyMap<string, DateOverride>;
  rules: BookingRules;
  bookings: ReadonlyMap<string, Booking>;
  /**
   * Closed bookings this state leaves out (a state from a snapshot, see calendar-snapshot.ts):
   * a command about one of them is decided on the whole stream. Null when every booking is here.
   */
  leftOut: LeftOut | null;
  /** The expert is suspended (issue 30): no booking request is accepted, and the expert accepts none. */
  paused: boolean;
  /** Busy times of the expert's connected calendars by calendar (source) id, as last synced (issue 32, external-busy.ts). */
  externalBusy: ReadonlyMap<string, readonly BusyInterval[]>;
};

export const initialCalendarState = (): CalendarState => ({
  expertId: null,
  schedule: null,
  timeOff: new Map(),
  dateOverrides: new Map(),
  rules: NO_BOOKING_RULES,
  bookings: new Map(),
  leftOut: null,
  paused: false,
  externalBusy: new Map(),
});

/** What availability reads of the calendar besides its bookings (null before a schedule is set). */
export function expertHours(state: CalendarState): (ExpertHours & { rules: BookingRules }) | null {
  if (!state.schedule) return null;
  return {
    schedule: state.schedule,
    timeOff: [...state.timeOff.values()],
    dateOverrides: [...state.dateOverrides.values()],
    rules: state.rules,
    externalBusy: externalBusyList(state.externalBusy),
  };
}

const busyLists = new WeakMap<CalendarState["externalBusy"], readonly BusyInterval[]>();
/** Every connected calendar's busy times as one list, made once per set of them (the availability rules parse and sort it once too). */
function externalBusyList(byCalendar: CalendarState["externalBusy"]): readonly BusyInterval[] {
  let list = busyLists.get(byCalendar);
  if (!list) busyLists.set(byCalendar, (list = [...byCalendar.values()].flat()));
  return list;
}

/** What the hold rules read of a booking: the calendar's own, or the facts of a creator's booking with another expert. */
export type HeldTime = Pick<Booking, "status" | "heldUntil" | "paidCents" | "priceCents">;

export const isPaid = (b: Pick<Booking, "paidCents" | "priceCents">) => b.paidCents >= b.priceCents;

/** Rule: an unpaid pending booking holds its time only until its hold expires. */
export function holdExpired(b: HeldTime, now: string): boolean {
  return b.status === "pending" && !isPaid(b) && Date.parse(now) >= Date.parse(b.heldUntil);
}

/**
 * Rule: a request to move a booking is open until it is answered or withdrawn, or ends with the
 * booking; it lapses (holds nothing, can no longer be accepted) once its new time or the booking's
 * current start has come. The time it holds while open, else null.
 */
export function openReschedule(b: { rescheduleTo?: string | null; scheduledTime: string }, now: string): string | null {
  if (!b.rescheduleTo) return null;
  const t = Date.parse(now);
  return t < Date.parse(b.rescheduleTo) && t < Date.parse(b.scheduledTime) ? b.rescheduleTo : null;
}

/** Rule: these bookings block their time; anything else (or an expired hold) frees it. */
export function blocksTime(b: HeldTime, now: string): boolean {
  switch (b.status) {
    case "pending":
      return !holdExpired(b, now);
    case "time_proposed":
    case "more_info_requested":
    case "confirmed":
      return true;
    default:
      return false;
  }
}

/**
 * Times taken on the calendar: every booking that blocks its time, and the time an open request to
 * move one holds beside it. `exceptBookingId`'s own times are left out (a booking never clashes with itself).
 */
export function busyPeriods(state: CalendarState, now: string, exceptBookingId?: string): BusyPeriod[] {
  const busy: BusyPeriod[] = [];
  for (const b of state.bookings.values()) {
    if (b.bookingId === exceptBookingId || !blocksTime(b, now)) continue;
    busy.push({ start: b.scheduledTime, lengthMinutes: b.lengthMinutes });
    const held = openReschedule(b, now);
    if (held) busy.push({ start: held, lengthMinutes: b.lengthMinutes });
  }
  return busy;
}

export function evolveCalendar(state: CalendarState, events: readonly CalendarEvent[]): CalendarState {
  if (events.length === 0) return state;
  // One copy per fold, not per event: a long stream folds in linear time.
  const bookings = new Map(state.bookings);
  const timeOff = new Map(state.timeOff);
  const dateOverrides = new Map(state.dateOverrides);
  // Copied only when a calendar's busy times change (rare), so the same map, and the busy list made
  // from it once (externalBusyList), carries over from fold to fold.
  let externalBusy = state.externalBusy;
  let { expertId, schedule, rules, paused } = state;
  const update = (id: string, change: (b: Booking) => Partial<Booking>) => {
    const b = bookings.get(id);
    if (b) bookings.set(id, { ...b, ...change(b) });
  };
  for (const e of events) {
    switch (e.type) {
      case "BookingsPaused":
      case "BookingsResumed":
        expertId = e.data.expertId;
        paused = e.type === "BookingsPaused";
        break;
      case "ScheduleSet":
        expertId = e.data.expertId;
        schedule = { timezone: e.data.timezone, slots: e.data.slots };
        break;
      case "TimeOffAdded": {
        const { timeOffId, start, end, reason } = e.data;
        timeOff.set(timeOffId, { timeOffId, start, end, reason });
        break;
      }
      case "TimeOffRemoved":
        timeOff.delete(e.data.timeOffId);
        break;
      case "DateOverrideAdded": {
        const { overrideId, date, start_local, end_local } = e.data;
        dateOverrides.set(overrideId, { overrideId, date, start_local, end_local });
        break;
      }
      case "DateOverrideRemoved":
        dateOverrides.delete(e.data.overrideId);
        break;
      case "ExternalBusyTimesSynced":
        externalBusy = new Map(externalBusy).set(e.data.sourceId, e.data.busy);
        break;
      case "ExternalBusyTimesRemoved": {
        const removed = new Map(externalBusy);
        removed.delete(e.data.sourceId);
        externalBusy = removed;
        break;
      }
      case "BookingRulesSet": {
        const { bufferBeforeMinutes, bufferAfterMinutes, minNoticeHours } = e.data;
        rules = { bufferBeforeMinutes, bufferAfterMinutes, minNoticeHours };
        break;
      }
      case "BookingRequested":
        expertId = e.data.expertId;
        bookings.set(e.data.bookingId, {
          bookingId: e.data.bookingId,
          status: "pending",
          creatorId: e.data.creatorId,
          expertUserId: e.data.expertUserId,
          sessionId: e.data.sessionId,
          sessionTitle: e.data.sessionTitle,
          scheduledTime: e.data.scheduledTime,
          lengthMinutes: e.data.lengthMinutes,
          priceCents: e.data.priceCents,
          currency: e.data.currency ?? DEFAULT_CURRENCY,
          heldUntil: e.data.heldUntil,
          prepQuestionCount: e.data.prepQuestions.length,
          paidCents: 0,
          paymentIds: [],
          owedCents: 0,
          refundedCents: 0,
          refundKeys: [],
          hasNotes: false,
          rescheduleTo: null,
          joinLink: null,
          instantBooking: e.data.instantBooking ?? false,
          respondBy: null,
          meetingRoom: null,
          fullRefundHours: e.data.fullRefundHours ?? FULL_REFUND_NOTICE_HOURS,
          rescheduleHours: e.data.rescheduleHours ?? RESCHEDULE_NOTICE_HOURS,
          noShow: null,
          disputes: {},
        });
        break;
      case "PaymentSucceeded":
        update(e.data.bookingId, (b) => ({
          paidCents: b.paidCents + e.data.amountCents,
          paymentIds: [...b.paymentIds, e.data.paymentId],
          respondBy: e.data.respondBy ?? b.respondBy,
        }));
        break;
      case "PaymentFailed":
        break;
      case "PrepSubmitted":
        update(e.data.bookingId, (b) => (b.status === "more_info_requested" ? { status: "pending" } : {}));
        break;
      case "InfoRequested":
        update(e.data.bookingId, () => ({ status: "more_info_requested" }));
        break;
      case "TimeProposed":
        // No request to move it can be open (it is refused meanwhile); a lapsed one goes with the old time.
        update(e.data.bookingId, () => ({ status: "time_proposed", scheduledTime: e.data.scheduledTime, rescheduleTo: null }));
        break;
      case "Confirmed":
        update(e.data.bookingId, (b) => ({ status: "confirmed", meetingRoom: e.data.meetingRoom ?? b.meetingRoom }));
        break;
      case "Cancelled":
        // An open request to move it ends with the booking.
        update(e.data.bookingId, (b) => ({ status: "cancelled", owedCents: b.owedCents + e.data.refundCents, rescheduleTo: null }));
        break;
      case "RefundDue":
        update(e.data.bookingId, (b) => ({ owedCents: b.owedCents + e.data.amountCents }));
        break;
      case "RefundIssued":
        update(e.data.bookingId, (b) => ({
          refundedCents: b.refundedCents + e.data.amountCents,
          refundKeys: [...b.refundKeys, e.data.refundKey],
        }));
        break;
      case "RefundFailed":
        break;
      case "Completed":
        update(e.data.bookingId, () => ({ status: "completed", rescheduleTo: null }));
        break;
      case "NotesAdded":
        update(e.data.bookingId, () => ({ hasNotes: true }));
        break;
      case "RescheduleRequested":
        update(e.data.bookingId, () => ({ rescheduleTo: e.data.to }));
        break;
      case "RescheduleAccepted":
        update(e.data.bookingId, () => ({ scheduledTime: e.data.to, rescheduleTo: null }));
        break;
      case "RescheduleDeclined":
      case "RescheduleWithdrawn":
        update(e.data.bookingId, () => ({ rescheduleTo: null }));
        break;
      case "JoinLinkSet":
        update(e.data.bookingId, () => ({ joinLink: e.data.url }));
        break;
      case "NoShowReported":
        update(e.data.bookingId, () => ({
          noShow: { absent: e.data.absent, contestBy: e.data.contestBy, contested: false, settled: false },
        }));
        break;
      case "NoShowContested":
        update(e.data.bookingId, (b) => ({ noShow: b.noShow && { ...b.noShow, contested: true } }));
        break;
      case "DisputeOpened":
      case "DisputeUpdated":
        update(e.data.bookingId, (b) => ({ disputes: { ...b.disputes, [e.data.disputeId]: e.data.status } }));
        break;
      case "DisputeClosed":
        // A lost dispute: the creator's bank took the money back, owed and returned at once (no refund is sent).
        update(e.data.bookingId, (b) => ({
          disputes: { ...b.disputes, [e.data.disputeId]: e.data.status },
          owedCents: b.owedCents + e.data.lostCents,
          refundedCents: b.refundedCents + e.data.lostCents,
        }));
        break;
      case "NoShowSettled":
        update(e.data.bookingId, (b) => ({
          status: e.data.outcome,
          noShow: b.noShow && { ...b.noShow, settled: true },
          rescheduleTo: null,
        }));
        break;
    }
  }
  return { expertId, schedule, timeOff, dateOverrides, rules, bookings, leftOut: state.leftOut, paused, externalBusy };
}
