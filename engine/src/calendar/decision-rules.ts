import {
  MAX_UNPAID_HOLDS_PER_CREATOR,
  refusal,
  refused,
  type CreatorBookingFacts,
  type Refusal,
  type BookingStatus,
  type CalendarCommand,
  type CalendarEvent,
  type Result,
} from "@booking/contracts";
import { type Booking, type HeldTime, blocksTime, isPaid, openReschedule } from "./calendar-state.ts";

// What the calendar's decisions share: who may act on a booking, the refusal that names its
// status, and the rules of a creator's own time.

export type Decision = Result<CalendarEvent[]>;
export type Actor = CalendarCommand["actor"];

export const STATUS_WORDS: Record<BookingStatus, string> = {
  pending: "pending",
  time_proposed: "waiting for the creator to accept a new time",
  more_info_requested: "waiting for more information",
  confirmed: "confirmed",
  completed: "complete",
  cancelled: "cancelled",
  expert_no_show: "closed: the expert did not show",
  creator_no_show: "closed: the creator did not show",
};

/** Rule: a booking has ended once completed, cancelled or closed as a no-show: nothing moves, cancels or takes money for it. */
export const hasEnded = (status: BookingStatus): boolean =>
  status === "completed" || status === "cancelled" || status === "expert_no_show" || status === "creator_no_show";

export function transitionRefused(b: Booking, action: string): Decision {
  return refused("booking_transition_refused", { status: STATUS_WORDS[b.status], action });
}

export const isAdmin = (a: Actor) => a.role === "admin";
export const isSystem = (a: Actor) => a.role === "system";
export const isCreatorOf = (a: Actor, b: Booking) => a.role === "creator" && a.userId === b.creatorId;
export const isExpertOf = (a: Actor, b: Booking) => a.role === "expert" && a.userId === b.expertUserId;

export function partyWord(a: Actor, b: Booking): "creator" | "expert" | "admin" | "system" {
  if (isCreatorOf(a, b)) return "creator";
  if (isExpertOf(a, b)) return "expert";
  return isSystem(a) ? "system" : "admin";
}

/** Rule: an unpaid booking that still holds its time (the holds a creator may keep are capped). */
export const isUnpaidHold = (b: HeldTime, now: string) => b.status === "pending" && !isPaid(b) && blocksTime(b, now);

export const overlaps = (aStart: string, aMinutes: number, bStart: string, bMinutes: number) =>
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
export function creatorBusyAt(
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
