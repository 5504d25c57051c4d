import type pg from "pg";
import { comparePositions, formatPosition, parsePosition, type LogPosition } from "@booking/contracts";
import { applyToReadModel, inTransaction, laterPosition } from "./apply.ts";
import type { ProjectedEvent, Projection } from "./projection.ts";

// Generations of a read model (blue-green rebuilds).
//
// Readers and the live runners always use a read model's own table names (`bookings`): the live
// generation IS that table. A rebuild fills a new generation, `bookings__g2`, made LIKE the live
// table (columns, defaults, constraints) but without its indexes, from the log, while the live one
// keeps serving and being projected; the live table's indexes (primary key and unique ones
// included) are built on it once it is filled, which is several times faster than keeping them
// up row by row (indexGeneration). When it has caught up, one transaction holding the read model's checkpoint
// row renames the live table to `bookings__g1` (retired) and `bookings__g2` to `bookings`, index
// names with them, and moves the checkpoint to the new generation's position.
//
// Why renames rather than a view or a generation pointer: every query, index, migration and
// named statement keeps working unchanged. A view would refuse `ALTER TABLE bookings ADD COLUMN`
// (every read model's migrations are written that way), freezes its column list when created,
// and needs writes routed through it; a pointer would change every query in the API. Postgres
// re-plans a prepared statement whose table was renamed, so it finds the new table by name.
//
// Migrations are written against the read model's own name and so apply to the live generation.
// A new generation copies the live table's shape when it is created, so it carries every
// migration run before; one run while a generation is being built would be missing from it: the
// switch compares the two shapes under lock and refuses (the rebuild fails; run it again).

/** The name of a table of generation `generation` while it is not live. */
export const generationTable = (table: string, generation: number): string => `${table}__g${generation}`;

/** Postgres keeps 63 bytes of a name: a retired index's suffix must survive. */
const retiredIndexName = (name: string, generation: number): string => {
  const suffix = `__g${generation}`;
  return `${name.slice(0, 63 - suffix.length)}${suffix}`;
};

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A generation being built: the read model and its number; `indexes`, the statements that give its
 * tables the live tables' indexes as they were when it was made (run by indexGeneration).
 */
export type Building = { projection: Projection; generation: number; indexes: readonly string[] };

export type GenerationState = "live" | "building" | "retired";

/** A generation as the console shows it. */
export type GenerationStatus = {
  name: string;
  generation: number;
  /** The version of the rule that built (or builds) it. */
  version: number;
  state: GenerationState;
  /** Its tables as they are named now. */
  tables: string[];
  position: LogPosition | null;
  eventsApplied: number;
  startedAt: string | null;
  updatedAt: string;
  retiredAt: string | null;
  /** For a generation being built: whether a process holds its read model's rebuild claim (false: left by a crash, dropped by the next rebuild). */
  running: boolean;
};

type GenerationRow = {
  name: string;
  generation: number;
  version: number;
  state: "building" | "retired";
  position: string | null;
  events_applied: string;
  started_at: Date;
  updated_at: Date;
  retired_at: Date | null;
  running: boolean;
};

/** The generations that are not live (being built, or retired and not dropped yet), oldest first. */
export async function readGenerations(pool: Pick<pg.Pool, "query">, projections: readonly Projection[]): Promise<GenerationStatus[]> {
  const tablesOf = new Map(projections.map((p) => [p.name, p.tables]));
  const { rows } = await pool.query<GenerationRow>(
    `SELECT g.name, g.generation, g.version, g.state, g.position, g.events_applied, g.started_at, g.updated_at, g.retired_at,
            EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                      AND l.classid = hashtext('projection_rebuild')::oid AND l.objid = hashtext(g.name)::oid) AS running
       FROM projection_generations g WHERE g.name = ANY($1) ORDER BY g.name, g.generation`,
    [projections.map((p) => p.name)],
  );
  return rows.map((r) => ({
    name: r.name,
    generation: r.generation,
    version: r.version,
    state: r.state,
    tables: (tablesOf.get(r.name) ?? []).map((t) => generationTable(t, r.generation)),
    position: r.position ? parsePosition(r.position) : null,
    eventsApplied: Number(r.events_applied),
    startedAt: r.started_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    retiredAt: r.retired_at?.toISOString() ?? null,
    running: r.state === "building" && r.running,
  }));
}

