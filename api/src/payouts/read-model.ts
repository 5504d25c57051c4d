import { reversalKeyOf, type StoredEvent } from "@booking/contracts";
import type { Queryable } from "../reactors/index.ts";
import {
  markAdjusted,
  markReleased,
  markReversalFailed,
  markReversed,
  markTransferFailed,
  markTransferred,
  recordBookingFact,
} from "./payout-bookings-table.ts";
import { payoutFacts, type BookingFact, type PayoutFact } from "./payout-facts.ts";
import { recordExpertFact, recordPayoutOutcome, recordPayoutRequested } from "./payouts-table.ts";

// The payouts area's read of the log, written into its own tables: the reactor writes every
// batch with its checkpoint; a route or a webhook that just sent a payouts command writes the
// events it got back at once (idempotent: the reactor's later write of them changes nothing).

/** Write the facts of events read from the log, in order. */
export async function recordLogEvents(db: Queryable, events: readonly StoredEvent[]): Promise<void> {
  for (const stored of events) for (const fact of payoutFacts(stored)) await recordFact(db, fact);
}

/** Write what a payouts command just appended (only its payouts events: calendar facts are summed once, by the reactor). */
export async function recordPayoutEvents(db: Queryable, events: readonly StoredEvent[]): Promise<void> {
  for (const stored of events) {
    for (const fact of payoutFacts(stored)) if (fact.kind === "payouts") await recordFact(db, fact);
  }
}

async function recordFact(db: Queryable, fact: BookingFact | PayoutFact): Promise<void> {
  if (fact.kind !== "payouts") return recordBookingFact(db, fact);
  const { event, version, at } = fact;
  const expertId = event.data.expertId;
  switch (event.type) {
    case "PayoutAccountConnected":
      return recordExpertFact(db, expertId, version, { kind: "connected", accountId: event.data.accountId, provider: event.data.provider });
    case "PayoutAccountUpdated":
      return recordExpertFact(db, expertId, version, {
        kind: "status",
        accountId: event.data.accountId,
        payoutsEnabled: event.data.payoutsEnabled,
        detailsSubmitted: event.data.detailsSubmitted,
      });
    case "PayoutsHeld":
      return recordExpertFact(db, expertId, version, { kind: "held", reason: event.data.reason });
    case "PayoutsResumed":
      return recordExpertFact(db, expertId, version, { kind: "resumed" });
    case "EarningReleased":
      return markReleased(db, { ...event.data, at });
    case "EarningAdjusted": {
      const { bookingId, refundedCents } = event.data;
      return markAdjusted(db, { ...event.data, reversalKey: reversalKeyOf(bookingId, refundedCents), at });
    }
    case "TransferSent":
      return markTransferred(db, { ...event.data, at });
    case "TransferFailed":
      return markTransferFailed(db, event.data.bookingId, { reason: event.data.reason });
    case "TransferReversalFailed":
      return markReversalFailed(db, event.data.reversalKey, { reason: event.data.reason });
    case "TransferReversed":
      return markReversed(db, { reversalKey: event.data.reversalKey, reversalId: event.data.reversalId, at });
    case "PayoutRequested":
      return recordPayoutRequested(db, { ...event.data, at });
    case "PayoutSent":
      return recordPayoutOutcome(db, event.data.payoutKey, { status: "in_transit", payoutId: event.data.payoutId, at });
    case "PayoutPaid":
      return recordPayoutOutcome(db, event.data.payoutKey, { status: "paid", payoutId: event.data.payoutId, at });
    case "PayoutFailed":
      return recordPayoutOutcome(db, event.data.payoutKey, { status: "failed", reason: event.data.reason, at });
  }
}
