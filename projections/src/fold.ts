import type { EntityReadModel, FactsReadModel, ProjectedEvent, ReadModelRow, VersionedRow } from "./projection.ts";

// What events do to one read model, worked out in memory (no I/O): the runners then write each
// changed row once per batch, whatever the number of events that changed it, and a rebuild folds
// the whole log this way before writing its rows once (fill.ts).

/** A row's key values as one string, to find the row in a Map (a one-column key is its own value). */
export const rowIdentity = (key: readonly unknown[]): string =>
  key.length === 1 && typeof key[0] === "string" ? key[0] : JSON.stringify(key);

/** The keys of the rows a batch concerns (each once), for reading them before folding. */
export function rowKeysOf(model: EntityReadModel<VersionedRow>, events: readonly ProjectedEvent[]): (readonly string[])[] {
  const keys = new Map<string, readonly string[]>();
  for (const e of events) {
    const key = model.rowKey(e);
    if (key) keys.set(rowIdentity(key), key);
  }
  return [...keys.values()];
}

/**
 * Fold events in order onto `rows` (by rowIdentity), which holds the rows as they are and is
 * given each row as it is after them. Returns the identities of the rows that changed, in the
 * order they first changed. Applying the events one at a time, each on the row the one before
 * left, gives the same rows: that is the contract of `evolve`.
 */
export function foldOnto(
  model: EntityReadModel<VersionedRow>,
  rows: Map<string, VersionedRow>,
  events: readonly ProjectedEvent[],
): Set<string> {
  const changed = new Set<string>();
  for (const e of events) {
    const key = model.rowKey(e);
    if (!key) continue;
    const id = rowIdentity(key);
    const row = rows.get(id);
    // A row's stream_version only moves forward: a redelivered or older event changes nothing.
    if (row && row.stream_version >= e.stored.version) continue;
    const after = model.evolve(row, e);
    if (after && after !== row) {
      rows.set(id, after);
      changed.add(id);
    }
  }
  return changed;
}

/** The rows a batch changes, as they are after it: its events folded onto the rows as stored (`stored`, by rowIdentity). */
export function changedRows(
  model: EntityReadModel<VersionedRow>,
  stored: ReadonlyMap<string, VersionedRow>,
  events: readonly ProjectedEvent[],
): VersionedRow[] {
  const rows = new Map(stored);
  return [...foldOnto(model, rows, events)].map((id) => rows.get(id)!);
}

/**
 * The fact rows a batch records, each key once (the first wins, as it would one event at a time).
 * `seen` holds the keys already recorded; a rebuild passes the same set for the whole log.
 */
export function factRows(model: FactsReadModel<ReadModelRow>, events: readonly ProjectedEvent[], seen = new Set<string>()): ReadModelRow[] {
  const rows: ReadModelRow[] = [];
  for (const e of events) {
    for (const row of model.rows(e)) {
      const id = rowIdentity(model.key.map((column) => row[column]));
      if (seen.has(id)) continue;
      seen.add(id);
      rows.push(row);
    }
  }
  return rows;
}
