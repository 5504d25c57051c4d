import { RESCHEDULE_NOTICE_HOURS, type BookingStatus } from "./calendar.ts";
import { errorCatalogue } from "./errors.ts";

// Who may move a booking and until when: the calendar decides by these rules, and the web app reads
// the same ones to offer only what would be allowed and to say why an action is missing (issue 27.11).

/**
 * Rule: the bookings a creator may ask to move: confirmed ones, and paid requests before
 * confirmation that hold their time, a time the expert proposed included (the creator may answer
 * it with another).
 */
export const MOVABLE_STATUSES = [
  "pending",
  "more_info_requested",
  "time_proposed",
  "confirmed",
] as const satisfies readonly BookingStatus[];

/**
 * Rule: the last instant (epoch ms) a booking starting at `scheduledTime` may be asked to move: the hours its session
 * set when it was booked (issue 31.4) before it; RESCHEDULE_NOTICE_HOURS for a booking made before sessions set them.
 */
export const movableUntil = (scheduledTime: string, hours: number = RESCHEDULE_NOTICE_HOURS): number =>
  Date.parse(scheduledTime) - hours * 3_600_000;

/** What the move rules read of a booking as its reply shows it. */
export type MovableBooking = {
  status: BookingStatus;
  paid: boolean;
  scheduled_time: string;
  reschedule_to: string | null;
  reschedule_hours?: number;
};

/**
 * Why the creator may not ask to move this booking at `now`, as the catalogue's code, or null when
 * they may. The calendar refuses by the same rules (and checks the new time itself).
 */
export type MoveRefusal = "booking_transition_refused" | "reschedule_unpaid" | "reschedule_already_requested" | "reschedule_too_late";

export function moveRefusal(b: MovableBooking, now: number): MoveRefusal | null {
  if (!(MOVABLE_STATUSES as readonly BookingStatus[]).includes(b.status)) return "booking_transition_refused";
  if (!b.paid) return "reschedule_unpaid";
  if (b.reschedule_to) return "reschedule_already_requested";
  if (now > movableUntil(b.scheduled_time, b.reschedule_hours)) return "reschedule_too_late";
  return null;
}

/** The catalogue's words for the notice rule, with its hours filled in. */
export const tooLateToMoveMessage = (hours: number = RESCHEDULE_NOTICE_HOURS): string =>
  errorCatalogue.reschedule_too_late.message.replace("{hours}", String(hours));
