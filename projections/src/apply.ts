import type pg from "pg";
import { comparePositions, formatPosition, parsePosition, readDomainEvent, type LogPosition, type StoredEvent } from "@booking/contracts";
import { eraseFrom, erasedIn } from "./erasure.ts";
import { changedRows, factRows, rowIdentity, rowKeysOf } from "./fold.ts";
import type { EntityReadModel, FactsReadModel, ProjectedEvent, Projection, ReadModelRow, VersionedRow } from "./projection.ts";

/**
 * How a batch arrives. `log`: from the event log in global order, so each projection skips what
 * its checkpoint already covers. `bus`: from Kafka, ordered per stream only, so the rows' stream
 * versions do the deduplication. (A rebuild writes a generation of its own: applyToBuilding.)
 */
export type Delivery = "log" | "bus";

type CheckpointRow = { name: string; position: string | null; status: "live" | "rebuilding"; generation: number; version: number };

/**
 * A batch from the bus met a read model whose live generation was built by a newer rule than this
 * process has. Its offsets are not committed, so Kafka delivers the batch again (to this process
 * until it is replaced by a newer one): committing them without writing would lose the events for
 * the newer processes, and writing them would put the older rule's rows into the newer generation.
 */
export class OutdatedProjection extends Error {
  constructor(name: string, code: number, live: number) {
    super(
      `read model ${name}: this process has version ${code} of its rule, the live generation was built by version ${live}; leaving it to newer processes`,
    );
    this.name = "OutdatedProjection";
  }
}

export function toProjected(events: readonly StoredEvent[]): ProjectedEvent[] {
  return events.map((stored) => ({ stored, event: readDomainEvent(stored.type, stored.schemaVersion, stored.data) }));
}

/** A checkpoint row for each projection not seen before: its tables are empty, so its rule's version is theirs. */
export async function ensureCheckpoints(pool: pg.Pool, projections: readonly Projection[]): Promise<void> {
  await pool.query(
    "INSERT INTO projection_checkpoints (name, version) SELECT * FROM unnest($1::text[], $2::int[]) ON CONFLICT DO NOTHING",
    [projections.map((p) => p.name), projections.map((p) => p.version)],
  );
}

