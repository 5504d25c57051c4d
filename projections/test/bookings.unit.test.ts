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
      eventId: `ev-${i}`,
      streamId: "calendar-e1",
      version: i + 1,
      position: { commit: BigInt(i), prepare: BigInt(i) },
      type: event.type,
      schemaVersion: 1,
      data: event.data,
      metadata: { at: at(i) },
      recordedAt: at(i),
    };
    row = evolveBooking(row, { event: event as DomainEvent, stored });
  });
  return {
    then: (expected: Partial<BookingRow> | undefined) =>
      expected === undefined ? expect(row).toBeUndefined() : expect(row).toMatchObject(expected),
    row: () => row,
  };
}

const requested: CalendarEvent = {
  type: "BookingRequested",
  data: {
    bookingId: "b1",
    expertId: "e1",
    expertUserId: "u-expert",
    creatorId: "u-creator",
    sessionId: "s1",
    sessionTitle: "Pricing review",
    lengthMinutes: 45,
    priceCents: 15_000,
    prepQuestions: ["Goal?"],
    scheduledTime: "2030-02-01T10:00:00.000Z",
    heldUntil: at(15),
  },
};
const paid: CalendarEvent = {
  type: "PaymentSucceeded",
  data: { bookingId: "b1", paymentId: "p1", amountCents: 15_000, provider: "stripe" },
};

