import type pg from "pg";
import { comparePositions, formatPosition, parsePosition, readDomainEvent, type LogPosition, type StoredEvent } from "@booking/contracts";
import type { ProjectedEvent, Projection } from "./projection.ts";

/**
 * How a batch arrives. `log`: from the event log in global order, so each projection skips what
 * its checkpoint already covers. `bus`: from Kafka, ordered per stream only, so the rows' stream
 * versions do the deduplication. `rebuild`: a replay writing one projection that is rebuilding.
 */
export type Delivery = "log" | "bus" | { rebuilding: readonly string[] };

type CheckpointRow = { name: string; position: string | null; status: "live" | "rebuilding" };

export function toProjected(events: readonly StoredEvent[]): ProjectedEvent[] {
  return events.map((stored) => ({ stored, event: readDomainEvent(stored.type, stored.schemaVersion, stored.data) }));
}

export async function ensureCheckpoints(pool: pg.Pool, projections: readonly Projection[]): Promise<void> {
  await pool.query("INSERT INTO projection_checkpoints (name) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING", [projections.map((p) => p.name)]);
}

// Projections use a handful of fixed statements: naming them lets Postgres parse and plan each once per connection.
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `projection_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

const later = (a: LogPosition | null, b: LogPosition) => (a && comparePositions(a, b) >= 0 ? a : b);

/**
 * Apply a batch to each projection and move its checkpoint, inside the caller's transaction. The
 * checkpoint rows are locked first, so a rebuild and the live runners never write one read model at once.
 */
export async function applyInTransaction(client: pg.PoolClient, projections: readonly Projection[], events: readonly ProjectedEvent[], delivery: Delivery): Promise<number> {
  const { rows } = await client.query<CheckpointRow>(
    "SELECT name, position, status FROM projection_checkpoints WHERE name = ANY($1) ORDER BY name FOR UPDATE",
    [projections.map((p) => p.name)],
  );
  const byName = new Map(rows.map((r) => [r.name, r]));
  let applied = 0;
  for (const p of projections) {
    const row = byName.get(p.name);
    if (!row) throw new Error(`No checkpoint row for projection ${p.name}`);
    const rebuilding = typeof delivery === "object";
    // A read model being rebuilt is written by the rebuild alone; a live one by the runners alone.
    if (rebuilding ? !delivery.rebuilding.includes(p.name) || row.status !== "rebuilding" : row.status !== "live") continue;
    const after = row.position ? parsePosition(row.position) : null;
    const todo = delivery === "bus" || !after ? events : events.filter((e) => comparePositions(e.stored.position, after) > 0);
    if (todo.length === 0) continue;
    let position = after;
    for (const e of todo) {
      for (const statement of p.project(e)) await client.query({ name: statementName(statement.text), text: statement.text, values: statement.values });
      position = later(position, e.stored.position);
    }
    await client.query("UPDATE projection_checkpoints SET position = $2, events_applied = events_applied + $3, last_error = NULL, updated_at = now() WHERE name = $1", [
      p.name,
      formatPosition(position!),
      todo.length,
    ]);
    applied += todo.length;
  }
  return applied;
}

/** Apply a batch and the checkpoints in one transaction: the effect is exactly once. */
export async function applyBatch(pool: pg.Pool, projections: readonly Projection[], events: readonly StoredEvent[], delivery: Delivery): Promise<number> {
  if (events.length === 0) return 0;
  const projected = toProjected(events);
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const applied = await applyInTransaction(client, projections, projected, delivery);
    await client.query("COMMIT");
    return applied;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

export async function recordProjectionError(pool: pg.Pool, projections: readonly Projection[], error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await pool.query("UPDATE projection_checkpoints SET last_error = $2, updated_at = now() WHERE name = ANY($1)", [projections.map((p) => p.name), message.slice(0, 2000)]).catch(() => undefined);
}

export type CheckpointStatus = { name: string; position: LogPosition | null; status: "live" | "rebuilding"; eventsApplied: number; lastError: string | null; updatedAt: string };

export async function readCheckpoints(pool: pg.Pool, names?: readonly string[]): Promise<CheckpointStatus[]> {
  const { rows } = await pool.query<CheckpointRow & { events_applied: string; last_error: string | null; updated_at: Date }>(
    `SELECT name, position, status, events_applied, last_error, updated_at FROM projection_checkpoints ${names ? "WHERE name = ANY($1)" : ""} ORDER BY name`,
    names ? [names] : [],
  );
  return rows.map((r) => ({
    name: r.name,
    position: r.position ? parsePosition(r.position) : null,
    status: r.status,
    eventsApplied: Number(r.events_applied),
    lastError: r.last_error,
    updatedAt: r.updated_at.toISOString(),
  }));
}
