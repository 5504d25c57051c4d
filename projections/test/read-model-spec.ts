import type pg from "pg";
import { expect } from "vitest";
import { readDomainEvent, type DomainEvent, type StoredEvent } from "@booking/contracts";
import { applyBatch, ensureCheckpoints } from "../src/apply.ts";
import { changedRows, factRows, rowIdentity } from "../src/fold.ts";
import type { ProjectedEvent, Projection, ReadModelRow, VersionedRow } from "../src/projection.ts";

// given events / then rows: a read model's rule tested like the deciders' (Emmett's
// PostgreSQLProjectionSpec is the model). `readModelSpec` folds in memory through the same
// fold the runners use; `onPostgres` writes the same events through the runners' own batch
// into a real table and reads the rows back, so a test can show both give the same rows.

/** One event on a stream; the spec numbers each stream's versions and spaces the times a minute apart. */
export type GivenEvent = { stream: string; event: DomainEvent };

const T0 = Date.parse("2030-01-06T09:00:00.000Z");
/** The time of the nth given event (0-based): T0 plus n minutes. */
export const givenAt = (n: number) => new Date(T0 + n * 60_000).toISOString();

/** The given events as the log would hold them: per-stream versions, global positions, times a minute apart. */
export function storedEvents(given: readonly GivenEvent[]): ProjectedEvent[] {
  const versions = new Map<string, number>();
  return given.map(({ stream, event }, i) => {
    const version = (versions.get(stream) ?? 0) + 1;
    versions.set(stream, version);
    const stored: StoredEvent = {
      eventId: `ev-${i}`,
      streamId: stream,
      version,
      position: { commit: BigInt(i + 1), prepare: BigInt(i + 1) },
      type: event.type,
      schemaVersion: 1,
      data: event.data,
      metadata: { at: givenAt(i) },
      recordedAt: givenAt(i),
    };
    // Parsed as the runners parse a stored event, so a fixture that the log would refuse fails here too.
    return { event: readDomainEvent(event.type, 1, event.data), stored };
  });
}

const keyOf = (projection: Projection, row: ReadModelRow) => rowIdentity(projection.key.map((c) => row[c]));
const byKey = (projection: Projection) => (a: ReadModelRow, b: ReadModelRow) => (keyOf(projection, a) < keyOf(projection, b) ? -1 : 1);

/** The rows a read model holds after these events, one event at a time, sorted by key. */
export function foldRows(projection: Projection, given: readonly GivenEvent[]): ReadModelRow[] {
  const rows = new Map<string, ReadModelRow>();
  for (const e of storedEvents(given)) {
    const changed =
      projection.kind === "entity" ? changedRows(projection, rows as Map<string, VersionedRow>, [e]) : factRows(projection, [e]);
    for (const row of changed) {
      const id = keyOf(projection, row);
      if (projection.kind === "facts" && rows.has(id)) continue; // a fact is recorded once
      rows.set(id, row);
    }
  }
  return [...rows.values()].sort(byKey(projection));
}

export function readModelSpec(projection: Projection) {
  return {
    given: (...given: GivenEvent[]) => {
      const rows = foldRows(projection, given);
      return {
        rows: () => rows,
        /** Exactly these rows (each compared with toMatchObject, so a test names only what it is about), in key order. */
        then: (expected: readonly ReadModelRow[]) => {
          expect(rows, "rows after the given events").toHaveLength(expected.length);
          expected.forEach((row, i) => expect(rows[i]).toMatchObject(row));
        },
      };
    },
  };
}

/**
 * The rows Postgres holds after the runners' own batch applies these events to an empty table
 * (the database must be migrated), in the Row's JSON shape and key order, so they compare with
 * `foldRows` as they are.
 */
export async function rowsOnPostgres(pool: pg.Pool, projection: Projection, given: readonly GivenEvent[]): Promise<ReadModelRow[]> {
  await ensureCheckpoints(pool, [projection]);
  for (const table of projection.tables) await pool.query(`TRUNCATE "${table}"`);
  await pool.query("UPDATE projection_checkpoints SET position = NULL WHERE name = $1", [projection.name]);
  // In two batches, so that the second reads back rows the first wrote (the path a live runner takes).
  const stored = storedEvents(given).map((e) => e.stored);
  const half = Math.ceil(stored.length / 2);
  await applyBatch(pool, [projection], stored.slice(0, half), "log");
  await applyBatch(pool, [projection], stored.slice(half), "log");
  const { rows } = await pool.query<{ row: ReadModelRow }>(`SELECT to_jsonb(t) AS row FROM "${projection.table}" t`);
  return rows.map((r) => normalise(r.row)).sort(byKey(projection));
}

/** to_jsonb writes timestamptz in Postgres's own ISO form (+00:00, trimmed fractions); the Row's is toISOString's. */
function normalise(row: ReadModelRow): ReadModelRow {
  const out: ReadModelRow = {};
  for (const [column, value] of Object.entries(row)) {
    out[column] =
      typeof value === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/.test(value) ? new Date(value).toISOString() : value;
  }
  return out;
}