/** Every table named like a generation of `table` (`table__gN`), whatever the bookkeeping says. */
async function generationTablesOf(client: pg.PoolClient, table: string): Promise<string[]> {
  const { rows } = await client.query<{ relname: string }>(
    "SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace AND relname ~ $1 ORDER BY relname",
    [`^${table.replace(/[^a-z0-9_]/g, "")}__g[0-9]+$`],
  );
  return rows.map((r) => r.relname);
}

/**
 * The statements that build `table`'s indexes on `next`: a constraint's (primary key, unique,
 * exclusion) by adding the constraint, any other by its own definition. Names are left to Postgres,
 * as LIKE would; the switch gives them the live names.
 */
async function indexStatements(client: pg.PoolClient, table: string, next: string): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    `SELECT CASE WHEN con.oid IS NOT NULL THEN format('ALTER TABLE %I ADD %s', $2::text, pg_get_constraintdef(con.oid))
                 ELSE regexp_replace(pg_get_indexdef(i.indexrelid), '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ ',
                                 'CREATE \\1INDEX ON ' || quote_ident($2::text) || ' ') END AS statement
       FROM pg_index i LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid AND con.contype IN ('p', 'u', 'x')
      WHERE i.indrelid = $1::regclass ORDER BY i.indexrelid`,
    [ident(table), next],
  );
  return rows.map((r) => r.statement);
}

/**
 * Start a new generation of each read model: drop what earlier rebuilds left (retired generations,
 * or one a crash left half built), then create the new generation's tables LIKE the live ones
 * without indexes and record it as building. Short, and takes no lock the live runners or readers
 * wait for.
 */
export async function startGenerations(pool: pg.Pool, projections: readonly Projection[]): Promise<Building[]> {
  return inTransaction(pool, async (client) => {
    const names = projections.map((p) => p.name);
    const live = new Map(
      (
        await client.query<{ name: string; generation: number }>(
          "SELECT name, generation FROM projection_checkpoints WHERE name = ANY($1)",
          [names],
        )
      ).rows.map((r) => [r.name, r.generation]),
    );
    await client.query("DELETE FROM projection_generations WHERE name = ANY($1)", [names]);
    const building: Building[] = [];
    for (const p of projections) {
      const current = live.get(p.name);
      if (current === undefined) throw new Error(`No checkpoint row for projection ${p.name}`);
      const generation = current + 1;
      const indexes: string[] = [];
      for (const table of p.tables) {
        for (const old of await generationTablesOf(client, table)) await client.query(`DROP TABLE ${ident(old)}`);
        const next = generationTable(table, generation);
        await client.query(`CREATE TABLE ${ident(next)} (LIKE ${ident(table)} INCLUDING ALL EXCLUDING INDEXES)`);
        indexes.push(...(await indexStatements(client, table, next)));
      }
      await client.query("INSERT INTO projection_generations (name, generation, version, state) VALUES ($1, $2, $3, 'building')", [
        p.name,
        generation,
        p.version,
      ]);
      building.push({ projection: p, generation, indexes });
    }
    return building;
  });
}

/**
 * Give a filled generation its indexes (Postgres sorts each index's keys once instead of inserting
 * them row by row) and the planner's statistics, inside the caller's transaction. Until then a
 * generation takes only the bulk writes of fill.ts: the batches of applyToBuilding need its keys.
 * Statistics leave out json columns (no query filters on them, sampling them is most of
 * ANALYZE's time) and, where a read model names its `statistics`, every column it does not
 * name; autovacuum completes them after the switch.
 */
export async function indexGeneration(client: pg.PoolClient, building: Building): Promise<void> {
  for (const statement of building.indexes) await client.query(statement);
  const { statistics } = building.projection;
  for (const table of building.projection.tables) {
    const next = ident(generationTable(table, building.generation));
    const { rows } = await client.query<{ columns: string | null }>(
      "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS columns FROM pg_attribute " +
        "WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND atttypid NOT IN ('json'::regtype, 'jsonb'::regtype) " +
        "AND ($2::text[] IS NULL OR attname = ANY($2))",
      [next, statistics ?? null],
    );
    await client.query(`ANALYZE ${next}${rows[0]?.columns ? ` (${rows[0].columns})` : ""}`);
  }
}

