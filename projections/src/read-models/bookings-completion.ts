import type { Queryable } from "./bookings-queries.ts";

// The sweepers' reads of the bookings read model: sessions over (to complete) and no-show reports left
// uncontested (to settle).

/**
 * Confirmed bookings whose session has ended by `now`, the earliest end first: the completion
 * sweeper completes each. The calendar checks the end again (CompleteBooking refuses a session not
 * over), so a read model behind the log can only make the sweeper wait, never complete too early.
 */
export async function sessionsOver(db: Queryable, now: string, limit = 500): Promise<{ booking_id: string; expert_id: string }[]> {
  const { rows } = await db.query<{ booking_id: string; expert_id: string }>(
    `SELECT b.booking_id, b.expert_id FROM bookings b
     WHERE b.status = 'confirmed' AND b.scheduled_time + make_interval(mins => b.length_minutes) <= $1::timestamptz
       AND b.no_show IS NULL
     ORDER BY b.scheduled_time + make_interval(mins => b.length_minutes), b.booking_id LIMIT $2`,
    [now, limit],
  );
  return rows;
}

/**
 * No-show reports nobody contested whose window to contest has passed by `now` (issue 31.1), the oldest first: the
 * no-show sweeper settles each. The calendar checks again (SettleNoShow refuses a report still open to contest).
 */
export async function uncontestedNoShows(db: Queryable, now: string, limit = 500): Promise<{ booking_id: string; expert_id: string }[]> {
  const { rows } = await db.query<{ booking_id: string; expert_id: string }>(
    `SELECT b.booking_id, b.expert_id FROM bookings b
     WHERE b.no_show IS NOT NULL AND b.no_show->>'outcome' IS NULL AND NOT (b.no_show->>'contested')::boolean
       AND (b.no_show->>'contest_by')::timestamptz < $1::timestamptz
     ORDER BY b.no_show->>'contest_by', b.booking_id LIMIT $2`,
    [now, limit],
  );
  return rows;
}
