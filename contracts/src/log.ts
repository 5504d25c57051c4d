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
   */
  watchAppends?(listener: (position: LogPosition) => void): () => void;
}

/**
 * Partitions of the bus topic when the relay or a projector creates it. Both create it before
 * use: a consumer that met a missing topic would have the broker create it with its own default.
 */
export const BUS_TOPIC_PARTITIONS = 6;

// Events travel on the bus as JSON: positions as "commit:prepare" strings (JSON has no bigint).
export function encodeBusMessage(e: StoredEvent): string {
  return JSON.stringify({ ...e, position: formatPosition(e.position) });
}

export function decodeBusMessage(value: string): StoredEvent {
  const raw = JSON.parse(value) as Omit<StoredEvent, "position"> & { position: string };
  const position = parsePosition(raw.position);
  if (!position) throw new Error(`Bus message with a malformed position: ${raw.position}`);
  return { ...raw, position };
}

/**
 * How a follower of the log (the relay, a projector, a subscription) waits between batches: cut
 * short by an announced append (`watchAppends`), including one announced while its batch ran, or
 * by stop; otherwise for the poll it asks for.
 */
export class AppendWaiter {
  private newest: LogPosition | null = null;
  private announcedSinceRead = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private readonly unwatch: (() => void) | undefined;

  constructor(log: Pick<EventLog, "watchAppends">) {
    this.unwatch = log.watchAppends?.((position) => {
      if (!this.newest || comparePositions(position, this.newest) > 0) this.newest = position;
      this.announcedSinceRead = true;
      this.wake?.();
    });
  }

  /** Call before each read of the log: only appends announced after it cut the next pause short. */
  reading(): void {
    this.announcedSinceRead = false;
  }

  /** Whether an append was announced past `reached` (null: nothing read yet); it is not readable while an older transaction is open. */
  announcedBeyond(reached: LogPosition | null): boolean {
    return this.newest !== null && (reached === null || comparePositions(this.newest, reached) > 0);
  }

  /** Wait up to `ms`; an announced append ends it too unless `wakeOnAppend` is false (a back-off), and stop always does. */
  pause(ms: number, wakeOnAppend = true): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.stopped || (wakeOnAppend && this.announcedSinceRead)) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = () => {
        if (wakeOnAppend || this.stopped) done();
      };
    });
  }

  /** End the pause under way and every later one; stop listening for appends. */
  stop(): void {
    this.stopped = true;
    this.unwatch?.();
    this.wake?.();
  }
}
