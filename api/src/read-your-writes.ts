import type pg from "pg";
import { comparePositions, type LogPosition } from "@booking/contracts";
import type { CommandResult } from "@booking/event-store";
import { readCheckpoints } from "@booking/projections";
import type { ReplyCache } from "./reply-cache.ts";

/**
 * Read-your-writes: a command's reply waits (briefly) until every live read model has applied
 * the position the command wrote, so the client's next read shows its own write.
 */
export function waitForReadModels(db: pg.Pool, position: LogPosition | null, timeoutMs = 15_000): Promise<boolean> {
  if (!position) return Promise.resolve(true);
  let watch = watches.get(db);
  if (!watch) watches.set(db, (watch = new CheckpointWatch(db)));
  return watch.wait(position, timeoutMs);
}

type Waiter = { position: LogPosition; deadline: number; due: number; pause: number; done: (shown: boolean) => void; fail: (error: unknown) => void };

/**
 * One reader of the checkpoints per pool, for every request waiting on it. Each waiter keeps the
 * schedule a request polling alone would (at once, then after 2, 4, 8 ... 50 ms), but a read
 * answers every waiter at once and pushes every schedule on: concurrent writes share the reads
 * (one statement answers them all), and a lone write reads no more often than before.
 */
class CheckpointWatch {
  private waiters: Waiter[] = [];
  private reading = false;
  private sleeping: { timer: NodeJS.Timeout; wake: () => void } | null = null;

  constructor(private readonly db: pg.Pool) {}

  wait(position: LogPosition, timeoutMs: number): Promise<boolean> {
    return new Promise((done, fail) => {
      const now = Date.now();
      this.waiters.push({ position, deadline: now + timeoutMs, due: now, pause: 2, done, fail });
      if (this.sleeping) {
        clearTimeout(this.sleeping.timer);
        this.sleeping.wake();
      }
      void this.read();
    });
  }

  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      while (this.waiters.length > 0) {
        const due = Math.min(...this.waiters.map((w) => w.due));
        if (due > Date.now()) {
          await new Promise<void>((wake) => (this.sleeping = { timer: setTimeout(wake, due - Date.now()), wake }));
          this.sleeping = null;
        }
        let live: Awaited<ReturnType<typeof readCheckpoints>>;
        try {
          live = (await readCheckpoints(this.db)).filter((c) => c.status === "live");
        } catch (e) {
          // As when each request read for itself: the ones waiting fail with the read.
          for (const w of this.waiters.splice(0)) w.fail(e);
          continue;
        }
        const now = Date.now();
        this.waiters = this.waiters.filter((w) => {
          if (live.every((c) => c.position && comparePositions(c.position, w.position) >= 0)) w.done(true);
          else if (now > w.deadline) w.done(false);
          else {
            w.due = now + w.pause;
            w.pause = Math.min(w.pause * 2, 50);
            return true;
          }
          return false;
        });
      }
    } finally {
      this.reading = false;
    }
  }
}

const watches = new WeakMap<pg.Pool, CheckpointWatch>();

/** Wait until the read models show a command's writes (read-your-writes). */
export type Projected = (result: CommandResult) => Promise<void>;

/** Waits for the read models, then drops the cached listings a write may have changed. */
export function projectedThrough(db: pg.Pool, listings: ReplyCache): Projected {
  return async (result) => {
    await waitForReadModels(db, result.position);
    if (result.events.length > 0) listings.invalidate();
  };
}
