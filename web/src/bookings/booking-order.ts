import type { Booking } from "../shared/api-types.ts";

// How the dashboards order bookings: what is next comes first, history after it.

type Ordered = Pick<Booking, "status" | "scheduled_time" | "length_minutes" | "paid"> & Partial<Pick<Booking, "reschedule_to">>;

export type ArrangedBookings<B> = {
  /** Paid requests, and requests to move a booking, the expert has still to accept or decline (expert's view only), soonest first. */
  needsAction: B[];
  /** Open bookings that have not ended yet, soonest first. */
  upcoming: B[];
  /** Ended, completed or cancelled bookings, most recent first. */
  past: B[];
};

const startOf = (b: Ordered) => Date.parse(b.scheduled_time);
const endOf = (b: Ordered) => startOf(b) + b.length_minutes * 60_000;

/** A request only the expert can move on: paid and not yet accepted, or asking to move the booking. */
export const needsExpertAction = (b: Ordered, now: number) => ((b.status === "pending" && b.paid) || !!b.reschedule_to) && endOf(b) > now;

export function arrangeBookings<B extends Ordered>(bookings: readonly B[], now: number, viewer: "creator" | "expert"): ArrangedBookings<B> {
  const arranged: ArrangedBookings<B> = { needsAction: [], upcoming: [], past: [] };
  for (const b of bookings) {
    if (b.status === "cancelled" || b.status === "completed" || endOf(b) <= now) arranged.past.push(b);
    else if (viewer === "expert" && needsExpertAction(b, now)) arranged.needsAction.push(b);
    else arranged.upcoming.push(b);
  }
  const soonestFirst = (a: B, b: B) => startOf(a) - startOf(b);
  arranged.needsAction.sort(soonestFirst);
  arranged.upcoming.sort(soonestFirst);
  arranged.past.sort((a, b) => startOf(b) - startOf(a));
  return arranged;
}
