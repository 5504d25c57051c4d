import type { EventMetadata } from "@booking/contracts";

// The EventStore port. Both adapters (Postgres, EventStoreDB) give these semantics, proved by
// one shared contract suite (engine/test/integration/event-store-contract.ts).

/**
 * A place in the global log. Compared as (commit, prepare): Postgres stores the writing
 * transaction's id and the row's global position; EventStoreDB its commit and prepare positions.
 */
export type LogPosition = { commit: bigint; prepare: bigint };

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export const formatPosition = (p: LogPosition) => `${p.commit}:${p.prepare}`;

export function parsePosition(s: string): LogPosition | null {
  const m = /^(\d{1,20}):(\d{1,20})$/.exec(s);
  return m ? { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) } : null;
}

/**
 * What a writer expects of the stream: exactly `n` events so far (0 = no stream), no stream at
 * all, an existing stream, or anything.
 */
export type ExpectedVersion = number | "no_stream" | "stream_exists" | "any";

export type NewEvent = {
  eventId?: string;
  type: string;
  schemaVersion?: number;
  data: unknown;
  metadata: EventMetadata;
};

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

export type AppendResult = { nextVersion: number; position: LogPosition; events: StoredEvent[] };

export type StreamRead = { version: number; events: StoredEvent[] };

export class WrongExpectedVersion extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | null,
  ) {
    super(`Stream ${streamId}: expected version ${String(expected)}, found ${actual ?? "no stream"}`);
    this.name = "WrongExpectedVersion";
  }
}

export type Subscription = { stop: () => Promise<void>; done: Promise<void> };

export type SubscribeOptions = {
  /** Deliver events strictly after this position (null: from the start). */
  after: LogPosition | null;
  batchSize?: number;
  /** Called with each batch in log order; the next batch is read only after it resolves. */
  onEvents: (events: StoredEvent[]) => Promise<void>;
  onError?: (error: unknown) => void;
};

export interface EventStore {
  readonly kind: "postgres" | "eventstoredb";
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  readStream(streamId: string, options?: { afterVersion?: number }): Promise<StreamRead>;
  /** Events strictly after `after`, in log order, at most `limit`; never one whose writer has not committed. */
  readAll(after: LogPosition | null, limit: number): Promise<StoredEvent[]>;
  /** The position of the newest event a catch-up reader could see now (null for an empty store). */
  headPosition(): Promise<LogPosition | null>;
  subscribe(options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}
