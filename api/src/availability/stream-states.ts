import type { EventLog } from "@booking/contracts";

/** A stream's folded state and version, as a CommandHandler's `load` gives it. */
export type StreamState<S> = { version: number; state: S };

export type StreamStatesOptions = {
  /** Longest an answer from memory is trusted without a read, in case an announcement is lost (the LISTEN connection dropped). */
  maxAgeMs?: number;
  /** Streams remembered; the least recently asked are dropped. */
  size?: number;
  /** Milliseconds now (tests). */
  clock?: () => number;
};

type Remembered<S> = { readAt: number; value: StreamState<S> };

/** A read under way; `stale` once an append to its stream is announced while it runs. */
type Reading<S> = { stale: boolean; read: Promise<StreamState<S>> };

/**
 * Stream states served from memory while the log has announced no append to their stream since
 * they were read, so a page of availability costs no statement while its calendar is unchanged.
 * An announcement names the streams it covers; one that names none (another process's batch too
 * large for a NOTIFY, an older process, a lost NOTIFY) sends every stream to the store again.
 *
 * Staleness: an append by this process is announced before its command answers, so a booking's
 * reply is always followed by availability that shows it. Another process's append is heard
 * through its NOTIFY, sent just after its commit (a few milliseconds); if that connection is lost,
 * `maxAgeMs` bounds how long an answer is served unread. A log without announcements is read every time.
 */
export class StreamStates<S> {
  private readonly remembered = new Map<string, Remembered<S>>();
  private readonly reading = new Map<string, Reading<S>>();
  private readonly maxAgeMs: number;
  private readonly size: number;
  private readonly clock: () => number;
  private readonly announced: boolean;
  readonly stats = { fromMemory: 0, read: 0 };

  constructor(
    log: Pick<EventLog, "watchAppends">,
    private readonly load: (streamId: string) => Promise<StreamState<S>>,
    options: StreamStatesOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 5_000;
    this.size = options.size ?? 10_000;
    this.clock = options.clock ?? Date.now;
    const unwatch = log.watchAppends?.((_position, streams) => this.heard(streams));
    this.announced = unwatch !== undefined;
  }

  /** Forget what an announced append may have changed, and distrust the reads of it under way. */
  private heard(streams: readonly string[] | undefined): void {
    if (!streams) {
      this.remembered.clear();
      for (const r of this.reading.values()) r.stale = true;
      return;
    }
    for (const streamId of streams) {
      this.remembered.delete(streamId);
      const r = this.reading.get(streamId);
      if (r) r.stale = true;
    }
  }

  get(streamId: string): Promise<StreamState<S>> {
    const found = this.remembered.get(streamId);
    if (found && this.clock() - found.readAt < this.maxAgeMs) {
      this.stats.fromMemory++;
      this.remembered.delete(streamId);
      this.remembered.set(streamId, found);
      return Promise.resolve(found.value);
    }
    // Questions arriving while the stream is read share that read, unless an append to it was
    // announced since it started (it might not show that append, which a booking's reply promised).
    const pending = this.reading.get(streamId);
    if (pending && !pending.stale) return pending.read;
    const reading = { stale: false } as Reading<S>;
    this.reading.set(streamId, reading);
    reading.read = this.read(streamId, reading);
    return reading.read;
  }

  /** A read's result is remembered only if no append to its stream was announced while it ran. */
  private async read(streamId: string, reading: Reading<S>): Promise<StreamState<S>> {
    const readAt = this.clock();
    this.stats.read++;
    try {
      const value = await this.load(streamId);
      if (this.announced && !reading.stale) {
        this.remembered.delete(streamId);
        this.remembered.set(streamId, { readAt, value });
        if (this.remembered.size > this.size) this.remembered.delete(this.remembered.keys().next().value!);
      }
      return value;
    } finally {
      if (this.reading.get(streamId) === reading) this.reading.delete(streamId);
    }
  }
}
