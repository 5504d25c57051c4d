import type pg from "pg";
import { ERASED_TEXT } from "@booking/contracts";
import type { ErasedPerson, ProjectedEvent, Projection, ReadModelRow } from "./projection.ts";

// Erasure in the read models (issue 33.2). A UserErased event is on the person's own stream, but their words are in
// rows of other streams too: a booking's prep answers, a message, a review, a schedule's time off. Each read model that
// holds such rows declares an `erasure` (projection.ts): which rows may hold the person's data, and what they read as
// with the person erased. Every path that applies events runs it after writing the rows of the batch that holds the
// event: the live runners' batch (apply.ts), a rebuild's batches (applyToReadModel) and a rebuild's in-memory fill,
// which runs it on each filled table before indexing (fill.ts).
//
// Running it once the batch's rows are written, rather than at the event's place among them, gives the same rows: the
// person's later events cannot carry their words (their data key is gone, so anything written about them after the
// erasure is stored as the erased marker), and the rewrite is idempotent, so a redelivered UserErased changes nothing.

type Queryable = Pick<pg.PoolClient, "query">;

/** The people the events erase, in order. */
export function erasedIn(events: readonly ProjectedEvent[]): ErasedPerson[] {
  return events.flatMap(({ event }) =>
    event.type === "UserErased" ? [{ userId: event.data.userId, expertIds: event.data.expertIds }] : [],
  );
}

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(", ");

/**
 * Rewrite the rows of `table` (the read model's live generation, or one being built) that hold each person's data, as
 * the read model's erasure says. The rows are read as JSON and written back whole through the table's own row type, as
 * the runners write them.
 */
export async function eraseFrom(
  client: Queryable,
  projection: Projection,
  table: string,
  people: readonly ErasedPerson[],
): Promise<number> {
  const erasure = projection.erasure;
  if (!erasure) return 0;
  let written = 0;
  for (const person of people) {
    const { rows } = await client.query<{ row: ReadModelRow }>(
      `WITH p AS (SELECT $1::text AS user_id, $2::text[] AS expert_ids)
       SELECT to_jsonb(t) AS row FROM "${table}" t, p WHERE ${erasure.rowsOf(table)}`,
      [person.userId, person.expertIds],
    );
    const before = rows.map((r) => r.row);
    const after = erasure.erase(before, person);
    if (after.length !== before.length) throw new Error(`read model ${projection.name}: an erasure must give back every row it is given`);
    const changed = after.filter((row, i) => JSON.stringify(row) !== JSON.stringify(before[i]));
    if (changed.length === 0) continue;
    const { columns, key } = projection;
    const rest = columns.filter((c) => !key.includes(c));
    await client.query(
      `UPDATE "${table}" AS t SET (${quoted(rest)}) = ROW(${rest.map((c) => `r."${c}"`).join(", ")})
       FROM jsonb_populate_recordset(NULL::"${table}", $1::jsonb) AS r WHERE ${key.map((c) => `t."${c}" = r."${c}"`).join(" AND ")}`,
      [JSON.stringify(changed)],
    );
    written += changed.length;
  }
  return written;
}

// What the erasures rewrite a field to: the markers the log reads as once the data key is gone (contracts'
// personal-data). An empty text says nothing and stays empty, as the envelope never seals one.

/** A text the person wrote (or a link they gave, with ERASED_LINK), erased; null and "" stay as they are. */
export function erased<T extends string | null>(value: T, marker: string = ERASED_TEXT): T {
  return (value === null || value === "" ? value : marker) as T;
}

/** Every string of a list of texts erased (null: no list). */
export function erasedList<T extends readonly unknown[] | null>(values: T): T {
  return (values === null ? values : values.map((v) => (typeof v === "string" ? erased(v) : v))) as T;
}
