import { DateTime } from "luxon";
import {
  MAX_UNPAID_HOLDS_PER_CREATOR,
  MOVABLE_STATUSES,
  movableUntil,
  RESCHEDULE_NOTICE_HOURS,
  isMeetingLink,
  MAX_UPCOMING_DATE_OVERRIDES,
  MAX_UPCOMING_TIME_OFF,
  NO_BOOKING_RULES,
  minutesOfDay,
  ok,
  refusal,
  refused,
  type CreatorBookingFacts,
  type Refusal,
  type BookingRules,
  type BookingStatus,
  type CalendarCommand,
  type DateOverride,
  type TimeOff,
  type CalendarEvent,
  type Result,
  type WeeklySchedule,
} from "@booking/contracts";
import {
  fallsInTimeOff,
  isBookableStart,
  localDateTime,
  isProposableStart,
  type BusyPeriod,
  type ExpertHours,
} from "../availability/availability.ts";
import type { Decider, DecisionContext } from "../decider.ts";
import { refundOnCancel, refundableCents } from "./refund-policy.ts";
import type { LeftOut } from "./left-out.ts";
import { awaitsExpert, lapsedRequestCancelled, requestLapsed, respondByOf } from "./request-answer.ts";

export * from "./refund-policy.ts";
export * from "./join-link.ts";
export * from "./request-answer.ts";

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
};

export const initialCalendarState = (): CalendarState => ({
  expertId: null,
  schedule: null,
  timeOff: new Map(),
  dateOverrides: new Map(),
  rules: NO_BOOKING_RULES,
  bookings: new Map(),
  leftOut: null,
});

/** What availability reads of the calendar besides its bookings (null before a schedule is set). */
export function expertHours(state: CalendarState): (ExpertHours & { rules: BookingRules }) | null {
  if (!state.schedule) return null;
  return {
    schedule: state.schedule,
    timeOff: [...state.timeOff.values()],
    dateOverrides: [...state.dateOverrides.values()],
    rules: state.rules,
  };
}

/** What the hold rules read of a booking: the calendar's own, or the facts of a creator's booking with another expert. */
type HeldTime = Pick<Booking, "status" | "heldUntil" | "paidCents" | "priceCents">;

const isPaid = (b: Pick<Booking, "paidCents" | "priceCents">) => b.paidCents >= b.priceCents;

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
  let { expertId, schedule, rules } = state;
  const update = (id: string, change: (b: Booking) => Partial<Booking>) => {
    const b = bookings.get(id);
    if (b) bookings.set(id, { ...b, ...change(b) });
  };
  for (const e of events) {
    switch (e.type) {
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
    }
  }
  return { expertId, schedule, timeOff, dateOverrides, rules, bookings, leftOut: state.leftOut };
}

// ---- decisions --------------------------------------------------------------------------------

type Decision = Result<CalendarEvent[]>;
type Actor = CalendarCommand["actor"];

const STATUS_WORDS: Record<BookingStatus, string> = {
  pending: "pending",
  time_proposed: "waiting for the creator to accept a new time",
  more_info_requested: "waiting for more information",
  confirmed: "confirmed",
  completed: "complete",
  cancelled: "cancelled",
};

function transitionRefused(b: Booking, action: string): Decision {
  return refused("booking_transition_refused", { status: STATUS_WORDS[b.status], action });
}

const isAdmin = (a: Actor) => a.role === "admin";
const isSystem = (a: Actor) => a.role === "system";
const isCreatorOf = (a: Actor, b: Booking) => a.role === "creator" && a.userId === b.creatorId;
const isExpertOf = (a: Actor, b: Booking) => a.role === "expert" && a.userId === b.expertUserId;

function partyWord(a: Actor, b: Booking): "creator" | "expert" | "admin" | "system" {
  if (isCreatorOf(a, b)) return "creator";
  if (isExpertOf(a, b)) return "expert";
  return isSystem(a) ? "system" : "admin";
}

/** Rule: an unpaid booking that still holds its time (the holds a creator may keep are capped). */
const isUnpaidHold = (b: HeldTime, now: string) => b.status === "pending" && !isPaid(b) && blocksTime(b, now);

const overlaps = (aStart: string, aMinutes: number, bStart: string, bMinutes: number) =>
  Date.parse(aStart) < Date.parse(bStart) + bMinutes * 60_000 && Date.parse(bStart) < Date.parse(aStart) + aMinutes * 60_000;

