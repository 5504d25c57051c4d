import { describe, expect, it } from "vitest";
import { BookingRecord, type CalendarEvent, type DomainEvent, type StoredEvent } from "@booking/contracts";
import { evolveBooking, type BookingRow } from "../src/index.ts";

// The bookings read model's rule without a database: given these events, then this row.

const T0 = Date.parse("2030-01-06T09:00:00.000Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** given events (one minute apart, on expert e1's calendar) / then the row they leave. */
function given(...events: CalendarEvent[]) {
  let row: BookingRow | undefined;
  events.forEach((event, i) => {
    const stored: StoredEvent = {
      eventId: `ev-${i}`, streamId: "calendar-e1", version: i + 1, position: { commit: BigInt(i), prepare: BigInt(i) },
      type: event.type, schemaVersion: 1, data: event.data, metadata: { at: at(i) }, recordedAt: at(i),
    };
    row = evolveBooking(row, { event: event as DomainEvent, stored });
  });
  return {
    then: (expected: Partial<BookingRow> | undefined) => (expected === undefined ? expect(row).toBeUndefined() : expect(row).toMatchObject(expected)),
    row: () => row,
  };
}

const requested: CalendarEvent = {
  type: "BookingRequested",
  data: {
    bookingId: "b1", expertId: "e1", expertUserId: "u-expert", creatorId: "u-creator", sessionId: "s1", sessionTitle: "Pricing review",
    lengthMinutes: 45, priceCents: 15_000, prepQuestions: ["Goal?"], scheduledTime: "2030-02-01T10:00:00.000Z", heldUntil: at(15),
  },
};
const paid: CalendarEvent = { type: "PaymentSucceeded", data: { bookingId: "b1", paymentId: "p1", amountCents: 15_000, provider: "stripe" } };

describe("bookings read model: given events, then the row", () => {
  it("a request makes a pending, unpaid row of the contracts' shape", () => {
    const spec = given(requested);
    spec.then({ booking_id: "b1", expert_id: "e1", cancelled_at: null, confirmed_at: null, status: "pending", payment_state: "unpaid", paid_cents: 0, price_cents: 15_000, held_until: at(15), created_at: at(0), stream_version: 1 });
    expect(BookingRecord.safeParse(spec.row()).success).toBe(true);
  });

  it("no request, no row: a later event alone leaves nothing", () => {
    given(paid).then(undefined);
  });

  it("a second request for the id changes nothing", () => {
    given(requested, { ...requested, data: { ...requested.data, sessionTitle: "Other" } } as CalendarEvent).then({ session_title: "Pricing review", stream_version: 1 });
  });

  it("paid, then confirmed", () => {
    given(requested, paid, { type: "Confirmed", data: { bookingId: "b1", by: "expert" } }).then({ status: "confirmed", confirmed_at: at(2), payment_state: "paid", paid_cents: 15_000, updated_at: at(2), stream_version: 3 });
  });

  it("info requested, then prep answered: back to pending with the answers", () => {
    given(requested, { type: "InfoRequested", data: { bookingId: "b1", note: "Which market?" } }, { type: "PrepSubmitted", data: { bookingId: "b1", answers: ["EU"] } }).then({
      status: "pending",
      info_request_note: "Which market?",
      prep_answers: ["EU"],
    });
  });

  it("a new time keeps the old one", () => {
    given(requested, { type: "TimeProposed", data: { bookingId: "b1", scheduledTime: "2030-02-02T10:00:00.000Z", previousTime: "2030-02-01T10:00:00.000Z" } }).then({
      status: "time_proposed",
      scheduled_time: "2030-02-02T10:00:00.000Z",
      previous_time: "2030-02-01T10:00:00.000Z",
    });
  });

  it("cancelled by the expert after payment: who, why, and the refund owed", () => {
    given(requested, paid, { type: "Cancelled", data: { bookingId: "b1", by: "expert", reason: "Travelling", refundCents: 15_000 } }).then({
      status: "cancelled",
      cancelled_by: "expert",
      cancel_reason: "Travelling",
      cancelled_at: at(2),
      refund_due_cents: 15_000,
      payment_state: "refund_due",
    });
  });

  it("a failed payment leaves the row as it was, version included", () => {
    given(requested, { type: "PaymentFailed", data: { bookingId: "b1", paymentId: "p1", reason: "card_declined" } }).then({ payment_state: "unpaid", stream_version: 1, updated_at: at(0) });
  });

  it("notes after completion", () => {
    const notes = { summary: "Good", recap: "", takeaways: [], suggestedActions: [] };
    given(requested, paid, { type: "Confirmed", data: { bookingId: "b1", by: "expert" } }, { type: "Completed", data: { bookingId: "b1" } }, { type: "NotesAdded", data: { bookingId: "b1", notes } }).then({
      status: "completed",
      notes,
    });
  });
});
