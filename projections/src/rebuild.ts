import type pg from "pg";
import type { EventLog, LogPosition } from "@booking/contracts";
import { ensureCheckpoints, inTransaction, readCheckpoints, toProjected } from "./apply.ts";
import { fillGenerations, type LogBatch } from "./fill.ts";
import {
  abandonGenerations,
  applyToBuilding,
  dropRetiredGenerations,
  startGenerations,
  switchGenerations,
  type Building,
} from "./generations.ts";
import type { ProjectedEvent, Projection } from "./projection.ts";

export type RebuildProgress = { projection: string; done: number; total: number; eventsPerSecond: number; secondsLeft: number | null };

export type RebuildOptions = {
  batchSize?: number;
  onProgress?: (p: RebuildProgress) => void;
  /** Stops the rebuild between batches: its generation is dropped, the live one was never touched. */
  signal?: AbortSignal;
  /** The caller's claim on these read models (claimRebuild); without one the rebuild claims them itself, or throws RebuildRunning. */
  claim?: RebuildClaim;
  /**
   * How long the switch waits for readers' statements still running on the live tables before it
   * gives up, catches up again and retries (while it waits, new statements queue behind it).
   */
  switchLockTimeoutMs?: number;
  /**
   * How many rows (and fact keys) the in-memory fill may hold before it writes them and goes on
   * batch by batch (fill.ts); it bounds the memory a rebuild of a large log takes.
   */
  heldRowsLimit?: number;
};

export type RebuildResult = { events: number; seconds: number; generations: Record<string, number> };

/** Tries at the switch before the rebuild fails (each waits at most switchLockTimeoutMs). */
const SWITCH_ATTEMPTS = 10;

/** Rows held in memory by a rebuild's fill: a few hundred megabytes at most. */
const HELD_ROWS_LIMIT = 250_000;

/**
 * Rebuild read models from the event log (never from Kafka), blue-green, reading the log once for
 * all of them: a new generation of each is made (generations.ts) without indexes, filled by
 * folding the log in memory and writing the rows with COPY, then indexed (fill.ts), while the
 * live generation keeps serving readers and being projected by the runners. Once the new
 * generations are close to the head, one transaction holds their checkpoint rows (the runners'
 * next batch waits), applies the rest of the log to them and switches readers to them, with the
 * checkpoints moved to where they stopped: the runners continue there, on the new generation, so
 * nothing is lost or applied twice. The old generation is kept, retired, until the next rebuild of
 * the read model or dropRetiredGenerations. On failure the new generation is dropped.
 */
export async function rebuildProjections(
  log: EventLog,
  pool: pg.Pool,
  projections: readonly Projection[],
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const names = projections.map((p) => p.name);
  if (options.claim && !names.every((n) => options.claim!.names.includes(n)))
    throw new Error(`the claim does not cover ${names.join(", ")}`);
  const own = options.claim ? null : await claimRebuild(pool, names);
  if (!options.claim && !own) throw new RebuildRunning(names);
  try {
    return await rebuildClaimed(log, pool, projections, options);
  } finally {
    await own?.release();
  }
}

/** Another process (or another call) is rebuilding one of these read models. */
export class RebuildRunning extends Error {
  constructor(names: readonly string[]) {
    super(`a rebuild of ${names.length === 1 ? names[0] : `one of ${names.join(", ")}`} is already running`);
    this.name = "RebuildRunning";
  }
}

