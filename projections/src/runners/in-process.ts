import type pg from "pg";
import { comparePositions, type EventLog, type LogPosition } from "@booking/contracts";
import { followLog, inBatchSpan } from "@booking/event-store";
import { applyBatch, ensureCheckpoints, readCheckpoints, recordProjectionError } from "../apply.ts";
import type { Projection } from "../projection.ts";
import { keepVersionsCurrent, type VersionKeeping } from "../rebuild.ts";

export type RunnerHandle = { stop: () => Promise<void>; done: Promise<void> };

export type InProcessOptions = {
  batchSize?: number;
  /**
   * How long to wait after a short batch before looking at the log again when nothing wakes the
   * projector: 20 ms for a log that cannot announce appends, 250 ms for one that can
   * (watchAppends), where the poll only covers a missed announcement.
   */
  idleMs?: number;
  onError?: (error: unknown) => void;
  /**
   * At start, rebuild (blue-green, in the background) the read models whose live generation was
   * built by another version of their rule (default: on). Options of that rebuild.
   */
  versions?: false | Omit<VersionKeeping, "onError">;
};

/** Start keepVersionsCurrent beside a runner; the handle's stop ends both (a rebuild in flight drops its generation). */
export function withVersionsKept(
  runner: RunnerHandle,
  log: EventLog,
  pool: pg.Pool,
  projections: readonly Projection[],
  options: { versions?: false | Omit<VersionKeeping, "onError">; onError?: (e: unknown) => void },
): RunnerHandle {
  if (options.versions === false) return runner;
  const stopping = new AbortController();
  const keeping = keepVersionsCurrent(log, pool, projections, { ...options.versions, onError: options.onError, signal: stopping.signal });
  return {
    done: Promise.all([runner.done, keeping]).then(() => undefined),
    stop: async () => {
      stopping.abort();
      await Promise.all([runner.stop(), keeping]);
    },
  };
}

type PositionWaiter = { position: LogPosition; done: (shown: boolean) => void };

/**
 * Where the read models kept on one pool by in-process projectors have reached, announced after
 * each committed batch: a command's reply waits on this (read-your-writes) instead of reading the
 * checkpoints. Only read models this process keeps are announced; with none kept (a projector in
 * another process), `keptHere` is false and readers fall back to the checkpoints.
 */
export class ReadModelPositions {
  private reached: LogPosition | null = null;
  private readonly waiters = new Set<PositionWaiter>();
  private keepers = 0;

  get keptHere(): boolean {
    return this.keepers > 0;
  }

  /** True once a committed batch has reached `position`; false after `timeoutMs`, or when no projector keeps them here any more. */
  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    if (this.reached && comparePositions(this.reached, position) >= 0) return Promise.resolve(true);
    if (!this.keptHere) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: PositionWaiter = {
        position,
        done: (shown) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(shown);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Every live read model kept here has applied the log up to `position`. */
  reach(position: LogPosition): void {
    if (this.reached && comparePositions(position, this.reached) <= 0) return;
    this.reached = position;
    for (const w of [...this.waiters]) if (comparePositions(position, w.position) >= 0) w.done(true);
  }

  /** No read model is live here (every one rebuilding): nothing to wait for, as the checkpoints would say. */
  nothingLive(): void {
    for (const w of [...this.waiters]) w.done(true);
  }

  /** A projector starts keeping them here; the function returned says it stopped (once, however often called). */
  keep(): () => void {
    this.keepers++;
    let kept = true;
    return () => {
      if (!kept) return;
      kept = false;
      this.keepers--;
      // Left to the checkpoints: another process may be keeping them now.
      if (this.keepers === 0) for (const w of [...this.waiters]) w.done(false);
    };
  }
}

const positionsByPool = new WeakMap<pg.Pool, ReadModelPositions>();

/** The positions announced by the in-process projectors on `pool` (the API's read-model pool). */
export function readModelPositions(pool: pg.Pool): ReadModelPositions {
  let positions = positionsByPool.get(pool);
  if (!positions) positionsByPool.set(pool, (positions = new ReadModelPositions()));
  return positions;
}

/** How soon to look again when an announced append was not readable yet (an older transaction is still open). */
const BEHIND_RETRY_MS = 10;

/**
 * The embedded default: follow the event log directly and apply it to the read models. Each
 * projection resumes from its own checkpoint; one that is rebuilding is left alone until it is live.
 * Woken by the log's announcements of appends where it makes them, else polling.
 */
export class InProcessProjector {
  private readonly batchSize: number;
  private readonly idleMs: number;
  /** Where the last batch read up to (null: nothing read yet, or every read model rebuilding). */
  private reached: LogPosition | null = null;

  constructor(
    private readonly log: EventLog,
    private readonly pool: pg.Pool,
    private readonly projections: readonly Projection[],
    private readonly options: InProcessOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.idleMs = options.idleMs ?? (log.watchAppends ? 250 : 20);
  }

  /** Apply the next batch after the earliest live checkpoint; returns how many events were read. */
  async runOnce(): Promise<number> {
    const versions = new Map(this.projections.map((p) => [p.name, p.version]));
    // A read model whose live generation a newer rule built is left to newer processes: it must not hold the others back.
    const checkpoints = (
      await readCheckpoints(
        this.pool,
        this.projections.map((p) => p.name),
      )
    ).filter((c) => c.status === "live" && c.version <= versions.get(c.name)!);
    this.reached = null;
    if (checkpoints.length === 0) {
      readModelPositions(this.pool).nothingLive();
      return 0;
    }
    let from: LogPosition | null = checkpoints[0]!.position;
    for (const c of checkpoints) {
      if (c.position === null || (from !== null && comparePositions(c.position, from) < 0)) from = c.position;
      if (from === null) break;
    }
    const batch = await this.log.readAll(from, this.batchSize);
    // A span for a batch that holds events only: the runner polls every few ms, and an empty look is no batch.
    if (batch.length > 0)
      await inBatchSpan("projector batch", batch, { "projector.runner": "in-process" }, () =>
        applyBatch(this.pool, this.projections, batch, "log"),
      );
    this.reached = batch.length ? batch[batch.length - 1]!.position : from;
    // Committed: every live read model is at `reached` or beyond (one that was ahead kept its place).
    if (this.reached) readModelPositions(this.pool).reach(this.reached);
    return batch.length;
  }

  start(): RunnerHandle {
    let checkpointsReady = false;
    const unkeep = readModelPositions(this.pool).keep();
    const following = followLog(
      this.log,
      async (waiter) => {
        if (!checkpointsReady) {
          await ensureCheckpoints(this.pool, this.projections);
          checkpointsReady = true;
        }
        // A full batch means more is waiting: go again at once.
        if ((await this.runOnce()) >= this.batchSize) return "more";
        // An announced append not readable yet waits behind a transaction that began before it.
        if (this.reached !== null && waiter.announcedBeyond(this.reached)) return { waitMs: BEHIND_RETRY_MS };
      },
      {
        idleMs: this.idleMs,
        firstBackoffMs: 200,
        onError: async (e) => {
          this.options.onError?.(e);
          await recordProjectionError(this.pool, this.projections, e);
        },
      },
    );
    // The batch in flight commits (or rolls back) as a whole before stop resolves.
    const kept: RunnerHandle = { done: following.done.finally(unkeep), stop: () => following.stop().finally(unkeep) };
    return withVersionsKept(kept, this.log, this.pool, this.projections, this.options);
  }
}
