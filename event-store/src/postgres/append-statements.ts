import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { EventMetadata } from "@booking/contracts";
import { WrongExpectedVersion, type AppendResult, type ExpectedVersion, type NewEvent, type StoredEvent } from "../port.ts";

// The statements that write appends, and the rows they (and the reads) return as stored events.

/** One stream's append within a batch. */
export type BatchedAppend = { streamId: string; events: readonly NewEvent[]; expected: ExpectedVersion };

export type WrittenRow = Pick<EventRow, "global_position" | "transaction_id" | "version" | "event_id" | "recorded_at">;

/** The statement that reserves versions for $2 new events of stream $1; it returns the new stream version, or no row when the expectation fails. */
export function claimSql(expected: ExpectedVersion): { name: string; sql: string } {
  if (expected === "no_stream" || expected === 0) {
    // "No stream" means version 0 exactly: a concurrent creator makes this a conflict.
    return { name: "new", sql: "INSERT INTO streams (stream_id, version) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING version" };
  }
  if (expected === "any") {
    return {
      name: "any",
      sql:
        "INSERT INTO streams (stream_id, version) VALUES ($1, $2) ON CONFLICT (stream_id) DO UPDATE SET version " +
        "= streams.version + EXCLUDED.version RETURNING version",
    };
  }
  if (expected === "stream_exists")
    return { name: "existing", sql: "UPDATE streams SET version = version + $2 WHERE stream_id = $1 RETURNING version" };
  return { name: "at-version", sql: "UPDATE streams SET version = version + $2 WHERE stream_id = $1 AND version = $8 RETURNING version" };
}

export type EventRow = {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  version: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: string;
};

// ORDER BY must name `events.transaction_id`: the bare name binds to this text alias and sorts '1000' before '999'.
// The time an event was recorded, as the ISO string StoredEvent carries (milliseconds, UTC), written
// by Postgres: parsing it into a Date in Node to print it again cost a replay 5 % of its time.
export const RECORDED_AT = `to_char(events.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at`;

export const COLUMNS =
  `events.global_position, events.transaction_id::text AS transaction_id, events.stream_id, events.version, ` +
  `events.event_id, events.type, events.schema_version, events.data, events.metadata, ${RECORDED_AT}`;

/** A stream with no events after the asked version: the LEFT JOIN's one row, events' columns null. */
export type NoEventRow = { [K in keyof EventRow]: null };

export function toStored(r: EventRow): StoredEvent {
  return {
    eventId: r.event_id,
    streamId: r.stream_id,
    version: Number(r.version),
    position: { commit: BigInt(r.transaction_id), prepare: BigInt(r.global_position) },
    type: r.type,
    schemaVersion: r.schema_version,
    data: r.data,
    metadata: r.metadata,
    recordedAt: r.recorded_at,
  };
}

/**
 * The written events as a reader would see them: their places in the log from the rows written,
 * their content what we sent, read back the way a reader of the jsonb columns would.
 */
export function storedAsWritten(
  streamId: string,
  events: readonly NewEvent[],
  ids: readonly string[],
  data: readonly string[],
  metadata: readonly string[],
  rows: readonly WrittenRow[],
): StoredEvent[] {
  const byId = new Map(ids.map((id, i) => [id, i]));
  return rows
    .map((r) => {
      const i = byId.get(r.event_id)!;
      const e = events[i]!;
      return toStored({
        ...r,
        stream_id: streamId,
        type: e.type,
        schema_version: e.schemaVersion ?? 1,
        data: JSON.parse(data[i]!),
        metadata: JSON.parse(metadata[i]!) as EventMetadata,
      });
    })
    .sort((a, b) => a.version - b.version);
}

export function appendResult(stored: StoredEvent[]): AppendResult {
  const last = stored[stored.length - 1]!;
  return { nextVersion: last.version, position: last.position, events: stored };
}

/** Each stream's version now (a stream not in the map does not exist). */
export async function streamHeads(db: pg.Pool | pg.PoolClient, streamIds: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ stream_id: string; version: string }>(
    "SELECT stream_id, version FROM streams WHERE stream_id = ANY($1::text[])",
    [streamIds],
  );
  return new Map(rows.map((r) => [r.stream_id, Number(r.version)]));
}

/** How a batch states an expectation: the claim each kind makes on the stream's row. */
export function claimKind(expected: ExpectedVersion): "new" | "any" | "existing" | "at-version" {
  if (expected === "no_stream" || expected === 0) return "new";
  if (expected === "any") return "any";
  if (expected === "stream_exists") return "existing";
  return "at-version";
}

/**
 * The appends of a batch (one per stream) as one statement: each stream's claim is made as
 * `claimSql` makes it alone, and only the claimed streams' events are inserted; an append missing
 * from the result was refused by its stream's expectation. The appends go in stream order, so two
 * processes' batches mostly lock rows in the same order (a deadlock fails the statement: the
 * batch is then written one by one).
 */
