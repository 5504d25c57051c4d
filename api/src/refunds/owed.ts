import { readDomainEvent, type StoredEvent } from "@booking/contracts";

// What the refund reactor reads in the event log, as plain facts (no I/O): a booking's payment,
// a refund owed, issued or failed. A refund's key is the id of the event that owed it.

export type RefundFact =
  | { kind: "paid"; bookingId: string; paymentId: string }
  | {
      kind: "owed";
      refundKey: string;
      bookingId: string;
      expertId: string;
      paymentId: string | null;
      amountCents: number;
      reason: string;
      at: string;
    }
  | { kind: "issued"; refundKey: string; refundId: string; provider: string; at: string }
  | { kind: "failed"; refundKey: string; reason: string };

const READ = new Set(["PaymentSucceeded", "Cancelled", "RefundDue", "RefundIssued", "RefundFailed"]);
const CALENDAR = "calendar-";

/** The fact an event of the log states for refunds, or null (most events say nothing about them). */
export function refundFact(stored: StoredEvent): RefundFact | null {
  if (!READ.has(stored.type) || !stored.streamId.startsWith(CALENDAR)) return null;
  const event = readDomainEvent(stored.type, stored.schemaVersion, stored.data);
  const expertId = stored.streamId.slice(CALENDAR.length);
  const at = stored.metadata.at;
  switch (event.type) {
    case "PaymentSucceeded":
      return { kind: "paid", bookingId: event.data.bookingId, paymentId: event.data.paymentId };
    case "Cancelled": {
      const { bookingId, refundCents, by, reason } = event.data;
      if (refundCents <= 0) return null;
      return {
        kind: "owed",
        refundKey: stored.eventId,
        bookingId,
        expertId,
        paymentId: null,
        amountCents: refundCents,
        reason: `Cancelled by ${by}${reason ? `: ${reason}` : ""}`,
        at,
      };
    }
    case "RefundDue": {
      const { bookingId, paymentId, amountCents, reason } = event.data;
      if (amountCents <= 0) return null;
      return { kind: "owed", refundKey: stored.eventId, bookingId, expertId, paymentId, amountCents, reason, at };
    }
    case "RefundIssued":
      return { kind: "issued", refundKey: event.data.refundKey, refundId: event.data.refundId, provider: event.data.provider, at };
    case "RefundFailed":
      return { kind: "failed", refundKey: event.data.refundKey, reason: event.data.reason };
    default:
      return null;
  }
}
