import type pg from "pg";
import {
  BookingAsOfQuery,
  BookingAsOfReply,
  CalendarAsOfQuery,
  CalendarAsOfReply,
  CalendarEvent,
  formatPosition,
  parsePosition,
  readDomainEvent,
  type BookingAsOfState,
  type StoredEvent,
} from "@booking/contracts";
import {
  bookingHistory,
  calendarAt,
  calendarDayAsOf,
  calendarStream,
  changedFields,
  localDateOf,
  stepAt,
  type BookingAsOf,
  type RecordedCalendarEvent,
} from "@booking/engine";
import type { EventStore } from "@booking/event-store";
import { findBooking, findExpert } from "@booking/projections";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { timelineEntry } from "./bookings.ts";
import { RecordIdParams } from "./list-query.ts";

// Time travel: a booking as it was after any event of its history, and an expert's calendar as
// it stood at an instant. Both fold the calendar stream itself with the engine (bookingHistory,
// calendarAt over calendarDecider.evolve), never a read model: the read model only says which
// expert's calendar a booking lives in.

const CALENDAR_TYPES: ReadonlySet<string> = new Set(CalendarEvent.options.map((o) => o.shape.type.value));

/** The calendar stream as the engine folds it, each event beside the stored one it came from. */
async function calendarLog(store: EventStore, expertId: string): Promise<{ stored: StoredEvent; recorded: RecordedCalendarEvent }[]> {
  const { events } = await store.readStream(calendarStream(expertId));
  return events.flatMap((stored) => {
    const event = readDomainEvent(stored.type, stored.schemaVersion, stored.data);
    // Only calendar events are written to a calendar stream; the guard keeps the types honest.
    return CALENDAR_TYPES.has(event.type) ? [{ stored, recorded: { event: event as CalendarEvent, at: stored.metadata.at } }] : [];
  });
}

/** The engine's booking as of a moment, in the reply's words. */
function stateReply(b: BookingAsOf): BookingAsOfState {
  return {
    booking_id: b.bookingId,
    status: b.status,
    creator_id: b.creatorId,
    expert_user_id: b.expertUserId,
    session_id: b.sessionId,
    session_title: b.sessionTitle,
    scheduled_time: b.scheduledTime,
    previous_time: b.previousTime,
    length_minutes: b.lengthMinutes,
    price_cents: b.priceCents,
    held_until: b.heldUntil,
    holds_time: b.holdsTime,
    reschedule_to: b.rescheduleTo,
    reschedule_requested_at: b.rescheduleRequestedAt,
    reschedule_held: b.rescheduleHeld,
    join_link: b.joinLink,
    paid_cents: b.paidCents,
    payment_ids: [...b.paymentIds],
    payment_failures: b.paymentFailures.map((f) => ({ payment_id: f.paymentId, reason: f.reason })),
    owed_cents: b.owedCents,
    refunded_cents: b.refundedCents,
    refund_keys: [...b.refundKeys],
    refund_failures: b.refundFailures.map((f) => ({ refund_key: f.refundKey, reason: f.reason })),
    prep_questions: [...b.prepQuestions],
    prep_answers: b.prepAnswers && [...b.prepAnswers],
    info_request_note: b.infoRequestNote,
    has_notes: b.hasNotes,
    notes: b.notes,
    cancelled_by: b.cancelledBy,
    cancel_reason: b.cancelReason,
    confirmed_at: b.confirmedAt,
    cancelled_at: b.cancelledAt,
  };
}

/** The step of the booking's history the query names: an event by position or id, or the last one by an instant. */
function chosenIndex(steps: ReturnType<typeof bookingHistory>, log: { stored: StoredEvent }[], q: BookingAsOfQuery): number {
  if (q.at !== undefined) {
    const step = stepAt(steps, q.at);
    return step ? steps.indexOf(step) : refuse("as_of_before_booking");
  }
  const position = q.position === undefined ? null : parsePosition(q.position);
  const found = steps.findIndex(({ index }) => {
    const stored = log[index]!.stored;
    return position
      ? stored.position.commit === position.commit && stored.position.prepare === position.prepare
      : stored.eventId === q.event_id;
  });
  return found >= 0 ? found : refuse("as_of_event_not_in_booking");
}

