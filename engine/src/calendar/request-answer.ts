import { REQUEST_ANSWER_HOURS, type CalendarEvent } from "@booking/contracts";
import type { Booking } from "./calendar.ts";

// How long a paid request waits for its expert (issue 27.6). Pure: the payment's time comes in.
// The deadline is recorded in the payment's event, so the rule can change without moving old ones.

/** Rule: REQUEST_ANSWER_HOURS after payment, never later than the session's start. */
export function respondByOf(paidAt: string, scheduledTime: string): string {
  const deadline = Date.parse(paidAt) + REQUEST_ANSWER_HOURS * 3_600_000;
  return new Date(Math.min(deadline, Date.parse(scheduledTime))).toISOString();
}

/** What the rule reads of a booking. */
type AwaitingAnswer = Pick<Booking, "status" | "respondBy">;

/** Rule: a request waits for the expert while it is pending or the expert asked for more information. */
export const awaitsExpert = (b: Pick<Booking, "status">): boolean => b.status === "pending" || b.status === "more_info_requested";

/** Rule: a paid request with a deadline the expert let pass: it can no longer be accepted, and the system cancels it. */
export function requestLapsed(b: AwaitingAnswer, now: string): boolean {
  return awaitsExpert(b) && b.respondBy !== null && Date.parse(now) >= Date.parse(b.respondBy);
}

/** Unanswered in time: cancelled by the system, everything paid and not already owed back goes back. */
export function lapsedRequestCancelled(b: Pick<Booking, "bookingId" | "paidCents" | "owedCents">): CalendarEvent {
  return {
    type: "Cancelled",
    data: { bookingId: b.bookingId, by: "system", reason: "not_answered", refundCents: Math.max(0, b.paidCents - b.owedCents) },
  };
}
