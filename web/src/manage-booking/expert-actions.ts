import { errorCatalogue } from "@booking/contracts";
import type { Booking } from "../shared/api-types.ts";

// What the expert may do with a booking on Manage Booking, by the calendar's rules (ConfirmBooking,
// ProposeTime, RequestInfo, CancelBooking), and why an action is missing: the page offers only
// what the API would take (issues 27.11, 27.12).

type Decided = Pick<Booking, "status" | "paid" | "reschedule_to">;

export type ExpertActions = {
  /** Accept the requested time, or propose another: a request still waiting for the expert, once paid. */
  accept: boolean;
  propose: boolean;
  /** Why Propose is missing on a request the expert could otherwise answer, in the catalogue's words; null when nothing needs saying. */
  proposeMissing: string | null;
  requestInfo: boolean;
  /** Any request still open; a confirmed booking is cancelled instead. */
  decline: boolean;
  /** The request waits for its payment: Accept is shown disabled, saying so. */
  awaitingPayment: boolean;
};

export function expertActions(b: Decided): ExpertActions {
  const decidable = b.status === "pending" || b.status === "more_info_requested";
  const answerable = decidable && b.paid;
  // The creator's own request to move it is answered first (the calendar refuses a proposal meanwhile).
  const moveAsked = !!b.reschedule_to;
  return {
    accept: answerable,
    propose: answerable && !moveAsked,
    proposeMissing: answerable && moveAsked ? errorCatalogue.reschedule_pending.message : null,
    requestInfo: b.status === "pending",
    decline: decidable || b.status === "time_proposed",
    awaitingPayment: decidable && !b.paid,
  };
}