async function rebuildClaimed(
  log: EventLog,
  pool: pg.Pool,
  projections: readonly Projection[],
  options: RebuildOptions,
): Promise<RebuildResult> {
  const batchSize = options.batchSize ?? 5000;
  const names = projections.map((p) => p.name);
  const label = names.length === 1 ? names[0]! : `${names.length} read models`;
  await ensureCheckpoints(pool, projections);
  const total = await log.countEvents();
  const started = performance.now();
  const report = (done: number) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    options.onProgress?.({
      projection: label,
      done,
      total: Math.max(total, done),
      eventsPerSecond: rate,
      secondsLeft: rate > 0 ? Math.max(0, total - done) / rate : null,
    });
  };
  const stopIfAsked = () => {
    if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error("rebuild stopped");
  };

  const building = await startGenerations(pool, projections);
  let position: LogPosition | null = null;
  let done = 0;
  try {
    const read = (after: LogPosition | null): Promise<LogBatch> =>
      log.readAll(after, batchSize).then((events) => ({ events, projected: toProjected(events) }));
    const filled = await fillGenerations(pool, building, {
      batchSize,
      read,
      heldRowsLimit: options.heldRowsLimit ?? HELD_ROWS_LIMIT,
      onBatch: report,
      stopIfAsked,
    });
    position = filled.position;
    done = filled.events;
    // Then, unlocked, batch by batch (the rest of a log too large for the fill's memory, and what
    // was appended meanwhile) until a batch comes back short.
    const catchUp = async () => {
      let next = read(position);
      for (;;) {
        stopIfAsked();
        const { events, projected } = await next;
        if (events.length === 0) break;
        position = events[events.length - 1]!.position;
        // Read and parse the next batch while this one is written: Postgres and Node work at once.
        next = events.length < batchSize ? Promise.resolve({ events: [], projected: [] }) : read(position);
        next.catch(() => undefined); // if writing fails first, that error is the one reported
        await writeSideBySide(pool, building, projected);
        done += events.length;
        report(done);
        if (events.length < batchSize) break;
      }
    };
    await catchUp();
    for (let attempt = 1; ; attempt++) {
      stopIfAsked();
      try {
        done += await switchWhenCaughtUp(pool, log, building, position, batchSize, options.switchLockTimeoutMs ?? 1000);
        break;
      } catch (e) {
        // A reader held the live tables past the timeout: the transaction rolled back; catch up and try again.
        if ((e as { code?: unknown }).code !== LOCK_NOT_AVAILABLE || attempt >= SWITCH_ATTEMPTS) throw e;
        await catchUp();
      }
    }
  } catch (e) {
    await abandonGenerations(pool, building).catch(() => undefined);
    throw e;
  }
  report(done);
  return {
    events: done,
    seconds: (performance.now() - started) / 1000,
    generations: Object.fromEntries(building.map((b) => [b.projection.name, b.generation])),
  };
}

/** Postgres's lock_not_available: a lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * The switch: hold the read models' checkpoint rows (the live runners' next batch waits, and lands
 * in the new generation), apply the rest of the log to the new generations, and make them live.
 * Returns how many events it applied.
 */
async function switchWhenCaughtUp(
  pool: pg.Pool,
  log: EventLog,
  building: readonly Building[],
  from: LogPosition | null,
  batchSize: number,
  lockTimeoutMs: number,
): Promise<number> {
  let position = from;
  let events = 0;
  await inTransaction(pool, async (client) => {
    await client.query("SELECT 1 FROM projection_checkpoints WHERE name = ANY($1) ORDER BY name FOR UPDATE", [
      building.map((b) => b.projection.name),
    ]);
    for (;;) {
      const batch = await log.readAll(position, batchSize);
      if (batch.length === 0) break;
      await applyToBuilding(client, building, toProjected(batch));
      position = batch[batch.length - 1]!.position;
      events += batch.length;
    }
    await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
    await switchGenerations(client, building);
  });
  return events;
}

/**
 * Write a rebuild's batch to its new generations in two transactions at once: the facts read
 * models (inserts only, the bulk of a rebuild) and the entity ones (read, fold, write). They share
 * no rows, so Postgres works on both at once while Node folds; in one transaction Postgres and
 * Node took turns. If one fails the rebuild fails and its generations are dropped.
 */
async function writeSideBySide(pool: pg.Pool, building: readonly Building[], events: readonly ProjectedEvent[]): Promise<void> {
  const groups = [building.filter((b) => b.projection.kind === "facts"), building.filter((b) => b.projection.kind === "entity")].filter(
    (g) => g.length > 0,
  );
  const written = await Promise.allSettled(groups.map((group) => inTransaction(pool, (client) => applyToBuilding(client, group, events))));
  const failed = written.find((w) => w.status === "rejected");
  if (failed) throw failed.reason;
}

export function rebuildProjection(log: EventLog, pool: pg.Pool, projection: Projection, options: RebuildOptions = {}) {
  return rebuildProjections(log, pool, [projection], options);
}

/** A rebuild's hold on its read models; release it when the rebuild ends. */
export type RebuildClaim = { names: readonly string[]; release: () => Promise<void> };

// Session-level advisory locks, one per read model, held on a connection of their own for the
// whole rebuild: a second rebuild of the same read model (`npm run replay`, the admin console,
// another API process) is refused, and a crash frees them.
const LOCK_SQL = "SELECT pg_try_advisory_lock(hashtext('projection_rebuild'), hashtext($1)) AS locked";
const UNLOCK_SQL = "SELECT pg_advisory_unlock(hashtext('projection_rebuild'), hashtext($1))";

/** Claim the read models for a rebuild, or null when any of them is being rebuilt already. */
export async function claimRebuild(pool: pg.Pool, names: readonly string[]): Promise<RebuildClaim | null> {
  const { claim, held } = await claimAvailable(pool, names, { allOrNothing: true });
  return held.length === names.length ? claim : null;
}

