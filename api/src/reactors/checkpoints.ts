import type pg from "pg";
import { formatPosition, parsePosition, type EventLog, type LogPosition, type StoredEvent } from "@booking/contracts";
import { inBatchSpan } from "@booking/event-store";

// The reactors that turn the log into work (mail, refunds) read it the same way: one batch, what
// it owes and the reactor's place in the log written in one transaction, so a crash neither loses
// the batch nor applies it twice. Each reactor keeps its place in a table of its own (its schema
// migrates with it); the rows have one shape: (name, position, updated_at).

/** A pool or one client of it (inside a reactor's transaction). */
export type Queryable = Pick<pg.Pool | pg.ClientBase, "query">;

export type CheckpointTable = "mail_checkpoints" | "refund_checkpoints" | "payout_checkpoints" | "external_booking_write_checkpoints";

/** The advisory lock each table's followers take (the names the reactors have always locked under). */
const lockPrefix: Record<CheckpointTable, string> = {
  mail_checkpoints: "mail-follower",
  refund_checkpoints: "refund-follower",
  payout_checkpoints: "payout-follower",
  external_booking_write_checkpoints: "external-booking-write-follower",
};

export async function loadCheckpoint(db: Queryable, table: CheckpointTable, name: string): Promise<LogPosition | null> {
  const stored = (await db.query<{ position: string }>(`SELECT position FROM ${table} WHERE name = $1`, [name])).rows[0]?.position;
  if (stored === undefined) return null;
  const position = parsePosition(stored);
  // Starting over would only re-read the log (harmless), but a malformed row is a bug to see.
  if (!position) throw new Error(`Checkpoint ${name} in ${table} holds a malformed position: ${stored}`);
  return position;
}

export async function saveCheckpoint(db: Queryable, table: CheckpointTable, name: string, position: LogPosition): Promise<void> {
  await db.query(
    `INSERT INTO ${table} (name, position) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
    [name, formatPosition(position)],
  );
}

export type ReactorBatch = { db: pg.Pool; log: Pick<EventLog, "readAll">; table: CheckpointTable; name: string; batchSize: number };

/** Read the batch after the checkpoint, let `react` write what it owes, move the checkpoint: one transaction. Resolves to how many events were read. */
export async function reactToNextBatch(
  { db, log, table, name, batchSize }: ReactorBatch,
  react: (client: pg.PoolClient, batch: readonly StoredEvent[]) => Promise<void>,
): Promise<number> {
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    // Locked, so two followers of one name never read the same batch at once.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1 || ':' || $2))", [lockPrefix[table], name]);
    const batch = await log.readAll(await loadCheckpoint(client, table, name), batchSize);
    // A span for each batch that holds work (an idle poll is not a step), linked to the requests that appended it.
    if (batch.length === 0) await react(client, batch);
    else await inBatchSpan("reactor step", batch, { "reactor.name": name, "reactor.area": table }, () => react(client, batch));
    if (batch.length) await saveCheckpoint(client, table, name, batch[batch.length - 1]!.position);
    await client.query("COMMIT");
    return batch.length;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
