import pg from "pg";
import type { Migration } from "@booking/contracts";
import { migrate } from "../sql-migrations.ts";
import type { Snapshot, SnapshotStore } from "./snapshot-store.ts";

export const snapshotMigrations: readonly Migration[] = [
  {
    name: "001_snapshots",
    // One row per stream, the latest snapshot; json (text as written), not jsonb: it is only ever
    // read back whole, so nothing is gained by decomposing it on every write.
    sql: `
      CREATE TABLE snapshots (
        stream_id text PRIMARY KEY,
        version bigint NOT NULL CHECK (version >= 1),
        shape text NOT NULL,
        state json NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];

/** Snapshots in their own table of the event store's database (migrated apart from the events). */
export class PostgresSnapshotStore implements SnapshotStore {
  constructor(
    readonly pool: pg.Pool,
    private readonly ownsPool = false,
  ) {}

  /** On a pool of its own (or the event store's, passed in), with the table migrated. */
  static async connect(target: string | pg.Pool): Promise<PostgresSnapshotStore> {
    const owns = typeof target === "string";
    const pool = owns ? new pg.Pool({ connectionString: target, max: 2 }) : target;
    if (owns) pool.on("error", () => undefined);
    await migrate(pool, "snapshot_migrations", snapshotMigrations);
    return new PostgresSnapshotStore(pool, owns);
  }

  async read(streamId: string, shape: string): Promise<Snapshot | null> {
    const { rows } = await this.pool.query<{ version: string; state: unknown }>({
      name: "snapshot-read",
      text: "SELECT version, state FROM snapshots WHERE stream_id = $1 AND shape = $2",
      values: [streamId, shape],
    });
    const row = rows[0];
    return row ? { streamId, version: Number(row.version), shape, state: row.state } : null;
  }

  async write(s: Snapshot): Promise<void> {
    // A later snapshot is never replaced by an older one (two processes may write at once); one of
    // another shape is replaced by any (the old shape's readers are gone once this one writes).
    await this.pool.query({
      name: "snapshot-write",
      text: `INSERT INTO snapshots (stream_id, version, shape, state) VALUES ($1, $2, $3, $4)
             ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, shape = EXCLUDED.shape, state = EXCLUDED.state, written_at = now()
             WHERE snapshots.version < EXCLUDED.version OR snapshots.shape <> EXCLUDED.shape`,
      values: [s.streamId, s.version, s.shape, JSON.stringify(s.state)],
    });
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}