/** Claim those of the read models nobody is rebuilding, on one connection; `held` names them. */
async function claimAvailable(
  pool: pg.Pool,
  names: readonly string[],
  { allOrNothing }: { allOrNothing: boolean },
): Promise<{ claim: RebuildClaim; held: string[] }> {
  const client = await pool.connect();
  const held: string[] = [];
  let broken: Error | undefined;
  const release = async () => {
    try {
      for (const name of held.splice(0)) await client.query(UNLOCK_SQL, [name]);
    } catch (e) {
      broken = e instanceof Error ? e : new Error(String(e));
    } finally {
      // A connection whose unlock failed is discarded: closing it frees its locks.
      client.release(broken);
    }
  };
  try {
    // Try-locks never wait: an all-or-nothing claim that meets another gives back what it took.
    for (const name of names) {
      const { rows } = await client.query<{ locked: boolean }>(LOCK_SQL, [name]);
      if (rows[0]?.locked === true) held.push(name);
      else if (allOrNothing) {
        await release();
        return { claim: { names: [], release: async () => undefined }, held: [] };
      }
    }
  } catch (e) {
    await release();
    throw e;
  }
  return { claim: { names: [...held], release }, held: [...held] };
}

/** Read models whose live generation was built by another version of their rule than this process has. */
async function outdated(pool: pg.Pool, projections: readonly Projection[]): Promise<Projection[]> {
  const versions = new Map(
    (
      await readCheckpoints(
        pool,
        projections.map((p) => p.name),
      )
    ).map((c) => [c.name, c.version]),
  );
  return projections.filter((p) => versions.has(p.name) && versions.get(p.name) !== p.version);
}

/**
 * Rebuild, blue-green and together, the read models whose live generation another version of
 * their rule built. Each is claimed first (the advisory lock of claimRebuild), so among processes
 * starting at once one does it; `busy` lists those another process holds.
 */
export async function rebuildOutdated(
  log: EventLog,
  pool: pg.Pool,
  projections: readonly Projection[],
  options: RebuildOptions = {},
): Promise<{ rebuilt: string[]; busy: string[] }> {
  const candidates = await outdated(pool, projections);
  if (candidates.length === 0) return { rebuilt: [], busy: [] };
  const { claim, held } = await claimAvailable(
    pool,
    candidates.map((p) => p.name),
    { allOrNothing: false },
  );
  try {
    // Another process may have switched one while this one looked.
    const todo = await outdated(
      pool,
      candidates.filter((p) => held.includes(p.name)),
    );
    if (todo.length) await rebuildProjections(log, pool, todo, { ...options, claim });
    return { rebuilt: todo.map((p) => p.name), busy: candidates.filter((p) => !held.includes(p.name)).map((p) => p.name) };
  } finally {
    await claim.release();
  }
}

export type VersionKeeping = RebuildOptions & {
  onError?: (error: unknown) => void;
  /** Told when read models were rebuilt because their version changed. */
  onRebuilt?: (names: readonly string[]) => void;
  /** How long to wait before looking again while another process holds a claim, or after a failure. */
  retryMs?: number;
  /** Retired generations older than this are dropped when the process starts. */
  retiredGraceMs?: number;
};

/** Retired generations are kept this long (for a look at what the read model was) unless a rebuild drops them first. */
export const RETIRED_GRACE_MS = 60 * 60_000;

/**
 * What a projecting process does at start beside its runner: drop retired generations past their
 * grace, then rebuild the read models whose version differs from the live generation's, in the
 * background, until none does or `signal` stops it. While a rebuild runs, the runner keeps
 * projecting the live generation with this process's rule.
 */
export async function keepVersionsCurrent(
  log: EventLog,
  pool: pg.Pool,
  projections: readonly Projection[],
  options: VersionKeeping & { signal: AbortSignal },
): Promise<void> {
  const { signal } = options;
  const retryMs = options.retryMs ?? 30_000;
  try {
    await ensureCheckpoints(pool, projections);
    await dropRetiredGenerations(pool, projections, options.retiredGraceMs ?? RETIRED_GRACE_MS);
  } catch (e) {
    if (!signal.aborted) options.onError?.(e);
  }
  while (!signal.aborted) {
    try {
      const { rebuilt, busy } = await rebuildOutdated(log, pool, projections, options);
      if (rebuilt.length) options.onRebuilt?.(rebuilt);
      if (busy.length === 0) return;
    } catch (e) {
      if (signal.aborted) return;
      options.onError?.(e);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, retryMs);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
}
