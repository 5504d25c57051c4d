import type { EventLog, EventMetadata, LogPosition, StoredEvent } from "@booking/contracts";

export {
  comparePositions,
  formatPosition,
  parsePosition,
  type AppendListener,
  type LogPosition,
  type StoredEvent,
} from "@booking/contracts";

// The EventStore port. Both adapters (Postgres, EventStoreDB) give these semantics, proved by
// one shared contract suite (event-store/test/event-store-contract.ts).

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

export interface EventStore extends EventLog {
  readonly kind: "postgres" | "eventstoredb";
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  readStream(streamId: string, options?: { afterVersion?: number }): Promise<StreamRead>;
  subscribe(options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}
