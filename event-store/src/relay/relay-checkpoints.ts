import type pg from "pg";
import { formatPosition, parsePosition, type LogPosition, type Migration } from "@booking/contracts";
import { migrate } from "../sql-migrations.ts";

export const relayMigrations: readonly Migration[] = [
  {
    name: "001_relay_checkpoints",
    sql: `
      CREATE TABLE relay_checkpoints (
        name text PRIMARY KEY,
        -- formatPosition: "commit:prepare", the same on every event store adapter
        position text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];

/** Where each relay (by name) has published up to: the position of the last event the bus acknowledged. */
export class PostgresRelayCheckpoints {
  constructor(private readonly pool: pg.Pool) {}

  /** Apply the relay's migrations on `pool` (the caller keeps owning it). */
  static async connect(pool: pg.Pool): Promise<PostgresRelayCheckpoints> {
    await migrate(pool, "relay_migrations", relayMigrations);
    return new PostgresRelayCheckpoints(pool);
  }

  async load(name: string): Promise<LogPosition | null> {
    const { rows } = await this.pool.query<{ position: string }>("SELECT position FROM relay_checkpoints WHERE name = $1", [name]);
    const stored = rows[0]?.position;
    if (stored === undefined) return null;
    const position = parsePosition(stored);
    // Starting over from the beginning would republish the whole log: refuse instead.
    if (!position) throw new Error(`Relay checkpoint ${name} holds a malformed position: ${stored}`);
    return position;
  }

  async save(name: string, position: LogPosition): Promise<void> {
    await this.pool.query(
      `INSERT INTO relay_checkpoints (name, position) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
      [name, formatPosition(position)],
    );
  }
}
