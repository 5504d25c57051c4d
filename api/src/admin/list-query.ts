import type { FastifyReply } from "fastify";
import type pg from "pg";
import { z } from "zod";
import { holdsUnstorableText } from "@booking/contracts";
import { refuse } from "../http/index.ts";

// The ra-data-simple-rest list contract, shared by every admin resource:
//   GET /admin/{resource}?sort=["field","ASC"]&range=[0,24]&filter={"status":"pending"}
//   → a JSON array of records (each with `id`) and `Content-Range: {resource} 0-24/319`.
// The three parameters are JSON; each is parsed with zod, strictly. Sort fields are whitelisted
// per resource and map to constant SQL; filter values only ever travel as query parameters.

/** The most rows one list request returns, whatever range it asks for. */
export const MAX_LIST_ROWS = 1000;

/** The query string as it arrives: the three JSON-encoded parameters, nothing else. */
export const ListQueryString = z
  .object({
    sort: z.string().max(500).optional(),
    range: z.string().max(100).optional(),
    filter: z.string().max(20_000).optional(),
  })
  .strict();
export type ListQueryString = z.infer<typeof ListQueryString>;

export const RecordIdParams = z.object({ id: z.string().min(1).max(300) }).strict();

export type SortOrder = "ASC" | "DESC";

/** How one resource may be listed. */
export type ListSpec<Filter extends z.ZodType> = {
  /** The resource name, as in the URL and the Content-Range header. */
  resource: string;
  /** Sortable record fields → SQL expressions (constants; one or more columns). */
  sortable: Readonly<Record<string, string | readonly string[]>>;
  defaultSort: readonly [field: string, order: SortOrder];
  /** A unique key appended to every ORDER BY, so pages never overlap or skip. */
  uniqueKey: string;
  /** The resource's filters; unknown ones are refused. */
  filter: Filter;
};

export type ListRequest<Filter> = { sort: { field: string; order: SortOrder }; offset: number; limit: number; filter: Filter };

const Sort = z.tuple([z.string().min(1).max(100), z.enum(["ASC", "DESC"])]);
/** `range=[first,last]`, both inclusive. */
export const ListRange = z
  .tuple([z.number().int().nonnegative().max(1_000_000_000), z.number().int().nonnegative().max(1_000_000_000)])
  .refine(([start, end]) => end >= start);

/** A JSON query parameter: malformed JSON is the client's mistake (400), never a crash. */
export function parseJsonParam<S extends z.ZodType>(text: string | undefined, schema: S): z.output<S> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    refuse("invalid_request");
  }
  // The JSON inside the parameter is input too: the boundary's text rule applies to it as well.
  if (holdsUnstorableText(value)) refuse("invalid_request");
  const parsed = schema.safeParse(value);
  if (!parsed.success) refuse("invalid_request");
  return parsed.data;
}

export function parseListQuery<Filter extends z.ZodType>(spec: ListSpec<Filter>, query: ListQueryString): ListRequest<z.output<Filter>> {
  const [field, order] = parseJsonParam(query.sort, Sort) ?? spec.defaultSort;
  if (!Object.hasOwn(spec.sortable, field)) refuse("invalid_request");
  // No range (react-admin's getMany): the first page of the cap.
  const [start, end] = parseJsonParam(query.range, ListRange) ?? [0, MAX_LIST_ROWS - 1];
  const filter: z.output<Filter> = parseJsonParam(query.filter, spec.filter) ?? spec.filter.parse({});
  return { sort: { field, order }, offset: start, limit: Math.min(end - start + 1, MAX_LIST_ROWS), filter };
}

/** ORDER BY for a parsed sort: whitelisted expressions only, then the unique key for stable pages. */
export function orderBy<Filter extends z.ZodType>(spec: ListSpec<Filter>, sort: { field: string; order: SortOrder }): string {
  const columns = spec.sortable[sort.field];
  if (columns === undefined) refuse("invalid_request");
  const list = typeof columns === "string" ? [columns] : columns;
  return [...list, spec.uniqueKey].map((c) => `${c} ${sort.order}`).join(", ");
}

/** Answer a list: the records, `Content-Range` with the total, and the header exposed to browsers. */
export function sendList<T>(reply: FastifyReply, resource: string, offset: number, records: readonly T[], total: number): readonly T[] {
  const range = records.length ? `${offset}-${offset + records.length - 1}` : "*";
  void reply.header("Content-Range", `${resource} ${range}/${total}`).header("Access-Control-Expose-Headers", "Content-Range");
  return records;
}

