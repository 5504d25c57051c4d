import type pg from "pg";

export type Migration = { name: string; sql: string };

/**
 * Apply migrations in order, each once, under an advisory lock so that several processes may
 * start together. `table` names the bookkeeping table, so each package keeps its own history.
 */
export async function migrate(pool: pg.Pool, table: string, migrations: readonly Migration[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [table]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ name: string }>(`SELECT name FROM ${table}`)).rows.map((r) => r.name));
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(`INSERT INTO ${table} (name) VALUES ($1)`, [m.name]);
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw e;
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext($1))", [table]).catch(() => undefined);
    client.release();
  }
}

export const eventStoreMigrations: readonly Migration[] = [
  {
    name: "001_events",
    sql: `
      CREATE TABLE streams (
        stream_id text PRIMARY KEY,
        version bigint NOT NULL CHECK (version >= 0)
      );
      CREATE TABLE events (
        global_position bigserial PRIMARY KEY,
        -- The writing transaction: catch-up readers order by it and never read past the oldest
        -- transaction still running, so an event committed out of order is never skipped.
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        stream_id text NOT NULL,
        version bigint NOT NULL CHECK (version >= 1),
        event_id uuid NOT NULL UNIQUE,
        type text NOT NULL,
        schema_version int NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream_id, version)
      );
      CREATE INDEX events_log_order ON events (transaction_id, global_position);
    `,
  },
];
