import type pg from "pg";

// One SQL operation per function over external_booking_writes (schema.ts): which booking is due to be
// written into (or removed from) the expert's chosen calendar, and where it was written.

type Queryable = Pick<pg.Pool, "query">;

export type BookingWriteRow = {
  booking_id: string;
  expert_id: string;
  wanted_version: number;
  calendar_id: string | null;
  object_url: string | null;
  attempts: number;
};

/** A booking's write is due: its calendar stream moved to `version` (the read model must show that version first). */
export async function markWriteDue(db: Queryable, bookingId: string, expertId: string, version: number, now: string): Promise<void> {
  await db.query(
    `INSERT INTO external_booking_writes (booking_id, expert_id, wanted_version, due, attempts, next_attempt_at)
     VALUES ($1, $2, $3, true, 0, $4)
     ON CONFLICT (booking_id) DO UPDATE SET wanted_version = GREATEST(external_booking_writes.wanted_version, EXCLUDED.wanted_version),
       due = true, attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at`,
    [bookingId, expertId, version, now],
  );
}

/** The expert's confirmed bookings not yet over: due for the calendar just chosen to receive them. */
export async function queueUpcomingBookings(db: Queryable, expertId: string, now: string): Promise<void> {
  await db.query(
    `INSERT INTO external_booking_writes (booking_id, expert_id, wanted_version, due, attempts, next_attempt_at)
     SELECT booking_id, $1, stream_version, true, 0, $2 FROM bookings
     WHERE expert_id = $1 AND status = 'confirmed' AND scheduled_time + make_interval(mins => length_minutes) > $2::timestamptz
     ON CONFLICT (booking_id) DO UPDATE SET due = true, attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at`,
    [expertId, now],
  );
}

/** Takes the writes due now until `leaseUntil`, so two processes never write one booking at once. */
export async function takeDueWrites(db: Queryable, now: string, leaseUntil: string, limit: number): Promise<BookingWriteRow[]> {
  const { rows } = await db.query<BookingWriteRow>(
    `UPDATE external_booking_writes SET leased_until = $2
     WHERE booking_id IN (
       SELECT booking_id FROM external_booking_writes
       WHERE due AND next_attempt_at <= $1 AND (leased_until IS NULL OR leased_until <= $1)
       ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING booking_id, expert_id, wanted_version::int AS wanted_version, calendar_id, object_url, attempts`,
    [now, leaseUntil, limit],
  );
  return rows;
}

/**
 * Done: the booking is in `calendarId` at `objectUrl` starting `start`, or (all null) in no calendar.
 * A mark made while this write ran (a higher wanted version) keeps it due.
 */
export async function recordWritten(
  db: Queryable,
  row: Pick<BookingWriteRow, "booking_id" | "wanted_version">,
  where: { calendarId: string; objectUrl: string; start: string } | null,
): Promise<void> {
  await db.query(
    `UPDATE external_booking_writes SET calendar_id = $3, object_url = $4, written_start = $5, leased_until = NULL, last_error = NULL,
       attempts = 0, due = (wanted_version > $2)
     WHERE booking_id = $1`,
    [row.booking_id, row.wanted_version, where?.calendarId ?? null, where?.objectUrl ?? null, where?.start ?? null],
  );
}

/** Not done: tried again at `nextAt` (a failure counts one more attempt; waiting for the read model does not). */
export async function recordWriteDeferred(db: Queryable, bookingId: string, nextAt: string, failure: string | null): Promise<void> {
  await db.query(
    `UPDATE external_booking_writes SET next_attempt_at = $2, leased_until = NULL,
       attempts = attempts + CASE WHEN $3::text IS NULL THEN 0 ELSE 1 END, last_error = COALESCE($3, last_error)
     WHERE booking_id = $1`,
    [bookingId, nextAt, failure],
  );
}

/** Where the booking's copy is, for the booking's screens and tests. */
export async function bookingWriteOf(
  db: Queryable,
  bookingId: string,
): Promise<{ calendar_id: string | null; object_url: string | null } | null> {
  const { rows } = await db.query(`SELECT calendar_id, object_url FROM external_booking_writes WHERE booking_id = $1`, [bookingId]);
  return rows[0] ?? null;
}
