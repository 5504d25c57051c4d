import { MOVABLE_STATUSES, movableUntil, ok, refused, type BookingStatus, type CalendarCommand } from "@booking/contracts";
import { isBookableStart } from "../availability/availability.ts";
import { type Booking, type CalendarState, busyPeriods, expertHours, isPaid, openReschedule } from "./calendar-state.ts";
import { type Decision, creatorBusyAt, isAdmin, isCreatorOf, isExpertOf, transitionRefused } from "./decision-rules.ts";

// Moving a booking: the creator asks for another time, the expert accepts or declines, the creator withdraws.

/** Rule (contracts' MOVABLE_STATUSES, which the web app reads too): a time the expert proposed may be answered with another (issue 27.11). */
export const MOVABLE: ReadonlySet<BookingStatus> = new Set<BookingStatus>(MOVABLE_STATUSES);

/** Rule: a booking may be asked to move until its own cut-off (its session's when booked, issue 31.4) before its current start. */
export function rescheduleNoticeMet(b: Pick<Booking, "scheduledTime" | "rescheduleHours">, now: string): boolean {
  return Date.parse(now) <= movableUntil(b.scheduledTime, b.rescheduleHours);
}

/**
 * The creator (or an admin for them) asks to move the booking. The new time must pass every rule
 * of a new booking (availability's, by name), with the booking's own time left out of the clash
 * check so it may move within its old slot; it is then held beside the old time until answered.
 */
export function requestReschedule(
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
  if (!rescheduleNoticeMet(b, now)) return refused("reschedule_too_late", { hours: String(b.rescheduleHours) });
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
export function answerReschedule(
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
