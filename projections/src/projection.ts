import type { DomainEvent, StoredEvent } from "@booking/contracts";

export type Sql = { text: string; values: unknown[] };

export const sql = (text: string, ...values: unknown[]): Sql => ({ text, values });

/** A stored event with its domain form (upcast and validated once, before any projection sees it). */
export type ProjectedEvent = { event: DomainEvent; stored: StoredEvent };

/**
 * One read model: the tables it owns and a plain function from an event to the SQL that applies
 * it. Every statement must be a no-op for an event older than the row's `stream_version`.
 */
export type Projection = {
  name: string;
  tables: readonly string[];
  project: (e: ProjectedEvent) => Sql[];
};

/** The id in a stream id `kind-{id}`. */
export function streamEntityId(streamId: string): string {
  return streamId.slice(streamId.indexOf("-") + 1);
}