describe("bookings read model: given events, then the row", () => {
  it("a request makes a pending, unpaid row of the contracts' shape", () => {
    const spec = given(requested);
    spec.then({
      booking_id: "b1",
      expert_id: "e1",
      cancelled_at: null,
      confirmed_at: null,
      status: "pending",
      payment_state: "unpaid",
      paid_cents: 0,
      price_cents: 15_000,
      held_until: at(15),
      created_at: at(0),
      stream_version: 1,
    });
    expect(BookingRecord.safeParse(spec.row()).success).toBe(true);
  });

  it("no request, no row: a later event alone leaves nothing", () => {
    given(paid).then(undefined);
  });

  it("a second request for the id changes nothing", () => {
    given(requested, { ...requested, data: { ...requested.data, sessionTitle: "Other" } } as CalendarEvent).then({
      session_title: "Pricing review",
      stream_version: 1,
    });
  });

  it("paid, then confirmed", () => {
    given(requested, paid, { type: "Confirmed", data: { bookingId: "b1", by: "expert" } }).then({
      status: "confirmed",
      confirmed_at: at(2),
      payment_state: "paid",
      paid_cents: 15_000,
      updated_at: at(2),
      stream_version: 3,
    });
  });

  it("info requested, then prep answered: back to pending with the answers", () => {
    given(
      requested,
      { type: "InfoRequested", data: { bookingId: "b1", note: "Which market?" } },
      { type: "PrepSubmitted", data: { bookingId: "b1", answers: ["EU"] } },
    ).then({
      status: "pending",
      info_request_note: "Which market?",
      prep_answers: ["EU"],
    });
  });

  it("a new time keeps the old one", () => {
    given(requested, {
      type: "TimeProposed",
      data: { bookingId: "b1", scheduledTime: "2030-02-02T10:00:00.000Z", previousTime: "2030-02-01T10:00:00.000Z" },
    }).then({
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
      refunded_cents: 0,
      refund_state: "pending",
      payment_state: "refund_due",
    });
  });

  const cancelledPaid: CalendarEvent = { type: "Cancelled", data: { bookingId: "b1", by: "creator", reason: "", refundCents: 15_000 } };
  const issued = (refundKey: string, amountCents: number): CalendarEvent => ({
    type: "RefundIssued",
    data: { bookingId: "b1", refundKey, refundId: `re-${refundKey}`, amountCents, provider: "test" },
  });

  it("a refund paid back in full: refunded, the money trail kept", () => {
    const spec = given(requested, paid, cancelledPaid, issued("ev-2", 15_000));
    spec.then({
      paid_cents: 15_000,
      refund_due_cents: 15_000,
      refunded_cents: 15_000,
      refund_state: "refunded",
      payment_state: "refunded",
      stream_version: 4,
      updated_at: at(3),
    });
    expect(BookingRecord.safeParse(spec.row()).success).toBe(true);
  });

  it("a failed refund is failed until the provider pays it", () => {
    const failed: CalendarEvent = { type: "RefundFailed", data: { bookingId: "b1", refundKey: "ev-2", reason: "card_expired" } };
    given(requested, paid, cancelledPaid, failed).then({
      refund_state: "failed",
      payment_state: "refund_due",
      refunded_cents: 0,
      stream_version: 4,
    });
    given(requested, paid, cancelledPaid, failed, issued("ev-2", 15_000)).then({
      refund_state: "refunded",
      payment_state: "refunded",
      refunded_cents: 15_000,
    });
  });

  it("an admin's partial refund of a completed booking: owed, then partially refunded (the rest is still held), never 'refunded'", () => {
    const due: CalendarEvent = { type: "RefundDue", data: { bookingId: "b1", paymentId: "p1", amountCents: 5_000, reason: "Late start" } };
    const completed = [
      requested,
      paid,
      { type: "Confirmed", data: { bookingId: "b1", by: "expert" } },
      { type: "Completed", data: { bookingId: "b1" } },
    ] as CalendarEvent[];
    given(...completed, due).then({ status: "completed", refund_due_cents: 5_000, refund_state: "pending", payment_state: "refund_due" });
    const spec = given(...completed, due, issued("ev-4", 5_000));
    spec.then({ status: "completed", paid_cents: 15_000, refund_due_cents: 5_000, refunded_cents: 5_000 });
    spec.then({ refund_state: "refunded", payment_state: "partially_refunded" });
    expect(BookingRecord.safeParse(spec.row()).success).toBe(true);
    // The rest refunded later: now all of it is back.
    const rest: CalendarEvent = { type: "RefundDue", data: { bookingId: "b1", paymentId: "p1", amountCents: 10_000, reason: "Goodwill" } };
    given(...completed, due, issued("ev-4", 5_000), rest).then({ refund_due_cents: 15_000, payment_state: "refund_due" });
    given(...completed, due, issued("ev-4", 5_000), rest, issued("ev-6", 10_000)).then({
      refunded_cents: 15_000,
      payment_state: "refunded",
    });
  });

  it("a cancellation that refunds part of the payment ends partially refunded", () => {
    given(
      requested,
      paid,
      { type: "Cancelled", data: { bookingId: "b1", by: "creator", reason: "", refundCents: 7_500 } },
      issued("ev-2", 7_500),
    ).then({
      refunded_cents: 7_500,
      refund_state: "refunded",
      payment_state: "partially_refunded",
    });
  });

  it("a cancellation that refunds nothing leaves the payment as it was", () => {
    given(requested, paid, { type: "Cancelled", data: { bookingId: "b1", by: "creator", reason: "", refundCents: 0 } }).then({
      payment_state: "paid",
      refund_state: "none",
      refund_due_cents: 0,
    });
  });

  it("a failed payment leaves the row as it was, version included", () => {
    given(requested, { type: "PaymentFailed", data: { bookingId: "b1", paymentId: "p1", reason: "card_declined" } }).then({
      payment_state: "unpaid",
      stream_version: 1,
      updated_at: at(0),
    });
  });

  it("notes after completion", () => {
    const notes = { summary: "Good", recap: "", takeaways: [], suggestedActions: [] };
    given(
      requested,
      paid,
      { type: "Confirmed", data: { bookingId: "b1", by: "expert" } },
      { type: "Completed", data: { bookingId: "b1" } },
      { type: "NotesAdded", data: { bookingId: "b1", notes } },
    ).then({
      status: "completed",
      notes,
    });
  });

  describe("moving a booking (issue 17)", () => {
    const confirmed: CalendarEvent = { type: "Confirmed", data: { bookingId: "b1", by: "expert" } };
    const move = { bookingId: "b1", from: "2030-02-01T10:00:00.000Z", to: "2030-02-03T14:00:00.000Z" };
    const asked: CalendarEvent = { type: "RescheduleRequested", data: { ...move, by: "creator" } };

    it("an open request keeps the time asked for and when, beside the booking's own time", () => {
      const spec = given(requested, paid, confirmed, asked);
      spec.then({
        status: "confirmed",
        scheduled_time: move.from,
        reschedule_to: move.to,
        reschedule_requested_at: at(3),
        stream_version: 4,
      });
      expect(BookingRecord.safeParse(spec.row()).success).toBe(true);
    });
    it("accepted: the booking moves, keeps its status, and shows the time it had", () => {
      given(requested, paid, confirmed, asked, { type: "RescheduleAccepted", data: { ...move, by: "expert" } }).then({
        status: "confirmed",
        scheduled_time: move.to,
        previous_time: move.from,
        reschedule_to: null,
        reschedule_requested_at: null,
        stream_version: 5,
        updated_at: at(4),
      });
    });
    it("declined or withdrawn: the booking stays, the request is gone", () => {
      for (const ended of [
        { type: "RescheduleDeclined", data: { ...move, by: "expert", reason: "Away" } },
        { type: "RescheduleWithdrawn", data: { ...move, by: "creator" } },
      ] as CalendarEvent[])
        given(requested, paid, confirmed, asked, ended).then({
          scheduled_time: move.from,
          previous_time: null,
          reschedule_to: null,
          reschedule_requested_at: null,
          stream_version: 5,
        });
    });
    it("declined: the creator can read which time was declined and why, until they ask again or a move is accepted", () => {
      const declined = (reason: string): CalendarEvent => ({ type: "RescheduleDeclined", data: { ...move, by: "expert", reason } });
      const spec = given(requested, paid, confirmed, asked, declined("  I am away that week. "));
      spec.then({ reschedule_to: null, reschedule_declined_to: move.to, reschedule_decline_reason: "I am away that week." });
      expect(BookingRecord.safeParse(spec.row()).success).toBe(true);
      given(requested, paid, confirmed, asked, declined("")).then({ reschedule_declined_to: move.to, reschedule_decline_reason: null });
      given(requested, paid, confirmed, { type: "RescheduleWithdrawn", data: { ...move, by: "creator" } }).then({
        reschedule_declined_to: null,
      });
      const askedAgain: CalendarEvent = { type: "RescheduleRequested", data: { ...move, to: "2030-02-04T09:00:00.000Z", by: "creator" } };
      given(requested, paid, confirmed, asked, declined("Away"), askedAgain).then({
        reschedule_to: askedAgain.data.to,
        reschedule_declined_to: null,
        reschedule_decline_reason: null,
      });
      const accepted: CalendarEvent = { type: "RescheduleAccepted", data: { ...move, to: "2030-02-04T09:00:00.000Z", by: "expert" } };
      given(requested, paid, confirmed, asked, declined("Away"), askedAgain, accepted).then({
        scheduled_time: accepted.data.to,
        reschedule_declined_to: null,
        reschedule_decline_reason: null,
      });
    });
    it("a cancelled or completed booking's request ends with it", () => {
      given(requested, paid, confirmed, asked, {
        type: "Cancelled",
        data: { bookingId: "b1", by: "creator", reason: "", refundCents: 15_000 },
      }).then({ status: "cancelled", reschedule_to: null, reschedule_requested_at: null });
      given(requested, paid, confirmed, asked, { type: "Completed", data: { bookingId: "b1" } }).then({
        status: "completed",
        reschedule_to: null,
      });
    });
    it("the expert's meeting link is kept as set", () => {
      given(requested, paid, confirmed, {
        type: "JoinLinkSet",
        data: { bookingId: "b1", url: "https://meet.example.com/x", by: "expert" },
      }).then({ join_link: "https://meet.example.com/x", stream_version: 4 });
    });
  });
});
