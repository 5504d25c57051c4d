import { DEFAULT_CURRENCY, readDomainEvent, type Currency, type PayoutEvent, type StoredEvent } from "@booking/contracts";

// What the payout reactor reads in the event log, as plain facts (no I/O). From an expert's
// calendar: a booking's currency, its payments (and the fee rate they were paid under), the money
// owed back, its acceptance, completion or cancellation. From the expert's payouts stream: every
// event as it is, with the stream's version (a fact read late never undoes a newer one).

export type BookingFact =
  | { kind: "requested"; bookingId: string; expertId: string; currency: Currency }
  | { kind: "paid"; bookingId: string; expertId: string; amountCents: number; currency: Currency | null; feeBasisPoints: number }
  | { kind: "owed_back"; bookingId: string; amountCents: number }
  | { kind: "status"; bookingId: string; status: "confirmed" | "completed" | "cancelled"; at: string }
  /** A no-show report (issue 31.1): nothing is released until it is settled, which counts as the booking's completion. */
  | { kind: "reported"; bookingId: string };

export type PayoutFact = { kind: "payouts"; event: PayoutEvent; version: number; at: string };

const CALENDAR = "calendar-";
const PAYOUTS = "payouts-";
const CALENDAR_READ = new Set([
  "BookingRequested",
  "PaymentSucceeded",
  "Cancelled",
  "RefundDue",
  "Confirmed",
  "Completed",
  "NoShowReported",
  "NoShowSettled",
  "DisputeClosed",
]);

/** The facts an event of the log states for payouts (most events state none). */
export function payoutFacts(stored: StoredEvent): (BookingFact | PayoutFact)[] {
  if (stored.streamId.startsWith(PAYOUTS)) {
    const event = readDomainEvent(stored.type, stored.schemaVersion, stored.data) as PayoutEvent;
    return [{ kind: "payouts", event, version: stored.version, at: stored.metadata.at }];
  }
  if (!CALENDAR_READ.has(stored.type) || !stored.streamId.startsWith(CALENDAR)) return [];
  const event = readDomainEvent(stored.type, stored.schemaVersion, stored.data);
  const expertId = stored.streamId.slice(CALENDAR.length);
  const at = stored.metadata.at;
  switch (event.type) {
    case "BookingRequested":
      return [{ kind: "requested", bookingId: event.data.bookingId, expertId, currency: event.data.currency ?? DEFAULT_CURRENCY }];
    case "PaymentSucceeded":
      // Paid before issue 29: US dollars, and no fee was kept.
      return [
        {
          kind: "paid",
          bookingId: event.data.bookingId,
          expertId,
          amountCents: event.data.amountCents,
          currency: event.data.currency ?? null,
          feeBasisPoints: event.data.feeBasisPoints ?? 0,
        },
      ];
    case "Cancelled": {
      const cancelled: BookingFact = { kind: "status", bookingId: event.data.bookingId, status: "cancelled", at };
      return event.data.refundCents > 0
        ? [{ kind: "owed_back", bookingId: event.data.bookingId, amountCents: event.data.refundCents }, cancelled]
        : [cancelled];
    }
    case "RefundDue":
      return event.data.amountCents > 0
        ? [{ kind: "owed_back", bookingId: event.data.bookingId, amountCents: event.data.amountCents }]
        : [];
    case "Confirmed":
      return [{ kind: "status", bookingId: event.data.bookingId, status: "confirmed", at }];
    case "Completed":
      return [{ kind: "status", bookingId: event.data.bookingId, status: "completed", at }];
    // A lost dispute is money back to the creator: the expert's share of it is reversed as a refund's would be (issue 31.2).
    case "DisputeClosed":
      return event.data.lostCents > 0 ? [{ kind: "owed_back", bookingId: event.data.bookingId, amountCents: event.data.lostCents }] : [];
    case "NoShowReported":
      return [{ kind: "reported", bookingId: event.data.bookingId }];
    // Settled: the session's money is decided (what is owed back came in the same decision); its clearing period starts now.
    case "NoShowSettled":
      return [{ kind: "status", bookingId: event.data.bookingId, status: "completed", at }];
    default:
      return [];
  }
}