// Each read model uses a few fixed statements: naming them lets Postgres parse and plan each once per connection.
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `projection_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

function run<R extends pg.QueryResultRow = pg.QueryResultRow>(
  client: pg.PoolClient,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  return client.query<R>({ name: statementName(text), text, values });
}

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(", ");

/** One entity read model's rows a batch concerns: by their keys, in `table` (the live generation or one being built). */
type RowsAsked = { model: EntityReadModel<VersionedRow>; table: string; keys: readonly (readonly string[])[] };

/**
 * The stored rows of each ask, by rowIdentity, all in one statement (one round trip however many
 * read models the batch concerns).
 */
async function readRows(client: pg.PoolClient, asks: readonly RowsAsked[]): Promise<Map<string, VersionedRow>[]> {
  if (asks.length === 0) return [];
  const values: unknown[] = [];
  const selects = asks.map(({ model, table, keys }, ask) => {
    const params = model.key.map((_, i) => {
      values.push(keys.map((k) => k[i]));
      return `$${values.length}::text[]`;
    });
    const where =
      model.key.length === 1
        ? `"${model.key[0]}" = ANY(${params[0]})`
        : `(${quoted(model.key)}) IN (SELECT * FROM unnest(${params.join(", ")}))`;
    return `SELECT ${ask} AS ask, to_jsonb(t) AS stored FROM "${table}" t WHERE ${where}`;
  });
  // Not a named statement: a plan made once, while a table was small (as in a rebuild), would
  // scan the whole table for good. Planned each time, it looks the keys up in the primary keys.
  const { rows } = await client.query<{ ask: number; stored: VersionedRow }>(selects.join(" UNION ALL "), values);
  const found = asks.map(() => new Map<string, VersionedRow>());
  for (const { ask, stored } of rows) found[ask]!.set(rowIdentity(asks[ask]!.model.key.map((c) => stored[c])), stored);
  return found;
}

/** Rows to write into one table: an entity read model's whole rows (upserted), or facts (kept when new). */
type RowsWritten =
  | { kind: "entity"; model: EntityReadModel<VersionedRow>; table: string; rows: readonly VersionedRow[] }
  | { kind: "facts"; model: FactsReadModel<ReadModelRow>; table: string; rows: readonly ReadModelRow[] };

/** A checkpoint moved past a batch: the read model's new position and how many events it applied. */
type CheckpointMove = { name: string; position: string; events: number };

/** The events of a batch one read model applies, and the table it writes (default: its live generation's). */
type ReadModelBatch = { projection: Projection; events: readonly ProjectedEvent[]; table?: string };

/**
 * Write every table's rows and move the checkpoints, all in one statement (its parts are
 * data-modifying WITH queries, each on its own table). The rows go as one JSON array per table and
 * Postgres turns them into rows of the table's own type. An entity row is written whole, and the
 * stream_version guard stays in SQL as well, as the invariant; a fact already stored is left as it is.
 */
async function writeRows(client: pg.PoolClient, writes: readonly RowsWritten[], moved: readonly CheckpointMove[] = []): Promise<void> {
  const values: unknown[] = [];
  const param = (value: unknown) => (values.push(value), `$${values.length}`);
  const parts = writes.map((w, i) => {
    const { columns, key } = w.model;
    const rows = `jsonb_populate_recordset(NULL::"${w.table}", ${param(JSON.stringify(w.rows))}::jsonb)`;
    const insert = `INSERT INTO "${w.table}" AS t (${quoted(columns)}) SELECT ${quoted(columns)} FROM ${rows}`;
    const rest = columns.filter((c) => !key.includes(c));
    const update = `SET (${quoted(rest)}) = ROW(${rest.map((c) => `EXCLUDED."${c}"`).join(", ")})`;
    const onConflict =
      w.kind === "facts"
        ? `ON CONFLICT (${quoted(key)}) DO NOTHING`
        : `ON CONFLICT (${quoted(key)}) DO UPDATE ${update} WHERE t.stream_version < EXCLUDED.stream_version`;
    return `written_${i} AS (${insert} ${onConflict})`;
  });
  if (moved.length)
    parts.push(
      `checkpoints_moved AS (UPDATE projection_checkpoints c SET position = m.position, events_applied = c.events_applied + m.events, ` +
        `last_error = NULL, updated_at = now() FROM unnest(${param(moved.map((m) => m.name))}::text[], ${param(moved.map((m) => m.position))}::text[], ` +
        `${param(moved.map((m) => m.events))}::bigint[]) AS m(name, position, events) WHERE c.name = m.name)`,
    );
  if (parts.length) await run(client, `WITH ${parts.join(", ")} SELECT 1`, values);
}

/** What a batch writes into each read model. */
async function batchWrites(client: pg.PoolClient, batch: readonly ReadModelBatch[]): Promise<RowsWritten[]> {
  const asks: (RowsAsked & { events: readonly ProjectedEvent[] })[] = [];
  const writes: RowsWritten[] = [];
  for (const { projection, events, table = projection.table } of batch) {
    if (projection.kind === "facts") {
      const rows = factRows(projection, events);
      if (rows.length) writes.push({ kind: "facts", model: projection, table, rows });
      continue;
    }
    const keys = rowKeysOf(projection, events);
    if (keys.length) asks.push({ model: projection, table, keys, events });
  }
  const stored = await readRows(client, asks);
  asks.forEach(({ model, table, events }, i) => {
    const rows = changedRows(model, stored[i]!, events);
    if (rows.length) writes.push({ kind: "entity", model, table, rows });
  });
  return writes;
}

/**
 * One read model, one batch: at most one read and one write, however many events. `table` is the
 * generation written: the live one under the read model's own name, or one being built.
 */
export async function applyToReadModel(
  client: pg.PoolClient,
  projection: Projection,
  events: readonly ProjectedEvent[],
  table: string = projection.table,
): Promise<void> {
  await writeRows(client, await batchWrites(client, [{ projection, events, table }]));
  await eraseFrom(client, projection, table, erasedIn(events));
}

/** The further of two log positions. */
export const laterPosition = (a: LogPosition | null, b: LogPosition): LogPosition => (a && comparePositions(a, b) >= 0 ? a : b);

/**
 * Apply a batch to each projection's live generation and move its checkpoint, inside the caller's
 * transaction. The checkpoint rows are locked first, so two runners never write one read model at
 * once (which is also why rows read here cannot change before they are written back), and a
 * rebuild's switch to a new generation (which holds them too) falls between two batches.
 *
 * A live generation built by a newer rule than this process's is left to newer processes (its
 * checkpoint does not move, so nothing is lost); one built by an older rule is written with this
 * process's rule until the rebuild it has started switches to a generation of its own.
 */
export async function applyInTransaction(
  client: pg.PoolClient,
  projections: readonly Projection[],
  events: readonly ProjectedEvent[],
  delivery: Delivery,
): Promise<number> {
  const { rows } = await client.query<CheckpointRow>(
    "SELECT name, position, status, generation, version FROM projection_checkpoints WHERE name = ANY($1) ORDER BY name FOR UPDATE",
    [projections.map((p) => p.name)],
  );
  const byName = new Map(rows.map((r) => [r.name, r]));
  const moved: CheckpointMove[] = [];
  const batch: ReadModelBatch[] = [];
  for (const p of projections) {
    const row = byName.get(p.name);
    if (!row) throw new Error(`No checkpoint row for projection ${p.name}`);
    if (row.status !== "live") continue;
    if (row.version > p.version) {
      if (delivery === "bus") throw new OutdatedProjection(p.name, p.version, row.version);
      continue;
    }
    const after = row.position ? parsePosition(row.position) : null;
    const todo = delivery === "bus" || !after ? events : events.filter((e) => comparePositions(e.stored.position, after) > 0);
    if (todo.length === 0) continue;
    batch.push({ projection: p, events: todo });
    const position = todo.reduce<LogPosition | null>((reached, e) => laterPosition(reached, e.stored.position), after);
    moved.push({ name: p.name, position: formatPosition(position!), events: todo.length });
  }
  // Every read model's rows read in one statement, folded in memory, and written with the
  // checkpoints in one more: two round trips a batch, however many read models it concerns.
  await writeRows(client, await batchWrites(client, batch), moved);
  // People the batch erased: their data in rows of other streams, rewritten once the batch's rows are written (erasure.ts).
  for (const { projection, events: todo } of batch) await eraseFrom(client, projection, projection.table, erasedIn(todo));
  if (delivery === "bus") await recordProjectedStreams(client, events);
  return moved.reduce((n, m) => n + m.events, 0);
}

/** Each stream's newest version in a batch from the bus, now applied by every live read model (one statement). */
async function recordProjectedStreams(client: pg.PoolClient, events: readonly ProjectedEvent[]): Promise<void> {
  const newest = new Map<string, number>();
  for (const { stored } of events) newest.set(stored.streamId, Math.max(newest.get(stored.streamId) ?? 0, stored.version));
  if (newest.size === 0) return;
  await run(
    client,
    `INSERT INTO projected_streams (stream_id, version) SELECT * FROM unnest($1::text[], $2::bigint[])
     ON CONFLICT (stream_id) DO UPDATE SET version = GREATEST(projected_streams.version, EXCLUDED.version)`,
    [[...newest.keys()], [...newest.values()]],
  );
}

/** How far the bus's read models have applied each of `streamIds` (a stream not listed: nothing yet). */
export async function projectedStreamVersions(pool: pg.Pool, streamIds: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ stream_id: string; version: string }>(
    "SELECT stream_id, version FROM projected_streams WHERE stream_id = ANY($1)",
    [streamIds],
  );
  return new Map(rows.map((r) => [r.stream_id, Number(r.version)]));
}

/** Apply a batch and the checkpoints in one transaction: the effect is exactly once. */
export async function applyBatch(
  pool: pg.Pool,
  projections: readonly Projection[],
  events: readonly StoredEvent[],
  delivery: Delivery,
): Promise<number> {
  if (events.length === 0) return 0;
  const projected = toProjected(events);
  return inTransaction(pool, (client) => applyInTransaction(client, projections, projected, delivery));
}

/** `work` in one transaction on a connection of its own: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = "BEGIN"): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

export async function recordProjectionError(pool: pg.Pool, projections: readonly Projection[], error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await pool
    .query("UPDATE projection_checkpoints SET last_error = $2, updated_at = now() WHERE name = ANY($1)", [
      projections.map((p) => p.name),
      message.slice(0, 2000),
    ])
    .catch(() => undefined);
}

/** A read model's live generation: where it is in the log, its number and the version of the rule that built it. */
export type CheckpointStatus = {
  name: string;
  position: LogPosition | null;
  status: "live" | "rebuilding";
  generation: number;
  version: number;
  eventsApplied: number;
  lastError: string | null;
  updatedAt: string;
};

export async function readCheckpoints(pool: Pick<pg.Pool, "query">, names?: readonly string[]): Promise<CheckpointStatus[]> {
  const { rows } = await pool.query<CheckpointRow & { events_applied: string; last_error: string | null; updated_at: Date }>(
    `SELECT name, position, status, generation, version, events_applied, last_error, updated_at FROM ` +
      `projection_checkpoints ${names ? "WHERE name = ANY($1)" : ""} ORDER BY name`,
    names ? [names] : [],
  );
  return rows.map((r) => ({
    name: r.name,
    position: r.position ? parsePosition(r.position) : null,
    status: r.status,
    generation: r.generation,
    version: r.version,
    eventsApplied: Number(r.events_applied),
    lastError: r.last_error,
    updatedAt: r.updated_at.toISOString(),
  }));
}
