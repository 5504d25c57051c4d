import type pg from "pg";
import { allProjections } from "./read-models/index.ts";

export const readModelTables = [...new Set(allProjections.flatMap((p) => p.tables))].sort();

/**
 * A digest of every read-model row, per table: equal digests mean identical read models. Rows are
 * compared as JSON values (to_jsonb), so a json column's text as written (a rebuild's COPY, or the
 * runners' upsert, which spaces it as jsonb does) counts for its value, not its spacing.
 */
export async function readModelDigest(
  pool: pg.Pool,
  tables: readonly string[] = readModelTables,
): Promise<Record<string, { rows: number; md5: string }>> {
  const out: Record<string, { rows: number; md5: string }> = {};
  for (const table of tables) {
    if (!readModelTables.includes(table)) throw new Error(`Not a read-model table: ${table}`);
    const { rows } = await pool.query<{ n: string; md5: string }>(
      `SELECT count(*) AS n, md5(coalesce(string_agg(to_jsonb(r)::text, E'\\n' ORDER BY to_jsonb(r)::text), '')) AS md5 FROM ${table} r`,
    );
    out[table] = { rows: Number(rows[0]!.n), md5: rows[0]!.md5 };
  }
  return out;
}
