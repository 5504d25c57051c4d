import { comparePositions, type EventLog, type LogPosition } from "@booking/contracts";

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
