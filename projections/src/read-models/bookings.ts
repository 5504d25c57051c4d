import type { SessionNotes } from "@booking/contracts";
import { entityProjection, streamEntityId } from "../projection.ts";

type BookingRow = {
  booking_id: string;
  expert_id: string;
  expert_user_id: string;
  creator_id: string;
  session_id: string;
  session_title: string;
  price_cents: number;
  length_minutes: number;
  scheduled_time: string;
  previous_time: string | null;
  held_until: string;
  status: string;
  paid_cents: number;
  refund_due_cents: number;
  payment_state: string;
  prep_questions: string[];
  prep_answers: string[] | null;
  info_request_note: string | null;
  notes: SessionNotes | null;
  cancelled_by: string | null;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
  stream_version: number;
};

/** Bookings as both parties see them: time, status, payment state, prep, info note, notes. */
export const bookingsProjection = entityProjection<BookingRow>({
  name: "bookings",
  table: "bookings",
  key: ["booking_id"],
  columns: [
    "booking_id", "expert_id", "expert_user_id", "creator_id", "session_id", "session_title", "price_cents", "length_minutes", "scheduled_time", "previous_time",
    "held_until", "status", "paid_cents", "refund_due_cents", "payment_state", "prep_questions", "prep_answers", "info_request_note", "notes", "cancelled_by",
    "cancel_reason", "created_at", "updated_at", "stream_version",
  ],
  rowKey: ({ event }) => ("bookingId" in event.data ? [event.data.bookingId] : null),
  evolve: (row, { event, stored }) => {
    const at = stored.metadata.at;
    if (event.type === "BookingRequested") {
      if (row) return row; // requested once; a second request for the id changes nothing
      const d = event.data;
      return {
        booking_id: d.bookingId,
        expert_id: streamEntityId(stored.streamId),
        expert_user_id: d.expertUserId,
        creator_id: d.creatorId,
        session_id: d.sessionId,
        session_title: d.sessionTitle,
        price_cents: d.priceCents,
        length_minutes: d.lengthMinutes,
        scheduled_time: d.scheduledTime,
        previous_time: null,
        held_until: d.heldUntil,
        status: "pending",
        paid_cents: 0,
        refund_due_cents: 0,
        payment_state: "unpaid",
        prep_questions: d.prepQuestions,
        prep_answers: null,
        info_request_note: null,
        notes: null,
        cancelled_by: null,
        cancel_reason: null,
        created_at: at,
        updated_at: at,
        stream_version: stored.version,
      };
    }
    // Every later event updates a booking that was requested; before that there is nothing to update.
    if (!row) return row;
    const updated = { ...row, updated_at: at, stream_version: stored.version };
    switch (event.type) {
      case "PaymentSucceeded":
        return { ...updated, paid_cents: row.paid_cents + event.data.amountCents, payment_state: row.payment_state === "unpaid" ? "paid" : row.payment_state };
      case "RefundDue":
        return { ...updated, refund_due_cents: row.refund_due_cents + event.data.amountCents, payment_state: "refund_due" };
      case "PrepSubmitted":
        return { ...updated, prep_answers: event.data.answers, status: row.status === "more_info_requested" ? "pending" : row.status };
      case "InfoRequested":
        return { ...updated, status: "more_info_requested", info_request_note: event.data.note };
      case "TimeProposed":
        return { ...updated, status: "time_proposed", scheduled_time: event.data.scheduledTime, previous_time: event.data.previousTime };
      case "Confirmed":
        return { ...updated, status: "confirmed" };
      case "Cancelled": {
        const { by, reason, refundCents } = event.data;
        return { ...updated, status: "cancelled", cancelled_by: by, cancel_reason: reason, refund_due_cents: row.refund_due_cents + refundCents, payment_state: refundCents > 0 ? "refund_due" : row.payment_state };
      }
      case "Completed":
        return { ...updated, status: "completed" };
      case "NotesAdded":
        return { ...updated, notes: event.data.notes };
      default:
        // PaymentFailed and the rest leave the booking as it is (and its version with it).
        return row;
    }
  },
});
