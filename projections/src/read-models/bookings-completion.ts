import type { Queryable } from "./bookings-queries.ts";

/**
 * Confirmed bookings whose session has ended by `now`, the earliest end first: the completion
 * sweeper completes each. The calendar checks the end again (CompleteBooking refuses a session not
 * over), so a read model behind the log can only make the sweeper wait, never complete too early.
 */
export async function sessionsOver(db: Queryable, now: string, limit = 500): Promise<{ booking_id: string; expert_id: string }[]> {
  const { rows } = await db.query<{ booking_id: string; expert_id: string }>(
    `SELECT b.booking_id, b.expert_id FROM bookings b
     WHERE b.status = 'confirmed' AND b.scheduled_time + make_interval(mins => b.length_minutes) <= $1::timestamptz
     ORDER BY b.scheduled_time + make_interval(mins => b.length_minutes), b.booking_id LIMIT $2`,
    [now, limit],
  );
  return rows;
}