/** WHERE clauses with their values as numbered parameters: user input never becomes SQL text. */
export class SqlWhere {
  readonly values: unknown[] = [];
  private readonly clauses: string[] = [];

  /** Bind a value; returns its placeholder (`$n`). */
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  add(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  get sql(): string {
    return this.clauses.length ? `WHERE ${this.clauses.join(" AND ")}` : "";
  }
}

/** One page of rows and the total that matches, for a FROM clause, filters and ORDER BY that are all constant SQL. */
export async function selectPage<Row extends pg.QueryResultRow>(
  db: pg.Pool,
  query: { select: string; from: string; where: SqlWhere; orderBy: string; offset: number; limit: number },
): Promise<{ rows: Row[]; total: number }> {
  const { select, from, where, offset, limit } = query;
  const count = db.query<{ total: string }>(`SELECT count(*) AS total FROM ${from} ${where.sql}`, where.values);
  const n = where.values.length;
  const page = db.query<Row>(`SELECT ${select} FROM ${from} ${where.sql} ORDER BY ${query.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`, [
    ...where.values,
    limit,
    offset,
  ]);
  const [counted, rows] = await Promise.all([count, page]);
  return { rows: rows.rows, total: Number(counted.rows[0]!.total) };
}

/** Where a list's rows come from: constant SQL, and the filter's WHERE. */
export type ListSource<Filter> = { select: string; from: string; where: (filter: Filter) => SqlWhere };

/** A list route's answer from SQL: the page react-admin asked for, each row as its record, with `Content-Range`. */
export async function listPage<Filter extends z.ZodType, Row extends pg.QueryResultRow, T>(
  reply: FastifyReply,
  db: pg.Pool,
  spec: ListSpec<Filter>,
  query: ListQueryString,
  source: ListSource<z.output<Filter>>,
  toRecord: (row: Row) => T,
): Promise<T[]> {
  const list = parseListQuery(spec, query);
  const { rows, total } = await selectPage<Row>(db, {
    select: source.select,
    from: source.from,
    where: source.where(list.filter),
    orderBy: orderBy(spec, list.sort),
    offset: list.offset,
    limit: list.limit,
  });
  return [...sendList(reply, spec.resource, list.offset, rows.map(toRecord), total)];
}

// Filter building blocks.

/** A record id or several (react-admin's getMany sends `{"id": [...]}`). */
export const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.union([item, z.array(item).min(1).max(MAX_LIST_ROWS)]).transform((v): z.output<T>[] => (Array.isArray(v) ? v : [v]));

export const IdText = z.string().min(1).max(300);
export const SearchText = z.string().trim().max(200);

/** A boolean filter; select inputs send "true"/"false". */
export const Flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A date that exists (JavaScript reads 2026-02-30 as 2 March) in a year Postgres can hold and a
 * person means: 0001 to 9999 (year 0000 parses in JavaScript and fails in Postgres).
 */
function isRealDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // Date.UTC would read years 0 to 99 as 1900 to 1999
  const instant = new Date(text); // an offset can move 0001-01-01 back into year 0
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    instant.getUTCFullYear() >= 1
  );
}

/** An ISO date (`2026-03-04`, a whole UTC day) or date-time with an offset. */
export const Moment = z
  .string()
  .max(40)
  .refine((s) => (ISO_DATE.test(s) || ISO_DATE_TIME.test(s)) && !Number.isNaN(Date.parse(s)) && isRealDate(s));

/**
 * `from` is inclusive; `to` is inclusive of a whole day when it is a date, else exclusive: a
 * filter to 2026-03-04 means "up to the end of that day", the way people read it.
 */
export function addTimeRange(where: SqlWhere, column: string, from: string | undefined, to: string | undefined): void {
  if (from !== undefined) where.add(`${column} >= ${where.param(new Date(from).toISOString())}`);
  if (to !== undefined) {
    const end = ISO_DATE.test(to) ? new Date(Date.parse(to) + 24 * 3600_000) : new Date(to);
    where.add(`${column} < ${where.param(end.toISOString())}`);
  }
}

/** `text` for a LIKE pattern, its own wildcards taken literally. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** An ILIKE pattern matching `text` anywhere. */
export const containsPattern = (text: string): string => `%${likeLiteral(text)}%`;

export const isoTime = (t: Date | null): string | null => (t ? t.toISOString() : null);
