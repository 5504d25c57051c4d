import type { EntityReadModel, FactsReadModel, ProjectedEvent, ReadModelRow, VersionedRow } from "./projection.ts";

// What a batch of events does to one read model, worked out in memory (no I/O): the runners then
// write each changed row once per batch, whatever the number of events that changed it.

/** A row's key values as one string, to find the row in a Map. */
export const rowIdentity = (key: readonly unknown[]): string => JSON.stringify(key);

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
 * The rows a batch changes, as they are after it: its events folded in order onto the rows as
 * stored (`stored`, by rowIdentity). Applying the events one at a time, each on the row the one
 * before left, gives the same rows: that is the contract of `evolve`.
 */
export function changedRows(model: EntityReadModel<VersionedRow>, stored: ReadonlyMap<string, VersionedRow>, events: readonly ProjectedEvent[]): VersionedRow[] {
  const changed = new Map<string, VersionedRow>();
  for (const e of events) {
    const key = model.rowKey(e);
    if (!key) continue;
    const id = rowIdentity(key);
    const row = changed.get(id) ?? stored.get(id);
    // A row's stream_version only moves forward: a redelivered or older event changes nothing.
    if (row && row.stream_version >= e.stored.version) continue;
    const after = model.evolve(row, e);
    if (after && after !== row) changed.set(id, after);
  }
  return [...changed.values()];
}

/** The fact rows a batch records, each key once (the first wins, as it would one event at a time). */
export function factRows(model: FactsReadModel<ReadModelRow>, events: readonly ProjectedEvent[]): ReadModelRow[] {
  const seen = new Set<string>();
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
