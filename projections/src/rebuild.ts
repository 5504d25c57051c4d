import type pg from "pg";
import { formatPosition, type EventLog, type LogPosition, type StoredEvent } from "@booking/contracts";
import { applyInTransaction, ensureCheckpoints, toProjected } from "./apply.ts";
import type { ProjectedEvent, Projection } from "./projection.ts";

export type RebuildProgress = { projection: string; done: number; total: number; eventsPerSecond: number; secondsLeft: number | null };

/**
 * Rebuild read models from the event log (never from Kafka), reading the log once for all of
 * them. They are marked rebuilding, so live runners stop writing their tables; the tables are
 * emptied and refilled in batches, each read model's rows committed with its checkpoint; the last
 * stretch up to the log's head is applied while holding their checkpoint rows, so that when they
 * turn live again the runners continue exactly where the rebuild stopped.
 */
export async function rebuildProjections(
  log: EventLog,
  pool: pg.Pool,
  projections: readonly Projection[],
  options: { batchSize?: number; onProgress?: (p: RebuildProgress) => void } = {},
): Promise<{ events: number; seconds: number }> {
  const batchSize = options.batchSize ?? 2000;
  const names = projections.map((p) => p.name);
  const label = names.length === 1 ? names[0]! : `${names.length} read models`;
  await ensureCheckpoints(pool, projections);
  const total = await log.countEvents();
  const started = performance.now();
  const report = (done: number) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    options.onProgress?.({ projection: label, done, total: Math.max(total, done), eventsPerSecond: rate, secondsLeft: rate > 0 ? Math.max(0, total - done) / rate : null });
  };

  await transaction(pool, async (client) => {
    await client.query("UPDATE projection_checkpoints SET status = 'rebuilding', position = NULL, events_applied = 0, last_error = NULL, updated_at = now() WHERE name = ANY($1)", [names]);
    await client.query(`TRUNCATE ${projections.flatMap((p) => p.tables).join(", ")}`);
  });

  let position: LogPosition | null = null;
  let done = 0;
  type Read = { events: StoredEvent[]; projected: ProjectedEvent[] };
  const read = (after: LogPosition | null): Promise<Read> => log.readAll(after, batchSize).then((events) => ({ events, projected: toProjected(events) }));
  let next = read(position);
  for (;;) {
    const { events, projected } = await next;
    if (events.length === 0) break;
    position = events[events.length - 1]!.position;
    // Read and parse the next batch while this one is written: Postgres and Node work at once.
    next = events.length < batchSize ? Promise.resolve({ events: [], projected: [] }) : read(position);
    next.catch(() => undefined); // if writing fails first, that error is the one reported
    await writeSideBySide(pool, projections, projected, names);
    done += events.length;
    report(done);
    if (events.length < batchSize) break;
  }

  // Catch up to the head and turn live in one transaction holding the checkpoint row.
  await transaction(pool, async (client) => {
    await client.query("SELECT 1 FROM projection_checkpoints WHERE name = ANY($1) ORDER BY name FOR UPDATE", [names]);
    for (;;) {
      const batch = await log.readAll(position, batchSize);
      if (batch.length === 0) break;
      await applyInTransaction(client, projections, toProjected(batch), { rebuilding: names });
      position = batch[batch.length - 1]!.position;
      done += batch.length;
    }
    await client.query("UPDATE projection_checkpoints SET status = 'live', position = COALESCE($2, position), updated_at = now() WHERE name = ANY($1)", [
      names,
      position ? formatPosition(position) : null,
    ]);
  });
  report(done);
  return { events: done, seconds: (performance.now() - started) / 1000 };
}

/**
 * Write a rebuild's batch to its read models in two transactions at once, each with its read
 * models' checkpoints: the facts read models (inserts only, the bulk of a rebuild) and the entity
 * ones (read, fold, write). They share no rows and lock their checkpoint rows in the same order as
 * every other writer, so Postgres works on both at once while Node folds; in one transaction
 * Postgres and Node took turns. If one fails the rebuild fails: read models left rebuilding are
 * rebuilt from the start.
 */
async function writeSideBySide(pool: pg.Pool, projections: readonly Projection[], events: readonly ProjectedEvent[], rebuilding: readonly string[]): Promise<void> {
  const groups = [projections.filter((p) => p.kind === "facts"), projections.filter((p) => p.kind === "entity")].filter((g) => g.length > 0);
  const written = await Promise.allSettled(groups.map((group) => transaction(pool, (client) => applyInTransaction(client, group, events, { rebuilding }))));
  const failed = written.find((w) => w.status === "rejected");
  if (failed) throw failed.reason;
}

export function rebuildProjection(log: EventLog, pool: pg.Pool, projection: Projection, options: Parameters<typeof rebuildProjections>[3] = {}) {
  return rebuildProjections(log, pool, [projection], options);
}

async function transaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<unknown>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await work(client);
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** A rebuild's hold on its read models; release it when the rebuild ends. */
export type RebuildClaim = { release: () => Promise<void> };

// Session-level advisory locks, one per read model, held on a connection of their own for the
// whole rebuild: a second rebuild of the same read model (`npm run replay`, the admin console,
// another API process) is refused, and a crash frees them.
const LOCK_SQL = "SELECT pg_try_advisory_lock(hashtext('projection_rebuild'), hashtext($1)) AS locked";
const UNLOCK_SQL = "SELECT pg_advisory_unlock(hashtext('projection_rebuild'), hashtext($1))";

/** Claim the read models for a rebuild, or null when any of them is being rebuilt already. */
export async function claimRebuild(pool: pg.Pool, names: readonly string[]): Promise<RebuildClaim | null> {
  const client = await pool.connect();
  const held: string[] = [];
  let broken: Error | undefined;
  const release = async () => {
    try {
      for (const name of held) await client.query(UNLOCK_SQL, [name]);
    } catch (e) {
      broken = e instanceof Error ? e : new Error(String(e));
    } finally {
      // A connection whose unlock failed is discarded: closing it frees its locks.
      client.release(broken);
    }
  };
  try {
    // Try-locks never wait: a claim that meets another gives back what it took and is refused.
    for (const name of names) {
      const { rows } = await client.query<{ locked: boolean }>(LOCK_SQL, [name]);
      if (rows[0]?.locked !== true) {
        await release();
        return null;
      }
      held.push(name);
    }
  } catch (e) {
    await release();
    throw e;
  }
  return { release };
}