export type AsOfAdminDeps = { db: pg.Pool; store: EventStore };

export const asOfAdmin: RoutePlugin<AsOfAdminDeps> = async (app, { db, store }) => {
  app.get(
    "/bookings/:id/as-of",
    { schema: { params: RecordIdParams, querystring: BookingAsOfQuery, response: { 200: BookingAsOfReply } } },
    async (request) => {
      const row = await findBooking(db, request.params.id);
      if (!row) refuse("booking_not_found");
      const log = await calendarLog(store, row.expert_id);
      const steps = bookingHistory(
        log.map((l) => l.recorded),
        row.booking_id,
      );
      if (steps.length === 0) refuse("booking_not_found");
      const i = chosenIndex(steps, log, request.query);
      const step = steps[i]!;
      const booking = stateReply(step.after!);
      const before = step.before && stateReply(step.before);
      const idOf = (s: (typeof steps)[number] | undefined) => (s ? log[s.index]!.stored.eventId : null);
      return {
        booking_id: row.booking_id,
        expert_id: row.expert_id,
        at: request.query.at ?? null,
        event: timelineEntry(log[step.index]!.stored, step.event),
        step: i + 1,
        steps: steps.length,
        previous_event_id: idOf(steps[i - 1]),
        next_event_id: idOf(steps[i + 1]),
        booking,
        before,
        // Over the reply's own fields, so the console names them as it shows them.
        changes: changedFields(before, booking),
      };
    },
  );

  app.get(
    "/experts/:id/calendar/as-of",
    { schema: { params: RecordIdParams, querystring: CalendarAsOfQuery, response: { 200: CalendarAsOfReply } } },
    async (request) => {
      const expertId = request.params.id;
      const { at, length_minutes: lengthMinutes = 60 } = request.query;
      const log = await calendarLog(store, expertId);
      if (log.length === 0 && !(await findExpert(db, expertId))) refuse("profile_not_found");
      const { state, folded } = calendarAt(
        log.map((l) => l.recorded),
        at,
      );
      const zone = state.schedule?.timezone ?? null;
      const date = request.query.date ?? (zone ? localDateOf(at, zone) : at.slice(0, 10));
      const day = calendarDayAsOf(state, at, date, lengthMinutes);
      const last = folded > 0 ? log[folded - 1]!.stored : null;
      return {
        expert_id: expertId,
        at,
        date,
        timezone: day.timezone,
        length_minutes: lengthMinutes,
        last_event: last && {
          event_id: last.eventId,
          type: last.type,
          version: last.version,
          position: formatPosition(last.position),
          time: last.metadata.at,
        },
        events_folded: folded,
        rules: {
          buffer_before_minutes: day.rules.bufferBeforeMinutes,
          buffer_after_minutes: day.rules.bufferAfterMinutes,
          min_notice_hours: day.rules.minNoticeHours,
        },
        time_off: day.timeOff.map((o) => ({ time_off_id: o.timeOffId, start: o.start, end: o.end, reason: o.reason })),
        external_busy: day.externalBusy.map((b) => ({ calendar_id: b.sourceId, start: b.start, end: b.end })),
        bookable: day.bookable,
        held: day.held.map((h) => ({
          booking_id: h.bookingId,
          creator_id: h.creatorId,
          status: h.status,
          holds: h.holds,
          start: h.start,
          end: new Date(Date.parse(h.start) + h.lengthMinutes * 60_000).toISOString(),
          length_minutes: h.lengthMinutes,
          buffer_before_minutes: h.bufferBeforeMinutes,
          buffer_after_minutes: h.bufferAfterMinutes,
        })),
      };
    },
  );
};
