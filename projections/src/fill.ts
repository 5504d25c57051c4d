import type pg from "pg";
import { formatPosition, type LogPosition, type StoredEvent } from "@booking/contracts";
import { inTransaction } from "./apply.ts";
import { copyRows, copyTarget, type CopyTarget } from "./copy-rows.ts";
import { eraseFrom, erasedIn } from "./erasure.ts";
import { factRows, foldOnto } from "./fold.ts";
import { generationTable, indexGeneration, type Building } from "./generations.ts";
import type { EntityReadModel, ErasedPerson, FactsReadModel, ProjectedEvent, ReadModelRow, VersionedRow } from "./projection.ts";

// The bulk of a rebuild: new generations start empty and without indexes, so instead of reading,
// folding and upserting rows batch by batch, the log is folded in memory with each read model's own
// rule (fold.ts, the same functions the runners use) and the rows are written with COPY: facts as
// each batch is folded (they never change), an entity read model's rows once, at the end. Reading
// the next batch, folding this one and Postgres copying the last one's facts overlap.

/** A batch of the log as read and parsed. */
export type LogBatch = { events: StoredEvent[]; projected: ProjectedEvent[] };

export type FillOptions = {
  batchSize: number;
  /** Reads the batch after a position (null: from the start). */
  read: (after: LogPosition | null) => Promise<LogBatch>;
  /**
   * How many rows and fact keys the fill may hold in memory. Past it the fill stops early: what it
   * holds is written, and the rest of the log goes to the generation batch by batch (applyToBuilding).
   */
  heldRowsLimit: number;
  /** Called after each batch with the events folded so far. */
  onBatch: (done: number) => void;
  /** Throws when the rebuild is to stop. */
  stopIfAsked: () => void;
};

export type FillResult = { position: LogPosition | null; events: number };

type EntityFill = { building: Building; model: EntityReadModel<VersionedRow>; target: CopyTarget; rows: Map<string, VersionedRow> };
type FactsFill = { building: Building; model: FactsReadModel<ReadModelRow>; target: CopyTarget; seen: Set<string> };

/**
 * Fill generations that are empty and have no indexes yet from the start of the log, up to its
 * head or the memory limit, then index them. Their checkpoints (projection_generations) move with
 * each batch whose facts are written; the entity rows are all written before this resolves.
 */
export async function fillGenerations(pool: pg.Pool, building: readonly Building[], options: FillOptions): Promise<FillResult> {
  const target = (b: Building) => copyTarget(pool, generationTable(b.projection.table, b.generation), b.projection.columns);
  const entities: EntityFill[] = [];
  const facts: FactsFill[] = [];
  for (const b of building) {
    const model = b.projection;
    if (model.kind === "entity") entities.push({ building: b, model, target: await target(b), rows: new Map() });
    else facts.push({ building: b, model, target: await target(b), seen: new Set() });
  }
  const held = () => entities.reduce((n, f) => n + f.rows.size, 0) + facts.reduce((n, f) => n + f.seen.size, 0);

  let position: LogPosition | null = null;
  let done = 0;
  // People erased in the log: each filled table is rewritten for them once its rows are all in (erasure.ts).
  const erased: ErasedPerson[] = [];
  // At most one batch's facts wait to be written while the next is read and folded.
  let writing: Promise<void> = Promise.resolve();
  let next = options.read(null);
  try {
    for (;;) {
      options.stopIfAsked();
      const { events, projected } = await next;
      if (events.length === 0) break;
      position = events[events.length - 1]!.position;
      const last = events.length < options.batchSize;
      next = last ? Promise.resolve({ events: [], projected: [] }) : options.read(position);
      next.catch(() => undefined); // if writing fails first, that error is the one reported
      const written = facts.map((f) => ({ target: f.target, rows: factRows(f.model, projected, f.seen) }));
      for (const f of entities) foldOnto(f.model, f.rows, projected);
      erased.push(...erasedIn(projected));
      await writing;
      writing = writeBatch(pool, building, written, position, events.length);
      done += events.length;
      options.onBatch(done);
      if (last || held() >= options.heldRowsLimit) break;
    }
    await writing;
  } catch (e) {
    await writing.catch(() => undefined);
    throw e;
  }
  // Then each table is finished: an entity read model's rows copied, and every table indexed with
  // its statistics taken. Two at a time, facts first (Postgres alone indexes them), then the
  // entity tables from the largest: Node encodes one table's rows while Postgres works on another.
  // Erasures run once a table is indexed, so that each person's rows are looked up by the read model's own indexes.
  const erase = (client: pg.PoolClient, b: Building) =>
    eraseFrom(client, b.projection, generationTable(b.projection.table, b.generation), erased);
  const finishing: ((client: pg.PoolClient) => Promise<void>)[] = [
    ...facts.map((f) => async (client: pg.PoolClient) => {
      await indexGeneration(client, f.building);
      await erase(client, f.building);
    }),
    ...entities
      .sort((a, b) => b.rows.size - a.rows.size)
      .map((f) => async (client: pg.PoolClient) => {
        await copyRows(client, f.target, [...f.rows.values()]);
        f.rows.clear();
        await indexGeneration(client, f.building);
        await erase(client, f.building);
      }),
  ];
  const worker = async () => {
    try {
      for (let finish = finishing.shift(); finish; finish = finishing.shift()) await inTransaction(pool, finish);
    } catch (e) {
      finishing.length = 0; // the other worker stops after its table
      throw e;
    }
  };
  await Promise.all([worker(), worker()]);
  return { position, events: done };
}

/** One batch's fact rows, and every generation's checkpoint moved past the batch, in one transaction. */
function writeBatch(
  pool: pg.Pool,
  building: readonly Building[],
  facts: readonly { target: CopyTarget; rows: ReadModelRow[] }[],
  position: LogPosition,
  events: number,
): Promise<void> {
  return inTransaction(pool, async (client) => {
    for (const f of facts) await copyRows(client, f.target, f.rows);
    const { rowCount } = await client.query(
      `UPDATE projection_generations g SET position = $3, events_applied = g.events_applied + $4, updated_at = now()
       FROM unnest($1::text[], $2::int[]) AS m(name, generation) WHERE g.name = m.name AND g.generation = m.generation AND g.state = 'building'`,
      [building.map((b) => b.projection.name), building.map((b) => b.generation), formatPosition(position), events],
    );
    if (rowCount !== building.length) throw new Error("a generation being filled is no longer being built");
  });
}
