import type pg from "pg";
import { comparePositions, type LogPosition } from "@booking/contracts";
import type { CommandResult, StoredEvent } from "@booking/event-store";
import { projectedStreamVersions, readCheckpoints, readModelPositions, type CheckpointStatus } from "@booking/projections";
import type { ReplyCache } from "./reply-cache.ts";
import { recordWritten } from "./request-writes.ts";

/** Where this process's read models are fed from: the log in global order (a projector in this or another process reading the store), or Kafka. */
export type ReadModelFeed = "log" | "bus";

/** What a command wrote, as read-your-writes waits for it. */
export type Written = { position: LogPosition | null; events: readonly Pick<StoredEvent, "streamId" | "version">[] };

/**
 * Read-your-writes: a command's reply waits (briefly) until every live read model has applied
 * what the command wrote, so the client's next read shows its own write. Where this process keeps
 * the read models (the embedded default) it waits on its projector's announcement of each
 * committed batch, sending no statement; fed from the log by another process, it reads the
 * checkpoints. Fed from Kafka, a checkpoint says nothing of earlier positions on other partitions,
 * so it waits until each written stream's version is applied (projected_streams).
 */
export async function waitForReadModels(db: pg.Pool, written: Written, feed: ReadModelFeed = "log", timeoutMs = 15_000): Promise<boolean> {
  const { position } = written;
  if (!position) return true;
  if (feed === "bus") return pollOf(db, "bus").wait({ position, streams: newestVersions(written.events) }, timeoutMs);
  const deadline = Date.now() + timeoutMs;
  const keptHere = readModelPositions(db);
  if (keptHere.keptHere && (await keptHere.waitFor(position, timeoutMs))) return true;
  const left = deadline - Date.now();
  if (left <= 0) return false;
  return pollOf(db, "log").wait({ position, streams: new Map() }, left);
}

/** Whether every live read model had applied the log up to `position` when these checkpoints were read. */
export const readModelsAt = (checkpoints: readonly CheckpointStatus[], position: LogPosition): boolean =>
  checkpoints.filter((c) => c.status === "live").every((c) => c.position !== null && comparePositions(c.position, position) >= 0);

const newestVersions = (events: Written["events"]) => {
  const newest = new Map<string, number>();
  for (const e of events) newest.set(e.streamId, Math.max(newest.get(e.streamId) ?? 0, e.version));
  return newest;
};

type Need = { position: LogPosition; streams: ReadonlyMap<string, number> };
/** One read for every waiter; what it answers tells whether a waiter's write shows. */
type ReadShown = (needs: readonly Need[]) => Promise<(need: Need) => boolean>;

const readShown = (db: pg.Pool, feed: ReadModelFeed): ReadShown =>
  feed === "log"
    ? async () => {
        const checkpoints = await readCheckpoints(db);
        return (need) => readModelsAt(checkpoints, need.position);
      }
    : async (needs) => {
        const applied = await projectedStreamVersions(db, [...new Set(needs.flatMap((n) => [...n.streams.keys()]))]);
        return (need) => [...need.streams].every(([stream, version]) => (applied.get(stream) ?? 0) >= version);
      };

type Waiter = { need: Need; deadline: number; due: number; pause: number; done: (shown: boolean) => void; fail: (error: unknown) => void };

/**
 * One reader per pool and feed, for every request waiting on it. Each waiter keeps the schedule a
 * request polling alone would (at once, then after 2, 4, 8 ... 50 ms), but a read answers every
 * waiter at once and pushes every schedule on: concurrent writes share the reads (one statement
 * answers them all), and a lone write reads no more often than before.
 */
class SharedPoll {
  private waiters: Waiter[] = [];
  private reading = false;
  private sleeping: { timer: NodeJS.Timeout; wake: () => void } | null = null;

  constructor(private readonly read: ReadShown) {}

  wait(need: Need, timeoutMs: number): Promise<boolean> {
    return new Promise((done, fail) => {
      const now = Date.now();
      this.waiters.push({ need, deadline: now + timeoutMs, due: now, pause: 2, done, fail });
      if (this.sleeping) {
        clearTimeout(this.sleeping.timer);
        this.sleeping.wake();
      }
      void this.poll();
    });
  }

  private async poll(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      while (this.waiters.length > 0) {
        const due = Math.min(...this.waiters.map((w) => w.due));
        if (due > Date.now()) {
          await new Promise<void>((wake) => (this.sleeping = { timer: setTimeout(wake, due - Date.now()), wake }));
          this.sleeping = null;
        }
        let shown: (need: Need) => boolean;
        try {
          shown = await this.read(this.waiters.map((w) => w.need));
        } catch (e) {
          // As when each request read for itself: the ones waiting fail with the read.
          for (const w of this.waiters.splice(0)) w.fail(e);
          continue;
        }
        const now = Date.now();
        this.waiters = this.waiters.filter((w) => {
          if (shown(w.need)) w.done(true);
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

const polls = new WeakMap<pg.Pool, Map<ReadModelFeed, SharedPoll>>();
function pollOf(db: pg.Pool, feed: ReadModelFeed): SharedPoll {
  let byFeed = polls.get(db);
  if (!byFeed) polls.set(db, (byFeed = new Map()));
  let poll = byFeed.get(feed);
  if (!poll) byFeed.set(feed, (poll = new SharedPoll(readShown(db, feed))));
  return poll;
}

/** Wait until the read models show a command's writes (read-your-writes). */
export type Projected = (result: CommandResult) => Promise<void>;

/**
 * Waits for the read models, then drops the cached listings a write may have changed. The reply names the position
 * written (consistency-position.ts), for the client's next reads.
 */
export function projectedThrough(db: pg.Pool, listings: ReplyCache, feed: ReadModelFeed = "log"): Projected {
  return async (result) => {
    recordWritten(result.position);
    await waitForReadModels(db, result, feed);
    if (result.events.length > 0) listings.invalidate();
  };
}

/**
 * For a command whose reply is built from its decision: the reply names the position written and goes at once; the
 * client's next reads carry it and wait for the read models instead (issue 34.1). Fed from Kafka, where a position
 * tells nothing of the other partitions, it waits as `projectedThrough` does.
 */
export function appendedThrough(db: pg.Pool, listings: ReplyCache, feed: ReadModelFeed = "log"): Projected {
  const projected = projectedThrough(db, listings, feed);
  return async (result) => {
    if (feed === "bus") return projected(result);
    recordWritten(result.position);
    if (result.events.length === 0) return;
    listings.invalidate();
    // Once shown, dropped again: a listing computed between the append and its projection is not served after it.
    void waitForReadModels(db, result, feed).then(
      () => listings.invalidate(),
      () => listings.invalidate(),
    );
  };
}
