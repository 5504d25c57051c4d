import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { EventMetadata } from "@booking/contracts";
import {
  RowAlreadyWritten,
  WrongExpectedVersion,
  type AppendResult,
  type ExpectedVersion,
  type NewEvent,
  type RowsToWrite,
  type StoredEvent,
} from "../port.ts";

// The statements that write appends, and the rows they (and the reads) return as stored events.

/** One stream's append within a batch, with the rows to write in its transaction. */
export type BatchedAppend = { streamId: string; events: readonly NewEvent[]; expected: ExpectedVersion; rows?: RowsToWrite | undefined };

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Rows to write as SQL: the table and columns checked (they go into the statement's text), the shape naming the statement. */
function rowsSql(rows: RowsToWrite): { shape: string; into: string } {
  for (const name of [rows.table, ...rows.columns]) if (!IDENTIFIER.test(name)) throw new Error(`Not a table or column name: ${name}`);
  if (rows.columns.length === 0 || rows.rows.some((r) => r.length !== rows.columns.length))
    throw new Error(`Rows for ${rows.table} do not fit its columns`);
  return { shape: `${rows.table}(${rows.columns.join(",")})`, into: `INSERT INTO ${rows.table} (${rows.columns.join(", ")})` };
}

/** The same table and columns: rows of one shape go in one statement. */
export const sameShape = (a: RowsToWrite, b: RowsToWrite): boolean =>
  a.table === b.table && a.columns.length === b.columns.length && a.columns.every((c, i) => c === b.columns[i]);

/** The columns of `rows` as one text array each (unnest's arguments). */
const columnsOf = (rows: readonly (readonly string[])[], width: number): string[][] =>
  Array.from({ length: width }, (_, c) => rows.map((r) => r[c]!));

/** A duplicate key in the table rows were written to: the append is refused (nothing of it was written). */
function refusedRow(e: unknown, rows: RowsToWrite | undefined): unknown {
  const error = e as { code?: unknown; table?: unknown; detail?: unknown };
  if (!rows || error.code !== "23505" || error.table !== rows.table) return e;
  return new RowAlreadyWritten(rows.table, typeof error.detail === "string" ? error.detail : "duplicate key");
}

/** Which database this is: its name and its server's start, which two connections to it agree on and no other database shares. */
export async function databaseIdentity(db: pg.Pool): Promise<string> {
  const { rows } = await db.query<{ id: string }>("SELECT current_database() || ' ' || pg_postmaster_start_time()::text AS id");
  return rows[0]!.id;
}

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
  // The rows to write alongside (one shape per batch: GroupCommit), each with its append's place, written only when
  // that append's claim holds; in key order, so concurrent batches lock them in the same order.
  const shape = appends.find((a) => a.rows && a.rows.rows.length > 0)?.rows;
  if (shape && appends.some((a) => a.rows && a.rows.rows.length > 0 && !sameShape(a.rows, shape)))
    throw new Error("A batch's rows are of one table");
  const alongside = shape && rowsSql(shape);
  const rowsOf = appends.flatMap((a, i) => (a.rows && alongside ? a.rows.rows.map((r) => [String(i + 1), ...r]) : []));
  const rowsCte = alongside
    ? `, alongside AS (
         ${alongside.into} SELECT ${shape.columns.map((c) => `r.${c}`).join(", ")}
         FROM unnest($12::int[], ${shape.columns.map((_, c) => `$${13 + c}::text[]`).join(", ")}) AS r(i, ${shape.columns.join(", ")})
         WHERE r.i IN (SELECT appends.i FROM appends JOIN claimed ON claimed.stream_id = appends.stream_id)
         ORDER BY 1)`
    : "";
  const { rows } = await db.query<WrittenRow & { stream_id: string }>({
    name: alongside ? `append-batch+${alongside.shape}` : "append-batch",
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
       claimed AS (SELECT * FROM created UNION ALL SELECT * FROM anyhow UNION ALL SELECT * FROM moved)${rowsCte}
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
      ...(shape
        ? [
            rowsOf.map((r) => Number(r[0])),
            ...columnsOf(
              rowsOf.map((r) => r.slice(1)),
              shape.columns.length,
            ),
          ]
        : []),
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
  rows?: RowsToWrite,
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
  // Rows to write alongside: only if the claim holds (no row of a refused append stays behind).
  const alongside = rows && rows.rows.length > 0 ? rowsSql(rows) : undefined;
  let rowsCte = "";
  if (alongside && rows) {
    const first = params.length + 1;
    params.push(...columnsOf(rows.rows, rows.columns.length));
    rowsCte = `, alongside AS (${alongside.into} SELECT * FROM unnest(${rows.columns.map((_, c) => `$${first + c}::text[]`).join(", ")})
      WHERE EXISTS (SELECT 1 FROM claimed) ORDER BY 1)`;
  }
  const written = await db
    .query<WrittenRow>({
      // Named: each connection parses and plans the statement once, not on every append.
      name: `append-${single ? "one" : "many"}-${claim.name}${alongside ? `+${alongside.shape}` : ""}`,
      text: `WITH claimed AS (${claim.sql})${rowsCte}
     INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata)
     ${
       single
         ? "SELECT $1, claimed.version, $3::uuid, $4::text, $5::int, $6::jsonb, $7::jsonb FROM claimed"
         : "SELECT $1, claimed.version - $2 + x.ord, x.e, x.t, x.sv, x.d, x.m FROM claimed, unnest($3::uuid[], " +
           "$4::text[], $5::int[], $6::jsonb[], $7::jsonb[]) WITH ORDINALITY AS x(e, t, sv, d, m, ord)"
     }
     RETURNING global_position, transaction_id::text AS transaction_id, version, event_id, ${RECORDED_AT}`,
      values: params,
    })
    .catch((e: unknown) => {
      throw refusedRow(e, rows);
    });
  if (written.rows.length === 0)
    throw new WrongExpectedVersion(streamId, expected, (await streamHeads(db, [streamId])).get(streamId) ?? null);
  // Only the events' places in the log come back: their content is what we sent, read back the
  // way a reader of the jsonb columns would see it.
  return storedAsWritten(streamId, events, ids, data, metadata, written.rows);
}
