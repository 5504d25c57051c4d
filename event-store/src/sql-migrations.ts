import type { Migration } from "@booking/contracts";

// Schema migrations for the Postgres parts of every package (event store, relay, read models).
// Typed structurally: a pg.Pool or a single client's stand-in will do.

type Queryable = { query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> };
type MigrationPool = { connect: () => Promise<Queryable & { release: () => void }> };

/**
 * Apply migrations in order, each once, under an advisory lock so that several processes may
 * start together. `table` names the bookkeeping table, so each package keeps its own history.
 */
export async function migrate(pool: MigrationPool, table: string, migrations: readonly Migration[]): Promise<void> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`Bad migrations table name: ${table}`);
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [table]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(((await client.query(`SELECT name FROM ${table}`)).rows as { name: string }[]).map((r) => r.name));
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
