import type pg from "pg";

// One SQL operation per function over calendar_connections and external_calendars (schema.ts).

type Queryable = Pick<pg.Pool, "query">;

export type ConnectionKind = "ics" | "caldav";

export type ConnectionRow = {
  connection_id: string;
  expert_id: string;
  kind: ConnectionKind;
  label: string;
  sealed_secret: string;
  all_day_blocks: boolean;
  created_at: string;
  last_synced_at: string | null;
  last_error: string | null;
  failures: number;
  next_sync_at: string;
};

export type CalendarRow = {
  calendar_id: string;
  connection_id: string;
  name: string;
  url: string | null;
  blocks: boolean;
  receives_bookings: boolean;
  busy_count: number;
  etag: string | null;
  last_modified: string | null;
  read_in_full_at: string | null;
};

export type ConnectionWithCalendars = ConnectionRow & { calendars: CalendarRow[] };

const CONNECTION_COLUMNS = `connection_id, expert_id, kind, label, sealed_secret, all_day_blocks,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(last_synced_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_synced_at,
  last_error, failures,
  to_char(next_sync_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS next_sync_at`;

export async function insertConnection(
  db: pg.Pool,
  c: Omit<ConnectionRow, "last_synced_at" | "last_error" | "failures"> & { source_fingerprint: string },
  calendars: readonly Pick<CalendarRow, "calendar_id" | "name" | "url" | "blocks">[],
): Promise<"inserted" | "already_connected"> {
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    const inserted = await client.query(
      `INSERT INTO calendar_connections (connection_id, expert_id, kind, label, sealed_secret, source_fingerprint, all_day_blocks, created_at, next_sync_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (expert_id, source_fingerprint) DO NOTHING`,
      [
        c.connection_id,
        c.expert_id,
        c.kind,
        c.label,
        c.sealed_secret,
        c.source_fingerprint,
        c.all_day_blocks,
        c.created_at,
        c.next_sync_at,
      ],
    );
    if (inserted.rowCount === 0) {
      await client.query("ROLLBACK");
      return "already_connected";
    }
    for (const k of calendars)
      await client.query(`INSERT INTO external_calendars (calendar_id, connection_id, name, url, blocks) VALUES ($1, $2, $3, $4, $5)`, [
        k.calendar_id,
        c.connection_id,
        k.name,
        k.url,
        k.blocks,
      ]);
    await client.query("COMMIT");
    return "inserted";
  } catch (e) {
    await client.query("ROLLBACK");
    throw e;
  } finally {
    client.release();
  }
}

async function withCalendars(db: Queryable, connections: ConnectionRow[]): Promise<ConnectionWithCalendars[]> {
  if (connections.length === 0) return [];
  const { rows } = await db.query<CalendarRow>(
    `SELECT calendar_id, connection_id, name, url, blocks, receives_bookings, busy_count, etag, last_modified,
       to_char(read_in_full_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS read_in_full_at
     FROM external_calendars WHERE connection_id = ANY($1) ORDER BY name, calendar_id`,
    [connections.map((c) => c.connection_id)],
  );
  return connections.map((c) => ({ ...c, calendars: rows.filter((k) => k.connection_id === c.connection_id) }));
}

export async function connectionsOf(db: Queryable, expertId: string): Promise<ConnectionWithCalendars[]> {
  const { rows } = await db.query<ConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM calendar_connections WHERE expert_id = $1 ORDER BY created_at, connection_id`,
    [expertId],
  );
  return withCalendars(db, rows);
}

export async function connectionOf(db: Queryable, expertId: string, connectionId: string): Promise<ConnectionWithCalendars | null> {
  const { rows } = await db.query<ConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM calendar_connections WHERE expert_id = $1 AND connection_id = $2`,
    [expertId, connectionId],
  );
  return (await withCalendars(db, rows))[0] ?? null;
}

