import { DateTime } from "luxon";
import {
  DEFAULT_CURRENCY,
  PLATFORM_FEE_BASIS_POINTS,
  isMeetingLink,
  ok,
  refused,
  type CalendarCommand,
  type CalendarEvent,
} from "@booking/contracts";
import { fallsInTimeOff, isBookableStart, isProposableStart, meetsExternalBusy } from "../availability/availability.ts";
import { refundOnCancel, refundableCents } from "./refund-policy.ts";
import { awaitsExpert, lapsedRequestCancelled, requestLapsed, respondByOf } from "./request-answer.ts";
import { type Booking, type CalendarState, busyPeriods, expertHours, holdExpired, isPaid, openReschedule } from "./calendar-state.ts";
import {
  type Decision,
  creatorRefusal,
  hasEnded,
  isAdmin,
  isCreatorOf,
  isExpertOf,
  isSystem,
  overlaps,
  partyWord,
  transitionRefused,
} from "./decision-rules.ts";
import { type HoursCommand } from "./hours.ts";
import { type ExternalBusyCommand } from "./external-busy.ts";
import { answerReschedule, requestReschedule } from "./reschedule.ts";
import { decideOnNoShow, noShowOpen } from "./no-shows.ts";
import { decideOnDispute } from "./disputes.ts";
import { bookingRefusalForVetting } from "../expert/vetting.ts";

// A booking from request to payment, answers and the expert's decision: the commands on one booking.

export function requestBooking(c: Extract<CalendarCommand, { type: "RequestBooking" }>, s: CalendarState, now: string): Decision {
  if (c.actor.role === "admin") return refused("admin_cannot_book");
  if (c.actor.role !== "creator") return refused("only_creators_book");
  if (!c.creatorAcceptedTerms) return refused("terms_not_accepted");
  if (s.bookings.has(c.bookingId)) return refused("booking_already_exists");
  // Rule: only an approved expert is bookable; a suspension on this calendar cuts off every request after it.
  if (s.paused) return refused("expert_suspended");
  const notBookable = bookingRefusalForVetting(c.expertVetting);
  if (notBookable) return refused(notBookable);
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
        currency: c.session.currency ?? DEFAULT_CURRENCY,
        ...(c.session.fullRefundHours !== undefined && { fullRefundHours: c.session.fullRefundHours }),
        ...(c.session.rescheduleHours !== undefined && { rescheduleHours: c.session.rescheduleHours }),
      },
    },
  ]);
}

export function recordPayment(c: Extract<CalendarCommand, { type: "RecordPayment" }>, b: Booking, s: CalendarState, now: string): Decision {
  if (!isSystem(c.actor) && !isAdmin(c.actor)) return refused("forbidden");
  // Idempotent per payment id: a redelivered webhook changes nothing.
  if (b.paymentIds.includes(c.paymentId)) return ok([]);
  if (c.amountCents !== b.priceCents) return refused("payment_amount_mismatch");
  const paid: CalendarEvent = {
    type: "PaymentSucceeded",
    // The fee is fixed when the booking is paid: a later change of the constant never rewrites what it earned.
    data: {
      bookingId: b.bookingId,
      paymentId: c.paymentId,
      amountCents: c.amountCents,
      provider: c.provider,
      currency: b.currency,
      feeBasisPoints: PLATFORM_FEE_BASIS_POINTS,
    },
  };
  const owedBack = (reason: string): CalendarEvent => ({
    type: "RefundDue",
    data: { bookingId: b.bookingId, paymentId: c.paymentId, amountCents: c.amountCents, reason },
  });
  // A payment is never lost: money that arrives for a booking that cannot take it is owed back.
  if (hasEnded(b.status)) return ok([paid, owedBack("booking_closed")]);
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

export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export function refundBooking(c: Extract<CalendarCommand, { type: "RefundBooking" }>, b: Booking): Decision {
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

/** Why a proposed time is refused, most specific first (the check itself is isProposableStart). */
export function whyNotProposable(
  proposal: Parameters<typeof isProposableStart>[0],
  start: string,
): "proposed_time_in_time_off" | "proposed_time_in_own_calendar" | "proposed_time_too_soon" | "proposed_time_invalid" {
  if (fallsInTimeOff(proposal.schedule.timezone, proposal.timeOff, start, proposal.lengthMinutes)) return "proposed_time_in_time_off";
  if (meetsExternalBusy(proposal.externalBusy ?? [], start, proposal.lengthMinutes)) return "proposed_time_in_own_calendar";
  const notice = proposal.rules?.minNoticeHours ?? 0;
  if (notice > 0 && Date.parse(start) >= Date.parse(proposal.now) && Date.parse(start) < Date.parse(proposal.now) + notice * 3_600_000)
    return "proposed_time_too_soon";
  return "proposed_time_invalid";
}

export function decideOnBooking(
  c: Exclude<
    CalendarCommand,
    { type: "SetSchedule" | "RequestBooking" | "PauseBookings" | "ResumeBookings" } | HoursCommand | ExternalBusyCommand
  >,
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
      // Rule: a suspended expert's open bookings wait for an admin to resolve them (issue 30): nobody else confirms one.
      if (s.paused && !isAdmin(a)) return refused("expert_suspended");
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
      if (hasEnded(b.status)) return transitionRefused(b, "cancelled");
      // Rule: a session reported missed ends through the report's settlement, not a cancellation (issue 31.1).
      if (noShowOpen(b)) return refused("no_show_report_open");
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
      // Rule: a session reported missed completes only through the report's settlement (issue 31.1).
      if (noShowOpen(b)) return refused("no_show_report_open");
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

    case "RecordDispute":
      return decideOnDispute(c, b);

    case "ReportNoShow":
    case "ContestNoShow":
    case "SettleNoShow":
    case "DecideNoShow":
      return decideOnNoShow(c, b, now);

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