export async function writeBatchEvents<A extends BatchedAppend>(db: pg.Pool, batch: readonly A[]): Promise<Map<A, StoredEvent[]>> {
  const appends = [...batch].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
  const ids = appends.map((a) => a.events.map((e) => e.eventId ?? randomUUID()));
  const data = appends.map((a) => a.events.map((e) => JSON.stringify(e.data)));
  const metadata = appends.map((a) => a.events.map((e) => JSON.stringify(e.metadata)));
  const { rows } = await db.query<WrittenRow & { stream_id: string }>({
    name: "append-batch",
    text: `WITH appends AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) WITH ORDINALITY AS a(stream_id, claim, expected, n, i)
       ),
       created AS (
         INSERT INTO streams (stream_id, version) SELECT stream_id, n FROM appends WHERE claim = 'new' ORDER BY i
         ON CONFLICT DO NOTHING RETURNING stream_id, version
       ),
       anyhow AS (
         INSERT INTO streams (stream_id, version) SELECT stream_id, n FROM appends WHERE claim = 'any' ORDER BY i
         ON CONFLICT (stream_id) DO UPDATE SET version = streams.version + EXCLUDED.version RETURNING stream_id, version
       ),
       moved AS (
         UPDATE streams SET version = streams.version + appends.n FROM appends
         WHERE streams.stream_id = appends.stream_id AND (appends.claim = 'existing' OR (appends.claim = 'at-version' AND streams.version = appends.expected))
         RETURNING streams.stream_id, streams.version
       ),
       claimed AS (SELECT * FROM created UNION ALL SELECT * FROM anyhow UNION ALL SELECT * FROM moved)
       INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata)
       SELECT appends.stream_id, claimed.version - appends.n + x.ord, x.e, x.t, x.sv, x.d, x.m
       FROM claimed
       JOIN appends ON appends.stream_id = claimed.stream_id
       JOIN unnest($5::int[], $6::int[], $7::uuid[], $8::text[], $9::int[], $10::jsonb[], $11::jsonb[]) AS x(i, ord, e, t, sv, d, m) ON x.i = appends.i
       ORDER BY appends.i, x.ord
       RETURNING global_position, transaction_id::text AS transaction_id, stream_id, version, event_id, ${RECORDED_AT}`,
    values: [
      appends.map((a) => a.streamId),
      appends.map((a) => claimKind(a.expected)),
      appends.map((a) => (typeof a.expected === "number" ? a.expected : 0)),
      appends.map((a) => a.events.length),
      appends.flatMap((a, i) => a.events.map(() => i + 1)),
      appends.flatMap((a) => a.events.map((_, ord) => ord + 1)),
      ids.flat(),
      appends.flatMap((a) => a.events.map((e) => e.type)),
      appends.flatMap((a) => a.events.map((e) => e.schemaVersion ?? 1)),
      data.flat(),
      metadata.flat(),
    ],
  });
  const byStream = new Map<string, WrittenRow[]>();
  for (const r of rows) byStream.set(r.stream_id, [...(byStream.get(r.stream_id) ?? []), r]);
  const written = new Map<A, StoredEvent[]>();
  appends.forEach((a, i) => {
    const mine = byStream.get(a.streamId);
    if (mine) written.set(a, storedAsWritten(a.streamId, a.events, ids[i]!, data[i]!, metadata[i]!, mine));
  });
  return written;
}

/**
 * Claim the stream's next versions (enforcing the expected version) and insert the events, as one
 * statement. A concurrent writer with the same expectation waits on the stream's row lock, then
 * finds the version moved: the claim returns no row and nothing is inserted.
 */
export async function writeEvents(
  db: pg.Pool | pg.PoolClient,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<StoredEvent[]> {
  if (events.length === 0) throw new Error("append needs at least one event");
  const ids = events.map((e) => e.eventId ?? randomUUID());
  const data = events.map((e) => JSON.stringify(e.data));
  const metadata = events.map((e) => JSON.stringify(e.metadata));
  // Most commands write one event: then the values go as scalars, sparing Postgres (and pg) the
  // array literals that unnest needs.
  const single = events.length === 1;
  const params: unknown[] = single
    ? [streamId, 1, ids[0], events[0]!.type, events[0]!.schemaVersion ?? 1, data[0], metadata[0]]
    : [streamId, events.length, ids, events.map((e) => e.type), events.map((e) => e.schemaVersion ?? 1), data, metadata];
  if (typeof expected === "number" && expected > 0) params.push(expected);
  const claim = claimSql(expected);
  const { rows } = await db.query<WrittenRow>({
    // Named: each connection parses and plans the statement once, not on every append.
    name: `append-${single ? "one" : "many"}-${claim.name}`,
    text: `WITH claimed AS (${claim.sql})
     INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata)
     ${
       single
         ? "SELECT $1, claimed.version, $3::uuid, $4::text, $5::int, $6::jsonb, $7::jsonb FROM claimed"
         : "SELECT $1, claimed.version - $2 + x.ord, x.e, x.t, x.sv, x.d, x.m FROM claimed, unnest($3::uuid[], " +
           "$4::text[], $5::int[], $6::jsonb[], $7::jsonb[]) WITH ORDINALITY AS x(e, t, sv, d, m, ord)"
     }
     RETURNING global_position, transaction_id::text AS transaction_id, version, event_id, ${RECORDED_AT}`,
    values: params,
  });
  if (rows.length === 0) throw new WrongExpectedVersion(streamId, expected, (await streamHeads(db, [streamId])).get(streamId) ?? null);
  // Only the events' places in the log come back: their content is what we sent, read back the
  // way a reader of the jsonb columns would see it.
  return storedAsWritten(streamId, events, ids, data, metadata, rows);
}
