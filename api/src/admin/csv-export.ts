import { Readable } from "node:stream";
import { csvLine } from "@booking/contracts";
import type { FastifyReply } from "fastify";
import type pg from "pg";
import type { SqlWhere } from "./list-query.ts";

// A list resource as a CSV download: every row matching the list's filters, in the list's order.
// Its cells follow contracts' csvField, as the console's Export buttons do: quoted, formulas defused.

const CSV_PAGE = 1000;

export type CsvQuery<Row extends pg.QueryResultRow> = {
  header: readonly string[];
  /** SELECT list, FROM clause and ORDER BY: constant SQL; the filters' values travel in `where`. */
  select: string;
  from: string;
  where: SqlWhere;
  orderBy: string;
  /** A row's fields, in the header's order. */
  fields: (row: Row) => readonly (string | null)[];
};

/** The file, page by page inside one read-only snapshot: a consistent file however long it is. */
async function* csvLines<Row extends pg.QueryResultRow>(db: pg.Pool, q: CsvQuery<Row>): AsyncGenerator<string> {
  const client = await db.connect();
  let open = false;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    open = true;
    yield csvLine(q.header);
    const n = q.where.values.length;
    for (let offset = 0; ; offset += CSV_PAGE) {
      const { rows } = await client.query<Row>(
        `SELECT ${q.select} FROM ${q.from} ${q.where.sql} ORDER BY ${q.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...q.where.values, CSV_PAGE, offset],
      );
      if (rows.length) yield rows.map((r) => csvLine(q.fields(r))).join("");
      if (rows.length < CSV_PAGE) break;
    }
    await client.query("COMMIT");
    open = false;
  } finally {
    // Also reached when the download is abandoned: end the snapshot before the connection goes back.
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    client.release();
  }
}

/** Answer with the CSV as an attachment named `filename`. */
export function sendCsv<Row extends pg.QueryResultRow>(reply: FastifyReply, db: pg.Pool, filename: string, q: CsvQuery<Row>): FastifyReply {
  return reply
    .type("text/csv; charset=utf-8")
    .header("Content-Disposition", `attachment; filename="${filename}"`)
    .send(Readable.from(csvLines(db, q)));
}
