import type { DomainEvent, StoredEvent } from "@booking/contracts";

/** A stored event with its domain form (upcast and validated once, before any projection sees it). */
export type ProjectedEvent = { event: DomainEvent; stored: StoredEvent };

/**
 * A read-model row as it is stored, one property per column, with JSON values: timestamps as ISO
 * strings, bigints as numbers (cents and versions stay far below 2^53), jsonb as plain data.
 * Rows travel to and from Postgres as JSON (to_jsonb, json_populate_recordset), so a row read
 * back and written again is unchanged.
 */
export type ReadModelRow = { [column: string]: unknown };

/** A row that reflects one stream up to `stream_version`. */
export type VersionedRow = ReadModelRow & { stream_version: number };

/**
 * A read model kept as one row per entity (a booking, a session, an expert's month of earnings).
 * `evolve` is the whole rule: a pure function from the row as it was (undefined: no row yet) and
 * an event to the row after it. It returns the same row when the event changes nothing.
 *
 * It is only called for events newer than the row: a row's `stream_version` only moves forward,
 * so a redelivered or older event is a no-op. That guard is what makes redelivery from Kafka
 * harmless, and it is applied before `evolve`, so `evolve` need not repeat it.
 */
export type EntityReadModel<Row extends VersionedRow> = {
  kind: "entity";
  name: string;
  table: string;
  /** Every column of the table: each write sets them all. */
  columns: readonly (keyof Row & string)[];
  key: readonly (keyof Row & string)[];
  /** The key of the row an event concerns, in `key` order, or null for an event this read model ignores. */
  rowKey: (e: ProjectedEvent) => readonly string[] | null;
  evolve: (row: Row | undefined, e: ProjectedEvent) => Row | undefined;
};

/**
 * A read model that records facts (a booking's history, terms acceptances): an event adds rows and
 * never changes one. A row whose key is already stored is left as it is.
 */
export type FactsReadModel<Row extends ReadModelRow> = {
  kind: "facts";
  name: string;
  table: string;
  columns: readonly (keyof Row & string)[];
  /** The columns of the unique constraint that a second copy of a fact would hit. */
  key: readonly (keyof Row & string)[];
  rows: (e: ProjectedEvent) => Row[];
};

/**
 * One read model, as the runners and the rebuild see it: its name, its tables and its rule. The
 * row type is known only inside each read model's file; here rows are plain column maps.
 */
export type Projection = { name: string; tables: readonly string[]; version: number; statistics?: readonly string[]; erasure?: Erasure } & (
  EntityReadModel<VersionedRow> | FactsReadModel<ReadModelRow>
);

/** A person who deleted their account (UserErased, issue 33.2): their user id and their expert profiles' ids. */
export type ErasedPerson = { userId: string; expertIds: readonly string[] };

/**
 * What a read model does when a person is erased to its rows of other streams than theirs, which their UserErased event
 * does not key (a booking's prep answers, a message, a review's reply): those rows are read, rewritten by `erase` and
 * written back in place, once the rows of the batch holding the event are written (erasure.ts). `erase` gives each row
 * as a rebuild makes it once their data key is destroyed (the log then reads their fields as erased markers), so the
 * read model is the same whether it saw the erasure live or was rebuilt after it.
 */
export type Erasure = {
  /** The rows that may hold the person's data: an SQL condition over `t` (the table named `table`), $1 their user id, $2 their expert ids. */
  rowsOf: (table: string) => string;
  /** Those rows (as to_jsonb gives them) as they read with the person erased; a row left as it is is not written. */
  erase: (rows: readonly ReadModelRow[], person: ErasedPerson) => ReadModelRow[];
};

/**
 * What each read model declares beside its rule: `version`, a whole number raised whenever its
 * rule (evolve, rows) or its table's shape changes. A process whose version differs from the live
 * generation's rebuilds the read model blue-green at start (generations.ts), so shipping a
 * changed read model is a deploy. Versions only go up: to undo a change, ship the old rule under
 * a higher version.
 */
export type Versioned = {
  version: number;
  /**
   * The columns a rebuilt generation's planner statistics are taken on (ANALYZE), when fewer than
   * all: those the read model's queries filter on beyond its unique keys. Absent: every column but
   * json ones. A rebuild takes them before the switch; autovacuum completes the rest after.
   */
  statistics?: readonly string[];
  /** What the read model does to rows of other streams when a person is erased; absent: it holds nobody's data in such rows. */
  erasure?: Erasure;
};

/**
 * Erase a read model's row type for the list of projections. The rows `evolve` receives are the
 * ones it returned earlier, or rows of its own table read back from Postgres, so they have its type.
 */
export function entityProjection<Row extends VersionedRow>(model: Omit<EntityReadModel<Row>, "kind"> & Versioned): Projection {
  return { ...model, kind: "entity", tables: [model.table], evolve: model.evolve as EntityReadModel<VersionedRow>["evolve"] } as Projection;
}

export function factsProjection<Row extends ReadModelRow>(model: Omit<FactsReadModel<Row>, "kind"> & Versioned): Projection {
  return { ...model, kind: "facts", tables: [model.table] } as Projection;
}

/** The id in a stream id `kind-{id}`. */
export function streamEntityId(streamId: string): string {
  return streamId.slice(streamId.indexOf("-") + 1);
}