/**
 * Rules over the creator's bookings with every expert, which no one calendar sees (the route
 * passes them as facts, read while no other request of the creator's is in flight): at most
 * MAX_UNPAID_HOLDS_PER_CREATOR unpaid holds at once, and never two sessions at the same time.
 */
export function creatorRefusal(
  creatorBookings: readonly CreatorBookingFacts[],
  scheduledTime: string,
  lengthMinutes: number,
  now: string,
): Refusal | null {
  const holding = creatorBookings.filter((b) => blocksTime(b, now));
  if (holding.filter((b) => isUnpaidHold(b, now)).length >= MAX_UNPAID_HOLDS_PER_CREATOR)
    return refusal("creator_hold_limit", { max: String(MAX_UNPAID_HOLDS_PER_CREATOR) });
  if (creatorBusyAt(holding, scheduledTime, lengthMinutes, now)) return refusal("creator_time_overlap");
  return null;
}

/** Rule: the creator already has a session at that time: a booking that holds its time, or the time an open request to move one holds. */
function creatorBusyAt(
  creatorBookings: readonly CreatorBookingFacts[],
  scheduledTime: string,
  lengthMinutes: number,
  now: string,
): boolean {
  return creatorBookings.some((b) => {
    if (!blocksTime(b, now)) return false;
    const held = openReschedule(b, now);
    return [b.scheduledTime, ...(held ? [held] : [])].some((t) => overlaps(t, b.lengthMinutes, scheduledTime, lengthMinutes));
  });
}

function requestBooking(c: Extract<CalendarCommand, { type: "RequestBooking" }>, s: CalendarState, now: string): Decision {
  if (c.actor.role === "admin") return refused("admin_cannot_book");
  if (c.actor.role !== "creator") return refused("only_creators_book");
  if (!c.creatorAcceptedTerms) return refused("terms_not_accepted");
  if (s.bookings.has(c.bookingId)) return refused("booking_already_exists");
  if (!c.session.published || c.session.expertId !== c.expertId) return refused("session_not_published");
  const hours = expertHours(s);
  if (!hours) return refused("slot_unavailable");
  // The very rules availability offers times by (weekly hours, extra hours, time off, buffers, notice).
  const free = isBookableStart({ ...hours, lengthMinutes: c.session.lengthMinutes, busy: busyPeriods(s, now), now }, c.scheduledTime);
  if (!free) return refused("slot_unavailable");
  // After the expert's own calendar: a time taken with this expert says so, whoever holds it.
  const forCreator = creatorRefusal(c.creatorBookings, c.scheduledTime, c.session.lengthMinutes, now);
  if (forCreator) return { ok: false, refusal: forCreator };
  const heldUntil = DateTime.fromISO(now, { zone: "utc" }).plus({ minutes: c.holdMinutes }).toISO()!;
  return ok([
    {
      type: "BookingRequested",
      data: {
        bookingId: c.bookingId,
        expertId: c.expertId,
        expertUserId: c.expertUserId,
        creatorId: c.actor.userId,
        sessionId: c.session.sessionId,
        sessionTitle: c.session.title,
        lengthMinutes: c.session.lengthMinutes,
        priceCents: c.session.priceCents,
        prepQuestions: c.session.prepQuestions,
        scheduledTime: c.scheduledTime,
        heldUntil,
        ...(c.session.instantBooking && { instantBooking: true }),
      },
    },
  ]);
}

