import type pg from "pg";
import type { BookingStatus, CreatorBookingFacts } from "@booking/contracts";

export type BookingRow = {
  booking_id: string; expert_id: string; expert_user_id: string; creator_id: string; session_id: string; session_title: string;
  price_cents: string; length_minutes: number; scheduled_time: Date; previous_time: Date | null; held_until: Date; status: string;
  paid_cents: string; refund_due_cents: string; payment_state: string; prep_questions: string[]; prep_answers: string[] | null;
  info_request_note: string | null; notes: { summary: string; recap: string; takeaways: string[]; suggestedActions: string[] } | null;
  cancelled_by: string | null; cancel_reason: string | null; created_at: Date; updated_at: Date;
  creator_first_name: string | null; creator_last_name: string | null; expert_first_name: string | null; expert_last_name: string | null; expert_image: string | null;
};

const SELECT = `SELECT b.*, u.first_name AS creator_first_name, u.last_name AS creator_last_name,
  e.first_name AS expert_first_name, e.last_name AS expert_last_name, e.profile_image AS expert_image
  FROM bookings b LEFT JOIN users u ON u.user_id = b.creator_id LEFT JOIN experts e ON e.expert_id = b.expert_id`;

const name = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(" ") || null;

/** A booking as both parties see it (spec section 3, plus what the lifecycle adds: payment, hold, cancellation). */
export function bookingView(r: BookingRow) {
  const answers = r.prep_answers ?? [];
  return {
    id: r.booking_id,
    status: r.status,
    scheduled_time: r.scheduled_time.toISOString(),
    previous_time: r.previous_time?.toISOString() ?? null,
    length_minutes: r.length_minutes,
    session_id: r.session_id,
    session_title: r.session_title,
    session: { title: r.session_title, price: Number(r.price_cents) / 100, expertFirstName: r.expert_first_name },
    expert_id: r.expert_id,
    creator_id: r.creator_id,
    creator_name: name(r.creator_first_name, r.creator_last_name),
    expert_name: name(r.expert_first_name, r.expert_last_name),
    expert_image: r.expert_image,
    profile_image: r.expert_image,
    info_request_note: r.info_request_note,
    prep_question_1: r.prep_questions[0] ?? null,
    prep_question_2: r.prep_questions[1] ?? null,
    prep_question_3: r.prep_questions[2] ?? null,
    prep_response_1: answers[0] ?? null,
    prep_response_2: answers[1] ?? null,
    prep_response_3: answers[2] ?? null,
    price: Number(r.price_cents) / 100,
    payment_state: r.payment_state,
    paid: Number(r.paid_cents) >= Number(r.price_cents),
    held_until: r.held_until.toISOString(),
    has_notes: r.notes !== null,
    cancelled_by: r.cancelled_by,
    cancel_reason: r.cancel_reason,
    created_at: r.created_at.toISOString(),
  };
}

export async function findBooking(db: pg.Pool, bookingId: string): Promise<BookingRow | null> {
  return (await db.query<BookingRow>(`${SELECT} WHERE b.booking_id = $1`, [bookingId])).rows[0] ?? null;
}

export async function bookingsOfCreator(db: pg.Pool, creatorId: string): Promise<BookingRow[]> {
  return (await db.query<BookingRow>(`${SELECT} WHERE b.creator_id = $1 ORDER BY b.scheduled_time DESC, b.booking_id LIMIT 500`, [creatorId])).rows;
}

export async function bookingsOfExpertUser(db: pg.Pool, expertUserId: string): Promise<BookingRow[]> {
  return (await db.query<BookingRow>(`${SELECT} WHERE b.expert_user_id = $1 ORDER BY b.scheduled_time DESC, b.booking_id LIMIT 500`, [expertUserId])).rows;
}

/**
 * The creator's bookings with every expert that may still hold time, as facts for a booking
 * request; which of them hold it (an unpaid hold expires) is the calendar rules' call.
 */
export async function creatorBookingFacts(db: pg.ClientBase | pg.Pool, creatorId: string, now: string): Promise<CreatorBookingFacts[]> {
  const { rows } = await db.query<{ booking_id: string; status: BookingStatus; scheduled_time: Date; length_minutes: number; held_until: Date; price_cents: string; paid_cents: string }>(
    `SELECT booking_id, status, scheduled_time, length_minutes, held_until, price_cents, paid_cents FROM bookings
     WHERE creator_id = $1 AND status IN ('pending', 'time_proposed', 'more_info_requested', 'confirmed')
       AND scheduled_time + make_interval(mins => length_minutes) > $2::timestamptz`,
    [creatorId, now],
  );
  return rows.map((r) => ({
    bookingId: r.booking_id,
    status: r.status,
    scheduledTime: r.scheduled_time.toISOString(),
    lengthMinutes: r.length_minutes,
    heldUntil: r.held_until.toISOString(),
    priceCents: Number(r.price_cents),
    paidCents: Number(r.paid_cents),
  }));
}

/** Periods an expert's active bookings hold, as the schedule call's `booked` list shows them. */
export async function bookedPeriods(db: pg.Pool, expertId: string, now: string): Promise<{ scheduled_time: string; length_minutes: number }[]> {
  const { rows } = await db.query<{ scheduled_time: Date; length_minutes: number }>(
    `SELECT scheduled_time, length_minutes FROM bookings
     WHERE expert_id = $1 AND scheduled_time + make_interval(mins => length_minutes) > $2::timestamptz
       AND (status IN ('time_proposed', 'more_info_requested', 'confirmed') OR (status = 'pending' AND (payment_state <> 'unpaid' OR held_until > $2::timestamptz)))
     ORDER BY scheduled_time`,
    [expertId, now],
  );
  return rows.map((r) => ({ scheduled_time: r.scheduled_time.toISOString(), length_minutes: r.length_minutes }));
}
