import { comparePositions, formatPosition, parsePosition, type LogPosition } from "../port.ts";

// How one process tells the others it appended: a NOTIFY on one channel, sent after the append
// has committed, naming the newest position and (when they fit) the streams written.

export const APPENDS_CHANNEL = "events_appended";

/**
 * A NOTIFY payload is at most 8000 bytes: past this many bytes of stream ids, the announcement
 * names none and its listeners take it as "any stream may have changed".
 */
const MAX_ANNOUNCED_STREAMS_BYTES = 7_000;

/** After a NOTIFY fails, the next try waits this long: long enough not to hammer a server that is away. */
const RETRY_AFTER_MS = 1_000;

/** `<instance> <position>[ <JSON array of stream ids>]`: an older process's payload (no streams) still parses. */
export function announcement(instanceId: string, position: LogPosition, streams: ReadonlySet<string> | null): string {
  const head = `${instanceId} ${formatPosition(position)}`;
  const named = streams ? JSON.stringify([...streams]) : null;
  return named && Buffer.byteLength(named) <= MAX_ANNOUNCED_STREAMS_BYTES ? `${head} ${named}` : head;
}

export function heardAnnouncement(payload: string): { from: string; position: LogPosition; streams: string[] | undefined } | null {
  const [from, at] = payload.split(" ", 2);
  const position = at ? parsePosition(at) : null;
  if (!from || !position) return null;
  const rest = payload.slice(from.length + at!.length + 2);
  let streams: string[] | undefined;
  try {
    const parsed: unknown = rest ? JSON.parse(rest) : undefined;
    streams = Array.isArray(parsed) && parsed.every((s) => typeof s === "string") ? parsed : undefined;
  } catch {
    streams = undefined;
  }
  return { from, position, streams };
}

/**
 * Sends announcements at most one at a time: appends announced while one is being sent go
 * together in the next. Batches commit out of order, so an announcement may carry an older
 * position than the one before it; listeners keep the newest they heard. A NOTIFY that fails is
 * sent again (with whatever was announced meanwhile) until it goes or the store closes: no later
 * append may come to carry it, and another process's cache of those streams would stay stale.
 */
export class AppendAnnouncer {
  private newest: LogPosition | null = null;
  /** The streams written since the last NOTIFY (null: too many to name). */
  private streams: Set<string> | null = new Set();
  private sending = false;
  private closed = false;
  private wakeFromRetry: (() => void) | null = null;

  constructor(
    private readonly instanceId: string,
    private readonly notify: (payload: string) => Promise<unknown>,
  ) {}

  announce(position: LogPosition, streams: readonly string[]): void {
    this.remember(position, streams);
    void this.send();
  }

  /** Stop sending; an announcement waiting to be tried again is dropped. */
  close(): void {
    this.closed = true;
    this.wakeFromRetry?.();
  }

  private remember(position: LogPosition, streams: readonly string[] | null): void {
    if (!this.newest || comparePositions(position, this.newest) > 0) this.newest = position;
    if (!streams) this.streams = null;
    else if (this.streams) for (const s of streams) this.streams.add(s);
  }

  private async send(): Promise<void> {
    if (this.sending || this.closed) return;
    this.sending = true;
    try {
      while (this.newest && !this.closed) {
        const position = this.newest;
        const streams = this.streams;
        this.newest = null;
        this.streams = new Set();
        try {
          await this.notify(announcement(this.instanceId, position, streams));
        } catch {
          // Not known to be sent: send it again with what came since (naming a stream twice is harmless).
          this.remember(position, streams ? [...streams] : null);
          await this.pause(RETRY_AFTER_MS);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeFromRetry = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wakeFromRetry = done;
    });
  }
}
