import type pg from "pg";
import type { ReadModelRow } from "./projection.ts";

// Rows written with COPY ... FROM STDIN, the bulk path of a rebuild (fill.ts): Postgres parses
// COPY's text format several times faster than it turns a JSON array into rows. node-postgres
// takes any object with `submit(connection)` as a query and hands it the protocol's messages, so
// no COPY library is needed.

/** How a value of a column is written in COPY's text format (before escaping), by the column's Postgres type. */
type Encode = (value: unknown) => string;

/** COPY's text format: backslash, tab and line breaks escaped (null is written as \N apart). */
const escaped = (text: string): string =>
  /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"))
    : text;

/** A scalar as Postgres's input functions read it; an object becomes its JSON text, as jsonb_populate_recordset makes it. */
const scalar: Encode = (value) =>
  typeof value === "string"
    ? value
    : value instanceof Date
      ? value.toISOString()
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);

/** An array literal: `{"a","b\"c",NULL}`. */
const arrayLiteral: Encode = (value) => {
  if (!Array.isArray(value)) throw new Error(`an array column was given ${JSON.stringify(value)}`);
  return `{${value.map((v) => (v === null || v === undefined ? "NULL" : `"${scalar(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(",")}}`;
};

function encoderFor(type: string): Encode {
  if (type.endsWith("[]")) return arrayLiteral;
  if (type === "json" || type === "jsonb") return (value) => JSON.stringify(value);
  return scalar;
}

/** A table's columns and their Postgres types (format_type), in the order given. */
export type CopyTarget = { table: string; columns: readonly string[]; types: readonly string[] };

/** The Postgres types of `columns` of `table`, for encoding its rows. */
export async function copyTarget(db: pg.Pool | pg.PoolClient, table: string, columns: readonly string[]): Promise<CopyTarget> {
  const { rows } = await db.query<{ attname: string; type: string }>(
    "SELECT attname, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped",
    [`"${table.replaceAll('"', '""')}"`],
  );
  const typeOf = new Map(rows.map((r) => [r.attname, r.type]));
  return {
    table,
    columns,
    types: columns.map((c) => {
      const type = typeOf.get(c);
      if (!type) throw new Error(`${table} has no column ${c}`);
      return type;
    }),
  };
}

/** Rows in COPY's text format, cut into chunks of about 64 KB. */
function encodeRows(target: CopyTarget, rows: readonly ReadModelRow[]): Buffer[] {
  const encoders = target.types.map(encoderFor);
  const { columns } = target;
  const chunks: Buffer[] = [];
  let text = "";
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) {
      const value = row[columns[i]!];
      if (i > 0) text += "\t";
      text += value === null || value === undefined ? "\\N" : escaped(encoders[i]!(value));
    }
    text += "\n";
    if (text.length >= 64 * 1024) {
      chunks.push(Buffer.from(text));
      text = "";
    }
  }
  if (text) chunks.push(Buffer.from(text));
  return chunks;
}

type CopyConnection = { query: (text: string) => void; sendCopyFromChunk: (chunk: Buffer) => void; endCopyFrom: () => void };

/** One COPY statement as a node-postgres submittable: sends its chunks when the server asks for data. */
class CopyIn {
  callback?: (error: Error | null, rows: number) => void;
  private copied = 0;

  constructor(
    private readonly statement: string,
    private readonly chunks: readonly Buffer[],
  ) {}

  submit(connection: CopyConnection): void {
    connection.query(this.statement);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    for (const chunk of this.chunks) connection.sendCopyFromChunk(chunk);
    connection.endCopyFrom();
  }

  handleCommandComplete(message: { text?: string }): void {
    this.copied = Number(/^COPY (\d+)/.exec(message.text ?? "")?.[1] ?? 0);
  }

  // node-postgres ends a query at its error (ReadyForQuery then goes to no query), else at ReadyForQuery.
  handleError(error: Error): void {
    this.finish(error);
  }

  handleReadyForQuery(): void {
    this.finish(null);
  }

  private finish(error: Error | null): void {
    const done = this.callback;
    this.callback = undefined;
    done?.(error, this.copied);
  }
}

/** `COPY <into> FROM STDIN` of chunks already in COPY's text format; resolves with the rows copied. */
export function copyIn(client: pg.PoolClient | pg.Client, into: string, chunks: readonly Buffer[]): Promise<number> {
  const copy = new CopyIn(`COPY ${into} FROM STDIN`, chunks);
  return new Promise((resolve, reject) => {
    copy.callback = (error, copied) => (error ? reject(error) : resolve(copied));
    (client as unknown as { query: (submittable: CopyIn) => void }).query(copy);
  });
}

/**
 * Write `rows` into `target.table` with one COPY, inside the caller's transaction (if any).
 * Columns not listed get their defaults, as with an INSERT naming the same columns. Resolves with
 * the number of rows copied.
 */
export function copyRows(client: pg.PoolClient, target: CopyTarget, rows: readonly ReadModelRow[]): Promise<number> {
  if (rows.length === 0) return Promise.resolve(0);
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return copyIn(client, `${quoted(target.table)} (${target.columns.map(quoted).join(", ")})`, encodeRows(target, rows));
}
