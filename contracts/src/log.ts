import type { EventMetadata } from "./events.ts";

// The global event log, as every reader (relay, projections, replay) sees it.

/**
 * A place in the global log, compared as (commit, prepare). Postgres: the writing transaction's
 * id and the row's global position; EventStoreDB: its commit and prepare positions.
 */
export type LogPosition = { commit: bigint; prepare: bigint };

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/**
 * The header a command's reply names the log position it wrote in, and a client sends back with its next requests so
 * that they show its writes (issue 34.1). Its value is formatPosition's.
 */
export const CONSISTENCY_POSITION_HEADER = "consistency-position";

export const formatPosition = (p: LogPosition) => `${p.commit}:${p.prepare}`;

export function parsePosition(s: string): LogPosition | null {
  const m = /^(\d{1,20}):(\d{1,20})$/.exec(s);
  return m ? { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) } : null;
}

export type StoredEvent = {
  eventId: string;
  streamId: string;
  /** 1-based position of the event within its stream. */
  version: number;
  position: LogPosition;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: EventMetadata;
  recordedAt: string;
};

/** Hears of appends: the newest position, and the streams written to where the announcement knows them. */
export type AppendListener = (position: LogPosition, streams?: readonly string[]) => void;

/** The part of an event store that log readers need. */
export interface EventLog {
  /** Events strictly after `after`, in log order, at most `limit`; never one whose writer has not committed. */
  readAll(after: LogPosition | null, limit: number): Promise<StoredEvent[]>;
  /** The newest position a catch-up reader could see now (null for an empty log). */
  headPosition(): Promise<LogPosition | null>;
  /** How many events the log holds (for progress bars; may be an estimate). */
  countEvents(): Promise<number>;
  /**
   * Call `listener` with the position of each append as it commits, so a follower need not poll
   * to stay close behind; returns the unsubscribe. A catch-up reader may see the event a little
   * later (while an older transaction is still open). Optional: a follower without it polls.
   * `streams`, where known, are the streams the append (or the appends up to `position` announced
   * together) wrote to; undefined means any stream may have changed.
   */
  watchAppends?(listener: AppendListener): () => void;
}