export async function countConnections(db: Queryable, expertId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM calendar_connections WHERE expert_id = $1`, [expertId]);
  return rows[0]!.n;
}

/** Removes the connection, its sealed secret and its calendars; resolves to false when there was none. */
export async function deleteConnection(db: Queryable, expertId: string, connectionId: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM calendar_connections WHERE expert_id = $1 AND connection_id = $2`, [
    expertId,
    connectionId,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function setAllDayBlocks(db: Queryable, connectionId: string, allDayBlocks: boolean): Promise<void> {
  await db.query(`UPDATE calendar_connections SET all_day_blocks = $2 WHERE connection_id = $1`, [connectionId, allDayBlocks]);
}

export async function setBlockingCalendars(db: Queryable, connectionId: string, blocking: readonly string[]): Promise<void> {
  await db.query(`UPDATE external_calendars SET blocks = (calendar_id = ANY($2)) WHERE connection_id = $1`, [connectionId, blocking]);
}

/** One calendar of the expert's receives bookings (or none): choosing one unsets any other. */
export async function setBookingsCalendar(db: Queryable, expertId: string, calendarId: string | null): Promise<void> {
  await db.query(
    `UPDATE external_calendars k SET receives_bookings = (k.calendar_id = $2)
     FROM calendar_connections c WHERE c.connection_id = k.connection_id AND c.expert_id = $1`,
    [expertId, calendarId],
  );
}

/** The calendar that receives the expert's bookings, with its connection. */
export async function bookingsCalendarOf(
  db: Queryable,
  expertId: string,
): Promise<{ connection: ConnectionRow; calendar: CalendarRow } | null> {
  const { rows } = await db.query<ConnectionRow & { calendar: CalendarRow }>(
    `SELECT ${CONNECTION_COLUMNS}, to_jsonb(k) AS calendar FROM calendar_connections c
     JOIN external_calendars k USING (connection_id) WHERE c.expert_id = $1 AND k.receives_bookings LIMIT 1`,
    [expertId],
  );
  const row = rows[0];
  if (!row) return null;
  const { calendar, ...connection } = row;
  return { connection, calendar };
}

/**
 * Takes a connection for one read until `leaseUntil`: at most one read of a calendar is in flight.
 * `due` only: one whose next read has come (the sweeper); else any not taken (connect, sync now).
 */
export async function leaseConnections(
  db: Queryable,
  now: string,
  leaseUntil: string,
  pick: { due: true; limit: number } | { connectionId: string },
): Promise<ConnectionWithCalendars[]> {
  const which = "connectionId" in pick ? `connection_id = $3` : `next_sync_at <= $1`;
  const { rows } = await db.query<ConnectionRow>(
    `UPDATE calendar_connections SET leased_until = $2
     WHERE connection_id IN (
       SELECT connection_id FROM calendar_connections
       WHERE ${which} AND (leased_until IS NULL OR leased_until <= $1)
       ORDER BY next_sync_at LIMIT ${"connectionId" in pick ? 1 : "$3"} FOR UPDATE SKIP LOCKED)
     RETURNING ${CONNECTION_COLUMNS}`,
    [now, leaseUntil, "connectionId" in pick ? pick.connectionId : pick.limit],
  );
  return withCalendars(db, rows);
}

/** What a read found of one calendar: its busy times counted, the validators, and whether the file was read in full (not a 304). */
export type CalendarReadOutcome = {
  calendar_id: string;
  busy_count: number;
  etag: string | null;
  last_modified: string | null;
  in_full: boolean;
};

/** A good read: when, what each calendar held, the next read; the lease is given back. */
export async function recordSynced(
  db: Queryable,
  connectionId: string,
  at: string,
  nextAt: string,
  calendars: readonly CalendarReadOutcome[],
): Promise<void> {
  await db.query(
    `UPDATE calendar_connections SET last_synced_at = $2, last_error = NULL, failures = 0, next_sync_at = $3, leased_until = NULL WHERE connection_id = $1`,
    [connectionId, at, nextAt],
  );
  for (const k of calendars)
    await db.query(
      `UPDATE external_calendars SET busy_count = $2, etag = $3, last_modified = $4,
         read_in_full_at = CASE WHEN $5 THEN $6::timestamptz ELSE read_in_full_at END WHERE calendar_id = $1`,
      [k.calendar_id, k.busy_count, k.etag, k.last_modified, k.in_full, at],
    );
}

/** A failed read: the message the expert sees, one more failure, the next read after back-off; the lease is given back. */
export async function recordSyncFailed(db: Queryable, connectionId: string, message: string, nextAt: string): Promise<void> {
  await db.query(
    `UPDATE calendar_connections SET last_error = $2, failures = failures + 1, next_sync_at = $3, leased_until = NULL WHERE connection_id = $1`,
    [connectionId, message, nextAt],
  );
}

/** A calendar with its connection (where a booking was written, to update or remove it there). */
export async function calendarWithConnection(
  db: Queryable,
  calendarId: string,
): Promise<{ connection: ConnectionRow; calendar: CalendarRow } | null> {
  const { rows } = await db.query<ConnectionRow & { calendar: CalendarRow }>(
    `SELECT ${CONNECTION_COLUMNS}, to_jsonb(k) AS calendar FROM calendar_connections c
     JOIN external_calendars k USING (connection_id) WHERE k.calendar_id = $1`,
    [calendarId],
  );
  const row = rows[0];
  if (!row) return null;
  const { calendar, ...connection } = row;
  return { connection, calendar };
}
