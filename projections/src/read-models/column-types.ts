// What pg's reply needs to reach a Row's JSON shape: each read model declares its columns'
// Postgres types once, checked against its Row by `satisfies`, and gets its column list and its
// pg→Row conversion from that map.

/** How Postgres stores a column. */
export type ColumnType = "text" | "text[]" | "int" | "bigint" | "boolean" | "timestamptz" | "json" | "jsonb";

function fromPg(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === "bigint") return Number(value); // cents and versions stay far below 2^53
  if (type === "timestamptz") return value instanceof Date ? value.toISOString() : value;
  return value;
}

/** The columns of a read model, in its map's order. */
export const columnsOf = <Row>(types: Readonly<Record<keyof Row & string, ColumnType>>) => Object.keys(types) as (keyof Row & string)[];

/** A row as pg returns it (bigints as strings, timestamps as Dates), in the Row's JSON shape: numbers and ISO strings. */
export function rowFromPg<Row>(types: Readonly<Record<keyof Row & string, ColumnType>>, raw: Record<string, unknown>): Row {
  const row: Record<string, unknown> = {};
  for (const column of columnsOf<Row>(types)) row[column] = fromPg(types[column], raw[column]);
  return row as Row;
}
