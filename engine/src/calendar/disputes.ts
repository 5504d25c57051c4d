import { disputeClosed, ok, refused, type CalendarCommand, type CalendarEvent, type DisputeStatus } from "@booking/contracts";
import type { Booking } from "./calendar-state.ts";
import { isSystem, type Decision } from "./decision-rules.ts";
import { refundableCents } from "./refund-policy.ts";

// Disputes (issue 31.2): what the payment provider reports of a creator's bank reversing a charge, recorded on the
// booking. The provider repeats itself (a webhook comes again, statuses arrive out of order): a report that says
// nothing new records nothing, and a closed dispute stays closed.

type DisputeCommand = Extract<CalendarCommand, { type: "RecordDispute" }>;

export const isDisputeCommand = (c: CalendarCommand): c is DisputeCommand => c.type === "RecordDispute";

export function decideOnDispute(c: DisputeCommand, b: Booking): Decision {
  if (!isSystem(c.actor)) return refused("forbidden");
  const r = c.report;
  if (!b.paymentIds.includes(r.paymentId)) return refused("dispute_payment_unknown");
  const known: DisputeStatus | undefined = b.disputes[r.disputeId];
  const events: CalendarEvent[] = [];
  if (known === undefined) {
    events.push({ type: "DisputeOpened", data: { bookingId: b.bookingId, ...r, refundedCents: b.owedCents } });
  } else if (disputeClosed(known) || known === r.status) {
    return ok([]);
  } else if (!disputeClosed(r.status)) {
    events.push({
      type: "DisputeUpdated",
      data: { bookingId: b.bookingId, disputeId: r.disputeId, status: r.status, evidenceDueBy: r.evidenceDueBy },
    });
  }
  if (disputeClosed(r.status)) {
    // Rule: a lost dispute takes back what it names, never more than was paid and is not already owed back.
    const lostCents = r.status === "lost" ? Math.min(r.amountCents, refundableCents(b)) : 0;
    events.push({ type: "DisputeClosed", data: { bookingId: b.bookingId, disputeId: r.disputeId, status: r.status, lostCents } });
  }
  return ok(events);
}
