import { sql, streamEntityId, type Projection, type Sql } from "../projection.ts";

/** Bookings as both parties see them: time, status, payment state, prep, info note, notes. */
export const bookingsProjection: Projection = {
  name: "bookings",
  tables: ["bookings"],
  project: ({ event, stored }) => {
    const v = stored.version;
    const at = stored.metadata.at;
    const set = (bookingId: string, assignments: string, ...values: unknown[]): Sql[] => [
      sql(`UPDATE bookings SET ${assignments}, updated_at = $2, stream_version = $3 WHERE booking_id = $1 AND stream_version < $3`, bookingId, at, v, ...values),
    ];
    switch (event.type) {
      case "BookingRequested": {
        const d = event.data;
        return [
          sql(
            `INSERT INTO bookings (booking_id, expert_id, expert_user_id, creator_id, session_id, session_title, price_cents, length_minutes, scheduled_time, held_until,
               status, prep_questions, created_at, updated_at, stream_version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12, $12, $13)
             ON CONFLICT (booking_id) DO NOTHING`,
            d.bookingId, streamEntityId(stored.streamId), d.expertUserId, d.creatorId, d.sessionId, d.sessionTitle, d.priceCents, d.lengthMinutes,
            d.scheduledTime, d.heldUntil, JSON.stringify(d.prepQuestions), at, v,
          ),
        ];
      }
      case "PaymentSucceeded":
        return set(event.data.bookingId, "paid_cents = paid_cents + $4, payment_state = CASE WHEN payment_state = 'unpaid' THEN 'paid' ELSE payment_state END", event.data.amountCents);
      case "RefundDue":
        return set(event.data.bookingId, "refund_due_cents = refund_due_cents + $4, payment_state = 'refund_due'", event.data.amountCents);
      case "PrepSubmitted":
        return set(event.data.bookingId, "prep_answers = $4, status = CASE WHEN status = 'more_info_requested' THEN 'pending' ELSE status END", JSON.stringify(event.data.answers));
      case "InfoRequested":
        return set(event.data.bookingId, "status = 'more_info_requested', info_request_note = $4", event.data.note);
      case "TimeProposed":
        return set(event.data.bookingId, "status = 'time_proposed', scheduled_time = $4, previous_time = $5", event.data.scheduledTime, event.data.previousTime);
      case "Confirmed":
        return set(event.data.bookingId, "status = 'confirmed'");
      case "Cancelled":
        return set(
          event.data.bookingId,
          "status = 'cancelled', cancelled_by = $4, cancel_reason = $5, refund_due_cents = refund_due_cents + $6, payment_state = CASE WHEN $6::bigint > 0 THEN 'refund_due' ELSE payment_state END",
          event.data.by, event.data.reason, event.data.refundCents,
        );
      case "Completed":
        return set(event.data.bookingId, "status = 'completed'");
      case "NotesAdded":
        return set(event.data.bookingId, "notes = $4", JSON.stringify(event.data.notes));
      default:
        return [];
    }
  },
};