/** Give up generations being built: their tables and rows go, the live ones are untouched. */
export async function abandonGenerations(pool: pg.Pool, building: readonly Building[]): Promise<void> {
  await inTransaction(pool, async (client) => {
    for (const b of building) {
      const { rowCount } = await client.query(
        "DELETE FROM projection_generations WHERE name = $1 AND generation = $2 AND state = 'building'",
        [b.projection.name, b.generation],
      );
      if (!rowCount) continue; // switched or taken over meanwhile: not ours to drop
      for (const table of b.projection.tables) await client.query(`DROP TABLE IF EXISTS ${ident(generationTable(table, b.generation))}`);
    }
  });
}

/**
 * Drop retired generations of these read models, those retired at least `olderThanMs` ago
 * (0: all of them). Returns the tables dropped.
 */
export async function dropRetiredGenerations(pool: pg.Pool, projections: readonly Projection[], olderThanMs = 0): Promise<string[]> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ name: string; generation: number }>(
      "DELETE FROM projection_generations WHERE name = ANY($1) AND state = 'retired' AND retired_at <= now() - " +
        "make_interval(secs => $2) RETURNING name, generation",
      [projections.map((p) => p.name), olderThanMs / 1000],
    );
    const dropped: string[] = [];
    for (const r of rows) {
      for (const table of projections.find((p) => p.name === r.name)?.tables ?? []) {
        const name = generationTable(table, r.generation);
        await client.query(`DROP TABLE IF EXISTS ${ident(name)}`);
        dropped.push(name);
      }
    }
    return dropped;
  });
}

