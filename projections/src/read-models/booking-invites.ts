import type { BookingStatus } from "@booking/contracts";
import type { Queryable } from "./bookings-queries.ts";

// What a calendar entry of a booking shows, read across the bookings, users, experts and
// schedules read models: the booking's time and title, both parties' names and addresses, and
// the expert's zone.

export type BookingInviteFacts = {
  booking_id: string;
  status: BookingStatus;
  scheduled_time: string;
  length_minutes: number;
  session_title: string;
  stream_version: number;
  updated_at: string;
  creator_id: string;
  expert_user_id: string;
  creator_name: string | null;
  creator_email: string | null;
  expert_name: string | null;
  expert_email: string | null;
  expert_timezone: string | null;
};

const SELECT = `SELECT b.booking_id, b.status, b.scheduled_time, b.length_minutes, b.session_title,
    b.stream_version, b.updated_at, b.creator_id, b.expert_user_id,
    NULLIF(concat_ws(' ', cu.first_name, cu.last_name), '') AS creator_name, cu.email AS creator_email,
    NULLIF(concat_ws(' ', e.first_name, e.last_name), '') AS expert_name, eu.email AS expert_email, s.timezone AS expert_timezone
  FROM bookings b
  LEFT JOIN users cu ON cu.user_id = b.creator_id
  LEFT JOIN experts e ON e.expert_id = b.expert_id
  LEFT JOIN users eu ON eu.user_id = b.expert_user_id
  LEFT JOIN schedules s ON s.expert_id = b.expert_id`;

type Raw = Omit<BookingInviteFacts, "scheduled_time" | "updated_at" | "stream_version"> & {
  scheduled_time: Date;
  updated_at: Date;
  stream_version: string | number;
};

const fromPg = (r: Raw): BookingInviteFacts => ({
  ...r,
  scheduled_time: r.scheduled_time.toISOString(),
  updated_at: r.updated_at.toISOString(),
  stream_version: Number(r.stream_version),
});

export async function bookingInviteFacts(db: Queryable, bookingId: string): Promise<BookingInviteFacts | null> {
  const { rows } = await db.query<Raw>(`${SELECT} WHERE b.booking_id = $1`, [bookingId]);
  return rows[0] ? fromPg(rows[0]) : null;
}

/** A user's confirmed bookings (as creator or expert) that end after `from`, earliest first: a personal calendar feed. */
export async function confirmedBookingInvitesOf(db: Queryable, userId: string, from: string, limit = 500): Promise<BookingInviteFacts[]> {
  const { rows } = await db.query<Raw>(
    `${SELECT} WHERE (b.creator_id = $1 OR b.expert_user_id = $1) AND b.status = 'confirmed'
       AND b.scheduled_time + make_interval(mins => b.length_minutes) > $2::timestamptz
     ORDER BY b.scheduled_time, b.booking_id LIMIT $3`,
    [userId, from, limit],
  );
  return rows.map(fromPg);
}
