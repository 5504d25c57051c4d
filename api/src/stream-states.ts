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

type Remembered<S> = { heard: number; readAt: number; value: StreamState<S> };

/**
 * Stream states served from memory while the log has announced no append since they were read,
 * so a page of availability costs no statement while nothing was written. Any append announced
 * (to any stream) sends the next question of every stream to the store again: the announcements
 * carry a log position, not the stream.
 *
 * Staleness: an append by this process is announced before its command answers, so a booking's
 * reply is always followed by availability that shows it. Another process's append is heard
 * through its NOTIFY, sent just after its commit (a few milliseconds); if that connection is lost,
 * `maxAgeMs` bounds how long an answer is served unread. A log without announcements is read every time.
 */
export class StreamStates<S> {
  private heard = 0;
  private readonly remembered = new Map<string, Remembered<S>>();
  private readonly reading = new Map<string, { heard: number; read: Promise<StreamState<S>> }>();
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
    const unwatch = log.watchAppends?.(() => {
      this.heard++;
    });
    this.announced = unwatch !== undefined;
  }

  get(streamId: string): Promise<StreamState<S>> {
    const found = this.remembered.get(streamId);
    if (found && found.heard === this.heard && this.clock() - found.readAt < this.maxAgeMs) {
      this.stats.fromMemory++;
      this.remembered.delete(streamId);
      this.remembered.set(streamId, found);
      return Promise.resolve(found.value);
    }
    // Questions arriving while the stream is read share that read, unless an append was announced
    // since it started (it might not show that append, which a booking's reply promised).
    const pending = this.reading.get(streamId);
    if (pending && pending.heard === this.heard) return pending.read;
    const heard = this.heard;
    const read = this.read(streamId, heard);
    this.reading.set(streamId, { heard, read });
    return read;
  }

  /** `heard` is taken before the read: an append announced while it runs leaves the result unconfirmed. */
  private async read(streamId: string, heard: number): Promise<StreamState<S>> {
    const readAt = this.clock();
    this.stats.read++;
    try {
      const value = await this.load(streamId);
      // A read started earlier never replaces one that has heard more.
      if (this.announced && (this.remembered.get(streamId)?.heard ?? -1) <= heard) {
        this.remembered.delete(streamId);
        this.remembered.set(streamId, { heard, readAt, value });
        if (this.remembered.size > this.size) this.remembered.delete(this.remembered.keys().next().value!);
      }
      return value;
    } finally {
      if (this.reading.get(streamId)?.heard === heard) this.reading.delete(streamId);
    }
  }
}