/** Postgres's view of a table's shape: columns in order with type, nullability and default; constraints; indexes without their names. */
async function shapeOf(
  client: pg.PoolClient,
  table: string,
): Promise<{ columns: string[]; constraints: string[]; indexes: { name: string; definition: string }[] }> {
  const regclass = ident(table);
  const columns = await client.query<{ c: string }>(
    `SELECT a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
              || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') AS c
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [regclass],
  );
  const constraints = await client.query<{ c: string }>(
    "SELECT contype::text || ' ' || pg_get_constraintdef(oid) AS c FROM pg_constraint WHERE conrelid = $1::regclass ORDER BY 1",
    [regclass],
  );
  const indexes = await client.query<{ name: string; definition: string }>(
    `SELECT c.relname AS name, regexp_replace(pg_get_indexdef(i.indexrelid), '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ ', 'CREATE \\1INDEX ON ') AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass ORDER BY 2, 1`,
    [regclass],
  );
  return { columns: columns.rows.map((r) => r.c), constraints: constraints.rows.map((r) => r.c), indexes: indexes.rows };
}

/** A migration ran on the live table after the generation was made LIKE it: switching would lose it. */
export class GenerationShapeChanged extends Error {
  constructor(table: string, building: string) {
    super(`the live table ${table} changed shape (a migration ran) while ${building} was built from it: rebuild again`);
    this.name = "GenerationShapeChanged";
  }
}

/**
 * Make the generations being built live, inside the caller's transaction, which already holds the
 * read models' checkpoint rows and has applied the log up to `position` to them. Renames under
 * ACCESS EXCLUSIVE locks: a reader's statement runs wholly before the switch (on the old
 * generation) or wholly after it (on the new one), never on a half-built table.
 */
export async function switchGenerations(client: pg.PoolClient, building: readonly Building[]): Promise<void> {
  const names = building.map((b) => b.projection.name);
  const live = new Map(
    (
      await client.query<{
        name: string;
        generation: number;
        version: number;
        position: string | null;
        events_applied: string;
        updated_at: Date;
      }>("SELECT name, generation, version, position, events_applied, updated_at FROM projection_checkpoints WHERE name = ANY($1)", [names])
    ).rows.map((r) => [r.name, r]),
  );
  const built = new Map(
    (
      await client.query<{ name: string; generation: number; version: number; position: string | null; events_applied: string }>(
        "SELECT name, generation, version, position, events_applied FROM projection_generations WHERE name = ANY($1) AND state = 'building'",
        [names],
      )
    ).rows.map((r) => [r.name, r]),
  );
  const pairs = building.flatMap((b) => b.projection.tables.map((table) => ({ table, next: generationTable(table, b.generation) })));
  // In a fixed order, like every other writer's locks.
  const locked = [...new Set(pairs.flatMap((p) => [p.table, p.next]))].sort();
  await client.query(`LOCK TABLE ${locked.map(ident).join(", ")} IN ACCESS EXCLUSIVE MODE`);

  for (const b of building) {
    const { name } = b.projection;
    const current = live.get(name);
    const next = built.get(name);
    if (!current || !next || next.generation !== b.generation)
      throw new Error(`generation ${b.generation} of ${name} is no longer being built`);
    for (const table of b.projection.tables) {
      const nextTable = generationTable(table, b.generation);
      const was = await shapeOf(client, table);
      const will = await shapeOf(client, nextTable);
      const same =
        JSON.stringify([was.columns, was.constraints, was.indexes.map((i) => i.definition)]) ===
        JSON.stringify([will.columns, will.constraints, will.indexes.map((i) => i.definition)]);
      if (!same) throw new GenerationShapeChanged(table, nextTable);
      // Index names follow the live table, so a migration naming an index finds it; matched by definition.
      for (const index of was.indexes)
        await client.query(`ALTER INDEX ${ident(index.name)} RENAME TO ${ident(retiredIndexName(index.name, current.generation))}`);
      for (const [i, index] of will.indexes.entries())
        await client.query(`ALTER INDEX ${ident(index.name)} RENAME TO ${ident(was.indexes[i]!.name)}`);
      await client.query(`ALTER TABLE ${ident(table)} RENAME TO ${ident(generationTable(table, current.generation))}`);
      await client.query(`ALTER TABLE ${ident(nextTable)} RENAME TO ${ident(table)}`);
    }
    await client.query(
      `INSERT INTO projection_generations (name, generation, version, state, position, events_applied, started_at, updated_at, retired_at)
       VALUES ($1, $2, $3, 'retired', $4, $5, $6, now(), now())`,
      [name, current.generation, current.version, current.position, current.events_applied, current.updated_at],
    );
    await client.query("DELETE FROM projection_generations WHERE name = $1 AND generation = $2", [name, b.generation]);
    await client.query(
      `UPDATE projection_checkpoints SET generation = $2, version = $3, position = $4, events_applied = $5, ` +
        `status = 'live', last_error = NULL, updated_at = now() WHERE name = $1`,
      [name, b.generation, next.version, next.position, next.events_applied],
    );
  }
}

/**
 * Apply a batch to generations being built and move their own checkpoints (in
 * projection_generations), inside the caller's transaction. Live checkpoints are not touched or
 * locked: the live generation keeps being projected meanwhile.
 */
export async function applyToBuilding(
  client: pg.PoolClient,
  building: readonly Building[],
  events: readonly ProjectedEvent[],
): Promise<number> {
  const { rows } = await client.query<{ name: string; generation: number; position: string | null }>(
    "SELECT name, generation, position FROM projection_generations WHERE name = ANY($1) AND state = 'building' ORDER BY name FOR UPDATE",
    [building.map((b) => b.projection.name)],
  );
  const moved: { name: string; generation: number; position: string; events: number }[] = [];
  for (const b of building) {
    const row = rows.find((r) => r.name === b.projection.name && r.generation === b.generation);
    if (!row) throw new Error(`generation ${b.generation} of ${b.projection.name} is no longer being built`);
    const after = row.position ? parsePosition(row.position) : null;
    const todo = after ? events.filter((e) => comparePositions(e.stored.position, after) > 0) : events;
    if (todo.length === 0) continue;
    await applyToReadModel(client, b.projection, todo, generationTable(b.projection.table, b.generation));
    const position = todo.reduce<LogPosition | null>((reached, e) => laterPosition(reached, e.stored.position), after);
    moved.push({ name: b.projection.name, generation: b.generation, position: formatPosition(position!), events: todo.length });
  }
  if (moved.length) {
    await client.query(
      `UPDATE projection_generations g SET position = m.position, events_applied = g.events_applied + m.events, updated_at = now()
       FROM unnest($1::text[], $2::int[], $3::text[], $4::bigint[]) AS m(name, generation, position, events)
      WHERE g.name = m.name AND g.generation = m.generation`,
      [moved.map((m) => m.name), moved.map((m) => m.generation), moved.map((m) => m.position), moved.map((m) => m.events)],
    );
  }
  return moved.reduce((n, m) => n + m.events, 0);
}