function recordPayment(c: Extract<CalendarCommand, { type: "RecordPayment" }>, b: Booking, s: CalendarState, now: string): Decision {
  if (!isSystem(c.actor) && !isAdmin(c.actor)) return refused("forbidden");
  // Idempotent per payment id: a redelivered webhook changes nothing.
  if (b.paymentIds.includes(c.paymentId)) return ok([]);
  if (c.amountCents !== b.priceCents) return refused("payment_amount_mismatch");
  const paid: CalendarEvent = {
    type: "PaymentSucceeded",
    data: { bookingId: b.bookingId, paymentId: c.paymentId, amountCents: c.amountCents, provider: c.provider },
  };
  const owedBack = (reason: string): CalendarEvent => ({
    type: "RefundDue",
    data: { bookingId: b.bookingId, paymentId: c.paymentId, amountCents: c.amountCents, reason },
  });
  // A payment is never lost: money that arrives for a booking that cannot take it is owed back.
  if (b.status === "cancelled" || b.status === "completed") return ok([paid, owedBack("booking_closed")]);
  if (isPaid(b)) return ok([paid, owedBack("already_paid")]);
  if (holdExpired(b, now)) {
    // Paid after the hold ran out: keep the booking if its time is still free, else cancel and refund.
    const taken = busyPeriods(s, now, b.bookingId).some((p) => overlaps(p.start, p.lengthMinutes, b.scheduledTime, b.lengthMinutes));
    if (taken) {
      const refundCents = refundOnCancel({ ...b, paidCents: b.paidCents + c.amountCents }, "system", now);
      return ok([paid, { type: "Cancelled", data: { bookingId: b.bookingId, by: "system", reason: "payment_timeout", refundCents } }]);
    }
  }
  if (!isPaid({ ...b, paidCents: b.paidCents + c.amountCents }) || !awaitsExpert(b)) return ok([paid]);
  // Instant booking: the payment is the acceptance, in the same decision (the time is held, or free again, as checked above).
  if (b.instantBooking && b.status === "pending") {
    return ok([
      paid,
      {
        type: "Confirmed",
        data: { bookingId: b.bookingId, by: "system", instant: true, ...(c.meetingRoom && { meetingRoom: c.meetingRoom }) },
      },
    ]);
  }
  // A request: the expert has until this deadline to accept it (recorded, so the booking's reply and the sweeper agree).
  return ok([{ ...paid, data: { ...paid.data, respondBy: respondByOf(now, b.scheduledTime) } }]);
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function refundBooking(c: Extract<CalendarCommand, { type: "RefundBooking" }>, b: Booking): Decision {
  if (!isAdmin(c.actor)) return refused("forbidden");
  // Checked here too, not only at the boundary: the decider is the rule whoever calls it.
  if (!Number.isInteger(c.amountCents) || c.amountCents <= 0) return refused("refund_amount_invalid");
  const reason = c.reason.trim();
  if (reason.length === 0 || reason.length > 500) return refused("refund_reason_required");
  const paymentId = b.paymentIds[0];
  if (paymentId === undefined) return refused("refund_booking_unpaid");
  const most = refundableCents(b);
  if (c.amountCents > most) return refused("refund_amount_too_high", { max: dollars(most) });
  return ok([{ type: "RefundDue", data: { bookingId: b.bookingId, paymentId, amountCents: c.amountCents, reason } }]);
}

/** The expert's own time: commands that change availability but no booking. */
type HoursCommand = Extract<
  CalendarCommand,
  { type: "AddTimeOff" | "RemoveTimeOff" | "AddDateOverride" | "RemoveDateOverride" | "SetBookingRules" }
>;
const HOURS_COMMANDS: ReadonlySet<CalendarCommand["type"]> = new Set<HoursCommand["type"]>([
  "AddTimeOff",
  "RemoveTimeOff",
  "AddDateOverride",
  "RemoveDateOverride",
  "SetBookingRules",
]);
const isHoursCommand = (c: CalendarCommand): c is HoursCommand => HOURS_COMMANDS.has(c.type);

/** Why a proposed time is refused, most specific first (the check itself is isProposableStart). */
function whyNotProposable(
  proposal: Parameters<typeof isProposableStart>[0],
  start: string,
): "proposed_time_in_time_off" | "proposed_time_too_soon" | "proposed_time_invalid" {
  if (fallsInTimeOff(proposal.schedule.timezone, proposal.timeOff, start, proposal.lengthMinutes)) return "proposed_time_in_time_off";
  const notice = proposal.rules?.minNoticeHours ?? 0;
  if (notice > 0 && Date.parse(start) >= Date.parse(proposal.now) && Date.parse(start) < Date.parse(proposal.now) + notice * 3_600_000)
    return "proposed_time_too_soon";
  return "proposed_time_invalid";
}

const sameTimeOff = (a: TimeOff, b: TimeOff) => a.start === b.start && a.end === b.end && a.reason === b.reason;
const sameOverride = (a: DateOverride, b: DateOverride) =>
  a.date === b.date && a.start_local === b.start_local && a.end_local === b.end_local;

/**
 * Rules of the expert's own time, all in their timezone, so a schedule (which names it) comes
 * first. Adding what is already there under the same id is a no-op (a retried request), and the
 * same id for something else is refused. Time off may cover bookings already made: it is added
 * all the same, and `bookingsInTimeOff` lists those bookings for the expert to handle.
 */
function decideOnHours(c: HoursCommand, s: CalendarState, now: string): Decision {
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

function decideOnBooking(
  c: Exclude<CalendarCommand, { type: "SetSchedule" | "RequestBooking" } | HoursCommand>,
  s: CalendarState,
  now: string,
): Decision {
  const b = s.bookings.get(c.bookingId);
  if (!b) return refused("booking_not_found");
  const a = c.actor;
  const creator = isCreatorOf(a, b) || isAdmin(a);
  const expert = isExpertOf(a, b) || isAdmin(a);
  const id = b.bookingId;

  switch (c.type) {
    case "RecordPayment":
      return recordPayment(c, b, s, now);

    case "RecordPaymentFailure":
      if (!isSystem(a) && !isAdmin(a)) return refused("forbidden");
      return ok([{ type: "PaymentFailed", data: { bookingId: id, paymentId: c.paymentId, reason: c.reason } }]);

    case "SubmitPrep":
      if (!creator) return refused("not_booking_party");
      if (!["pending", "more_info_requested", "time_proposed", "confirmed"].includes(b.status))
        return transitionRefused(b, "given preparation answers");
      // One answer per question asked; a booking from before sessions had to ask one takes a single answer.
      if (c.answers.length !== Math.max(1, b.prepQuestionCount)) return refused("prep_answers_required");
      return ok([{ type: "PrepSubmitted", data: { bookingId: id, answers: c.answers } }]);

    case "RequestInfo":
      if (!expert) return refused("not_booking_party");
      if (b.status !== "pending") return transitionRefused(b, "asked for more information");
      return ok([{ type: "InfoRequested", data: { bookingId: id, note: c.note } }]);

    case "ProposeTime": {
      if (!expert) return refused("not_booking_party");
      if (b.status !== "pending" && b.status !== "more_info_requested") return transitionRefused(b, "moved to another time");
      // The creator's own request to move it is answered first: two new times at once would leave one booking with three.
      if (openReschedule(b, now)) return refused("reschedule_pending");
      const hours = expertHours(s);
      if (!hours) return refused("schedule_required");
      const proposal = { ...hours, lengthMinutes: b.lengthMinutes, busy: busyPeriods(s, now, id), now };
      if (!isProposableStart(proposal, c.scheduledTime)) return refused(whyNotProposable(proposal, c.scheduledTime));
      return ok([{ type: "TimeProposed", data: { bookingId: id, scheduledTime: c.scheduledTime, previousTime: b.scheduledTime } }]);
    }

    case "ConfirmBooking": {
      // The expert accepts a request; the creator accepts a time the expert proposed.
      const byExpert = expert && (b.status === "pending" || b.status === "more_info_requested");
      const byCreator = creator && b.status === "time_proposed";
      if (!creator && !expert) return refused("not_booking_party");
      if (!byExpert && !byCreator) return transitionRefused(b, "confirmed");
      if (!isPaid(b)) return refused("payment_required");
      if (byExpert && requestLapsed(b, now)) return refused("booking_request_lapsed");
      const confirmed: CalendarEvent = {
        type: "Confirmed",
        data: { bookingId: id, by: partyWord(a, b), ...(c.meetingRoom && { meetingRoom: c.meetingRoom }) },
      };
      // The creator takes the proposed time after answering it with another (issue 27.11): their own request is withdrawn with it.
      if (!byCreator || b.rescheduleTo === null) return ok([confirmed]);
      const withdrawn = { bookingId: id, from: b.scheduledTime, to: b.rescheduleTo, by: isAdmin(a) ? "admin" : "creator" } as const;
      return ok([{ type: "RescheduleWithdrawn", data: withdrawn }, confirmed]);
    }

    case "CancelBooking":
      if (!creator && !expert) return refused("not_booking_party");
      if (b.status === "completed" || b.status === "cancelled") return transitionRefused(b, "cancelled");
      return ok([
        {
          type: "Cancelled",
          data: { bookingId: id, by: partyWord(a, b), reason: c.reason, refundCents: refundOnCancel(b, partyWord(a, b), now) },
        },
      ]);

    case "ExpireHold":
      if (!isSystem(a) && !isAdmin(a)) return refused("forbidden");
      // A paid request with a deadline lapses once the expert let it pass (issue 27.6).
      if (isPaid(b) && awaitsExpert(b) && b.respondBy !== null)
        return requestLapsed(b, now) ? ok([lapsedRequestCancelled(b)]) : refused("hold_not_expired");
      if (b.status !== "pending" || isPaid(b)) return transitionRefused(b, "expired");
      if (!holdExpired(b, now)) return refused("hold_not_expired");
      return ok([
        {
          type: "Cancelled",
          data: { bookingId: id, by: "system", reason: "payment_timeout", refundCents: refundOnCancel(b, "system", now) },
        },
      ]);

    case "CompleteBooking":
      // The system completes a session once its end has passed (the completion sweeper).
      if (!expert && !isSystem(a)) return refused("not_booking_party");
      if (b.status !== "confirmed") return transitionRefused(b, "completed");
      if (Date.parse(now) < Date.parse(b.scheduledTime) + b.lengthMinutes * 60_000) return refused("session_not_over");
      return ok([{ type: "Completed", data: { bookingId: id } }]);

    case "AddNotes":
      if (!expert) return refused("not_booking_party");
      if (b.status !== "confirmed" && b.status !== "completed") return transitionRefused(b, "given notes");
      return ok([{ type: "NotesAdded", data: { bookingId: id, notes: c.notes } }]);

    case "RefundBooking":
      return refundBooking(c, b);

    case "RecordRefund":
      if (!isSystem(a)) return refused("forbidden");
      // Idempotent per owing event: a redelivered provider answer never records a refund twice.
      if (b.refundKeys.includes(c.refundKey)) return ok([]);
      // Never more back than came in: whoever reports a refund, the booking's money cannot go below zero (issue 26.4).
      if (c.amountCents > b.paidCents - b.refundedCents)
        return refused("refund_amount_too_high", { max: dollars(b.paidCents - b.refundedCents) });
      return ok([
        {
          type: "RefundIssued",
          data: { bookingId: id, refundKey: c.refundKey, refundId: c.refundId, amountCents: c.amountCents, provider: c.provider },
        },
      ]);

    case "RecordRefundFailure":
      if (!isSystem(a)) return refused("forbidden");
      // A failure reported after the refund went through is stale: the money is back.
      if (b.refundKeys.includes(c.refundKey)) return ok([]);
      return ok([{ type: "RefundFailed", data: { bookingId: id, refundKey: c.refundKey, reason: c.reason } }]);

    case "RequestReschedule":
      return requestReschedule(c, b, s, now);

    case "AcceptReschedule":
    case "DeclineReschedule":
    case "WithdrawReschedule":
      return answerReschedule(c, b, now);

    case "SetJoinLink":
      if (!creator && !expert) return refused("not_booking_party");
      if (!expert) return refused("join_link_expert_only");
      if (b.status !== "confirmed") return refused("join_link_not_confirmed");
      // Checked here too, not only at the boundary: the decider is the rule whoever calls it.
      if (!isMeetingLink(c.url)) return refused("join_link_invalid");
      if (b.joinLink === c.url) return ok([]);
      return ok([{ type: "JoinLinkSet", data: { bookingId: id, url: c.url, by: isAdmin(a) ? "admin" : "expert" } }]);
  }
}

// ---- moving a booking ---------------------------------------------------------------------------

/** Rule (contracts' MOVABLE_STATUSES, which the web app reads too): a time the expert proposed may be answered with another (issue 27.11). */
const MOVABLE: ReadonlySet<BookingStatus> = new Set<BookingStatus>(MOVABLE_STATUSES);

/** Rule: a booking may be asked to move until RESCHEDULE_NOTICE_HOURS before its current start. */
export function rescheduleNoticeMet(b: Pick<Booking, "scheduledTime">, now: string): boolean {
  return Date.parse(now) <= movableUntil(b.scheduledTime);
}

/**
 * The creator (or an admin for them) asks to move the booking. The new time must pass every rule
 * of a new booking (availability's, by name), with the booking's own time left out of the clash
 * check so it may move within its old slot; it is then held beside the old time until answered.
 */
function requestReschedule(
  c: Extract<CalendarCommand, { type: "RequestReschedule" }>,
  b: Booking,
  s: CalendarState,
  now: string,
): Decision {
  const a = c.actor;
  if (!isCreatorOf(a, b) && !isAdmin(a)) return refused(isExpertOf(a, b) ? "reschedule_creator_only" : "not_booking_party");
  if (!MOVABLE.has(b.status)) return transitionRefused(b, "moved");
  if (!isPaid(b)) return refused("reschedule_unpaid");
  if (openReschedule(b, now)) return refused("reschedule_already_requested");
  if (!rescheduleNoticeMet(b, now)) return refused("reschedule_too_late", { hours: String(RESCHEDULE_NOTICE_HOURS) });
  if (Date.parse(c.scheduledTime) === Date.parse(b.scheduledTime)) return refused("reschedule_same_time");
  const hours = expertHours(s);
  const query = hours && { ...hours, lengthMinutes: b.lengthMinutes, now };
  // Open hours, time off, notice and window first, with no bookings at all: a time taken says so apart.
  if (!query || !isBookableStart({ ...query, busy: [] }, c.scheduledTime)) return refused("reschedule_time_unavailable");
  if (!isBookableStart({ ...query, busy: busyPeriods(s, now, b.bookingId) }, c.scheduledTime)) return refused("reschedule_time_taken");
  if (
    creatorBusyAt(
      c.creatorBookings.filter((f) => f.bookingId !== b.bookingId),
      c.scheduledTime,
      b.lengthMinutes,
      now,
    )
  )
    return refused("creator_time_overlap");
  return ok([
    {
      type: "RescheduleRequested",
      data: { bookingId: b.bookingId, from: b.scheduledTime, to: c.scheduledTime, by: isAdmin(a) ? "admin" : "creator" },
    },
  ]);
}

/** The expert (or an admin) accepts or declines the open request; the creator (or an admin) withdraws it. */
function answerReschedule(
  c: Extract<CalendarCommand, { type: "AcceptReschedule" | "DeclineReschedule" | "WithdrawReschedule" }>,
  b: Booking,
  now: string,
): Decision {
  const a = c.actor;
  if (!isCreatorOf(a, b) && !isExpertOf(a, b) && !isAdmin(a)) return refused("not_booking_party");
  const creatorsCall = c.type === "WithdrawReschedule";
  if (creatorsCall && !isCreatorOf(a, b) && !isAdmin(a)) return refused("reschedule_creator_only");
  if (!creatorsCall && !isExpertOf(a, b) && !isAdmin(a)) return refused("reschedule_expert_only");
  if (b.rescheduleTo === null) return refused("reschedule_not_requested");
  const data = {
    bookingId: b.bookingId,
    from: b.scheduledTime,
    to: b.rescheduleTo,
    by: isAdmin(a) ? "admin" : creatorsCall ? "creator" : "expert",
  } as const;
  switch (c.type) {
    case "AcceptReschedule":
      if (!openReschedule(b, now)) return refused("reschedule_lapsed");
      // The creator's answer to a proposed time, accepted: both have agreed to it, so it is confirmed.
      if (b.status === "time_proposed") {
        const confirmed = { bookingId: b.bookingId, by: data.by, ...(c.meetingRoom && { meetingRoom: c.meetingRoom }) };
        return ok([
          { type: "RescheduleAccepted", data },
          { type: "Confirmed", data: confirmed },
        ]);
      }
      return ok([{ type: "RescheduleAccepted", data }]);
    case "DeclineReschedule":
      return ok([{ type: "RescheduleDeclined", data: { ...data, reason: c.reason } }]);
    case "WithdrawReschedule":
      return ok([{ type: "RescheduleWithdrawn", data }]);
  }
}

export function decideCalendar(c: CalendarCommand, s: CalendarState, ctx: DecisionContext): Decision {
  if (s.expertId !== null && s.expertId !== c.expertId) return refused("invalid_request");
  switch (c.type) {
    case "SetSchedule":
      if (c.actor.role !== "expert" && !isAdmin(c.actor)) return refused("forbidden");
      return ok([{ type: "ScheduleSet", data: { expertId: c.expertId, timezone: c.schedule.timezone, slots: c.schedule.slots } }]);
    case "RequestBooking":
      return requestBooking(c, s, ctx.now);
    default:
      return isHoursCommand(c) ? decideOnHours(c, s, ctx.now) : decideOnBooking(c, s, ctx.now);
  }
}

export const calendarDecider: Decider<CalendarCommand, CalendarEvent, CalendarState> = {
  initialState: initialCalendarState,
  evolve: evolveCalendar,
  decide: decideCalendar,
};

export const calendarStream = (expertId: string) => `calendar-${expertId}`;
