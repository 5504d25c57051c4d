import pg from "pg";
import type { Migration } from "@booking/contracts";
import { migrate } from "../sql-migrations.ts";
import type { SnapshotSeal } from "./snapshot-seal.ts";
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

/** Rows looked through at a time when forgetting the sealed snapshots that mention someone. */
const FORGET_BATCH = 200;

/**
 * Snapshots in their own table of the event store's database (migrated apart from the events). With a seal (the
 * product's, from DATA_KEY_SECRET: ./snapshot-seal.ts) states are stored sealed, and a state not sealed under it is
 * not believed (read as no snapshot: the stream is folded and a sealed one written later).
 */
export class PostgresSnapshotStore implements SnapshotStore {
  constructor(
    readonly pool: pg.Pool,
    private readonly ownsPool = false,
    private readonly seal: SnapshotSeal | null = null,
  ) {}

  /** On a pool of its own (or the event store's, passed in), with the table migrated. */
  static async connect(target: string | pg.Pool, options: { seal?: SnapshotSeal } = {}): Promise<PostgresSnapshotStore> {
    const owns = typeof target === "string";
    const pool = owns ? new pg.Pool({ connectionString: target, max: 2 }) : target;
    if (owns) pool.on("error", () => undefined);
    await migrate(pool, "snapshot_migrations", snapshotMigrations);
    return new PostgresSnapshotStore(pool, owns, options.seal ?? null);
  }

  async read(streamId: string, shape: string): Promise<Snapshot | null> {
    const { rows } = await this.pool.query<{ version: string; state: unknown }>({
      name: "snapshot-read",
      text: "SELECT version, state FROM snapshots WHERE stream_id = $1 AND shape = $2",
      values: [streamId, shape],
    });
    const row = rows[0];
    if (!row) return null;
    const version = Number(row.version);
    const state = this.seal ? this.seal.open({ streamId, version, shape }, row.state) : row.state;
    return state === undefined ? null : { streamId, version, shape, state };
  }

  async write(s: Snapshot): Promise<void> {
    // A later snapshot is never replaced by an older one (two processes may write at once); one of
    // another shape is replaced by any (the old shape's readers are gone once this one writes).
    await this.pool.query({
      name: "snapshot-write",
      text: `INSERT INTO snapshots (stream_id, version, shape, state) VALUES ($1, $2, $3, $4)
             ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, shape = EXCLUDED.shape, state = EXCLUDED.state, written_at = now()
             WHERE snapshots.version < EXCLUDED.version OR snapshots.shape <> EXCLUDED.shape`,
      values: [s.streamId, s.version, s.shape, JSON.stringify(this.seal ? this.seal.seal(s) : s.state)],
    });
  }

  async forgetMentioning(id: string): Promise<number> {
    // Plain states (and every stream id) are searched by Postgres; sealed states are opened here, a batch at a time.
    const plain = await this.pool.query(
      `DELETE FROM snapshots WHERE strpos(stream_id, $1) > 0 OR (json_typeof(state) <> 'string' AND strpos(state::text, $1) > 0)`,
      [id],
    );
    let forgotten = plain.rowCount ?? 0;
    if (!this.seal) return forgotten;
    for (let after = ""; ;) {
      const { rows } = await this.pool.query<{ stream_id: string; version: string; shape: string; state: unknown }>(
        `SELECT stream_id, version, shape, state FROM snapshots WHERE json_typeof(state) = 'string' AND stream_id > $1
         ORDER BY stream_id LIMIT ${FORGET_BATCH}`,
        [after],
      );
      for (const r of rows) {
        const place = { streamId: r.stream_id, version: Number(r.version), shape: r.shape };
        const state = this.seal.open(place, r.state);
        // One that does not open cannot be vouched for either: a shortcut, so it goes too.
        if (state !== undefined && !JSON.stringify(state).includes(id)) continue;
        const gone = await this.pool.query("DELETE FROM snapshots WHERE stream_id = $1 AND version = $2", [r.stream_id, r.version]);
        forgotten += gone.rowCount ?? 0;
      }
      if (rows.length < FORGET_BATCH) return forgotten;
      after = rows[rows.length - 1]!.stream_id;
    }
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}
