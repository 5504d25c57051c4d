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

/**
 * Rows of another table of the store's own database (text values), written in an append's transaction only if its
 * events are: they commit together or not at all. A row already there (its primary key) fails the append with
 * RowAlreadyWritten. Only a store with `rowsWrittenWithAppendsIn` takes them (the Postgres store).
 */
export type RowsToWrite = { readonly table: string; readonly columns: readonly string[]; readonly rows: readonly (readonly string[])[] };

export type AppendOptions = { readonly alongside?: RowsToWrite };

/** An append refused because a row to write alongside it (AppendOptions) was there already: nothing was written. */
export class RowAlreadyWritten extends Error {
  constructor(
    readonly table: string,
    detail: string,
  ) {
    super(`A row to write in ${table} with the append is there already: ${detail}`);
    this.name = "RowAlreadyWritten";
  }
}

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
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion, options?: AppendOptions): Promise<AppendResult>;
  /**
   * Where rows written alongside appends go: the database's identity (one connection to it answers as another does).
   * Absent: the store writes none (EventStoreDB), and refuses an append that carries some.
   */
  rowsWrittenWithAppendsIn?(): Promise<string>;
  readStream(streamId: string, options?: { afterVersion?: number }): Promise<StreamRead>;
  subscribe(options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}
