import type pg from "pg";
import type { LogPosition, StoredEvent, StreamRead } from "../port.ts";
import { COLUMNS, toStored, type EventRow, type NoEventRow } from "./append-statements.ts";

// The store's reads, one statement each. Catch-up reads see only transactions below the oldest
// one still open (pg_snapshot_xmin), so an event committed out of order is never skipped.

export async function readStream(pool: pg.Pool, streamId: string, after: number): Promise<StreamRead> {
  // One statement, one snapshot: the stream's row with its events after `after` (none: one row
  // of nulls carrying the head), so a load is one round trip.
  const { rows } = await pool.query<(EventRow | NoEventRow) & { head: string }>({
    name: "read-stream",
    text: `SELECT streams.version AS head, ${COLUMNS}
     FROM streams LEFT JOIN events ON events.stream_id = streams.stream_id AND events.version > $2
     WHERE streams.stream_id = $1
     ORDER BY events.version`,
    values: [streamId, after],
  });
  const events = rows.filter((r): r is EventRow & { head: string } => r.event_id !== null).map(toStored);
  const version = events.length ? events[events.length - 1]!.version : Math.min(Number(rows[0]?.head ?? 0), after);
  return { version, events };
}

export async function readAll(pool: pg.Pool, after: LogPosition | null, limit: number): Promise<StoredEvent[]> {
  const { rows } = await pool.query<EventRow>(
    `SELECT ${COLUMNS} FROM events
     WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
       AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
     ORDER BY events.transaction_id, events.global_position
     LIMIT $3`,
    [String(after?.commit ?? 0n), String(after?.prepare ?? 0n), limit],
  );
  return rows.map(toStored);
}

export async function headPosition(pool: pg.Pool): Promise<LogPosition | null> {
  const { rows } = await pool.query<{ transaction_id: string; global_position: string }>(
    `SELECT transaction_id::text AS transaction_id, global_position FROM events
     WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
     ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
  );
  const r = rows[0];
  return r ? { commit: BigInt(r.transaction_id), prepare: BigInt(r.global_position) } : null;
}

export async function countEvents(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM events");
  return Number(rows[0]!.n);
}
