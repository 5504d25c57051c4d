import { z } from "zod";
import { LoggedEventRecord, formatPosition, type EventMetadata, type StoredEvent } from "@booking/contracts";
import { PostgresEventStore, openStoredEvents, storedLogOf, type EventStore } from "@booking/event-store";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import {
  IdText,
  ListQueryString,
  Moment,
  RecordIdParams,
  SqlWhere,
  addTimeRange,
  likeLiteral,
  oneOrMany,
  orderBy,
  parseListQuery,
  selectPage,
  sendList,
  type ListRequest,
  type ListSpec,
} from "./list-query.ts";

// The global event log, raw (as stored: schema version and data not upcast), id = event_id, its personal fields opened
// as every reader of the log sees them (issue 33.1: an erased person's as their markers; the table holds envelopes).
// With the Postgres store it is queried in the store's own database (its `events` table, whatever
// database the read models live in); any other store is paged through `readAll`, in log order only.

const EventFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    /** Stream id prefix: `calendar-` for every calendar, `calendar-{expertId}` for one. */
    stream_id: z.string().min(1).max(200).optional(),
    type: oneOrMany(z.string().min(1).max(100)).optional(),
    /** Recorded time. */
    from: Moment.optional(),
    to: Moment.optional(),
  })
  .strict();
type EventFilter = z.output<typeof EventFilter>;

const spec: ListSpec<typeof EventFilter> = {
  resource: "events",
  sortable: {
    position: ["e.transaction_id", "e.global_position"],
    recorded_at: "e.recorded_at",
    stream_id: ["e.stream_id", "e.version"],
    type: "e.type",
    id: "e.event_id",
  },
  defaultSort: ["position", "DESC"],
  uniqueKey: "e.global_position",
  filter: EventFilter,
};

// Two sources, one record (contracts' LoggedEventRecord): a stored event read through the port, and a row of the Postgres table.

const fromStored = (e: StoredEvent): LoggedEventRecord => ({
  id: e.eventId,
  stream_id: e.streamId,
  version: e.version,
  type: e.type,
  schema_version: e.schemaVersion,
  position: formatPosition(e.position),
  recorded_at: e.recordedAt,
  data: e.data as LoggedEventRecord["data"],
  metadata: e.metadata,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Postgres: the `events` table. `commit_id`, not `transaction_id`: ORDER BY would bind that name to the text alias.
const COLUMNS =
  "e.event_id::text AS event_id, e.stream_id, e.version, e.type, e.schema_version, e.data, e.metadata, " +
  "e.recorded_at, e.transaction_id::text AS commit_id, e.global_position";

type EventRow = {
  event_id: string;
  stream_id: string;
  version: string;
  type: string;
  schema_version: number;
  data: LoggedEventRecord["data"];
  metadata: EventMetadata;
  recorded_at: Date;
  commit_id: string;
  global_position: string;
};

const fromRow = (r: EventRow): LoggedEventRecord => ({
  id: r.event_id,
  stream_id: r.stream_id,
  version: Number(r.version),
  type: r.type,
  schema_version: r.schema_version,
  position: `${r.commit_id}:${r.global_position}`,
  recorded_at: r.recorded_at.toISOString(),
  data: r.data,
  metadata: r.metadata,
});

function eventWhere(f: EventFilter): SqlWhere {
  const w = new SqlWhere();
  // event_id is a uuid column: other ids cannot match (and must not reach a uuid cast).
  if (f.id) w.add(`e.event_id = ANY(${w.param(f.id.filter((id) => UUID.test(id)))}::uuid[])`);
  if (f.stream_id) w.add(`e.stream_id LIKE ${w.param(`${likeLiteral(f.stream_id)}%`)}`);
  if (f.type) w.add(`e.type = ANY(${w.param(f.type)})`);
  addTimeRange(w, "e.recorded_at", f.from, f.to);
  return w;
}

// Any other store: one pass over the log, keeping only the requested page.

const SCAN_BATCH = 1000;

function matches(f: EventFilter, e: StoredEvent): boolean {
  if (f.id && !f.id.includes(e.eventId)) return false;
  if (f.stream_id && !e.streamId.startsWith(f.stream_id)) return false;
  if (f.type && !f.type.includes(e.type)) return false;
  const recorded = Date.parse(e.recordedAt);
  if (f.from !== undefined && recorded < Date.parse(f.from)) return false;
  if (f.to !== undefined && recorded >= (/^\d{4}-\d{2}-\d{2}$/.test(f.to) ? Date.parse(f.to) + 24 * 3600_000 : Date.parse(f.to)))
    return false;
  return true;
}

async function scanLog(store: EventStore, list: ListRequest<EventFilter>): Promise<{ records: LoggedEventRecord[]; total: number }> {
  if (list.sort.field !== "position") refuse("invalid_request");
  const newestFirst = list.sort.order === "DESC";
  const keep = list.offset + list.limit;
  let kept: StoredEvent[] = [];
  let total = 0;
  for (let after = null as StoredEvent["position"] | null; ;) {
    const batch = await store.readAll(after, SCAN_BATCH);
    for (const e of batch) {
      if (!matches(list.filter, e)) continue;
      total++;
      if (newestFirst) {
        // The page is among the last `keep` matches: keep the tail, trimmed now and then.
        kept.push(e);
        if (kept.length > 2 * keep + SCAN_BATCH) kept = kept.slice(-keep);
      } else if (total > list.offset && total <= keep) kept.push(e);
    }
    if (batch.length < SCAN_BATCH) break;
    after = batch[batch.length - 1]!.position;
  }
  const page = newestFirst ? kept.slice(-keep).reverse().slice(list.offset, keep) : kept;
  return { records: page.map(fromStored), total };
}

export type EventsAdminDeps = { store: EventStore };

export const eventsAdmin: RoutePlugin<EventsAdminDeps> = async (app, { store }) => {
  app.get(
    "/events",
    { schema: { querystring: ListQueryString, response: { 200: z.array(LoggedEventRecord) } } },
    async (request, reply) => {
      const list = parseListQuery(spec, request.query);
      const stored = storedLogOf(store);
      if (stored instanceof PostgresEventStore) {
        const where = eventWhere(list.filter);
        const { rows, total } = await selectPage<EventRow>(stored.pool, {
          select: COLUMNS,
          from: "events e",
          where,
          orderBy: orderBy(spec, list.sort),
          offset: list.offset,
          limit: list.limit,
        });
        return [...sendList(reply, spec.resource, list.offset, await openStoredEvents(store, rows.map(fromRow)), total)];
      }
      const { records, total } = await scanLog(store, list);
      return [...sendList(reply, spec.resource, list.offset, records, total)];
    },
  );

  app.get("/events/:id", { schema: { params: RecordIdParams, response: { 200: LoggedEventRecord } } }, async (request) => {
    const id = request.params.id;
    if (!UUID.test(id)) refuse("not_found");
    const stored = storedLogOf(store);
    if (stored instanceof PostgresEventStore) {
      const { rows } = await stored.pool.query<EventRow>(`SELECT ${COLUMNS} FROM events e WHERE e.event_id = $1`, [id]);
      if (!rows[0]) refuse("not_found");
      const [record] = await openStoredEvents(store, [fromRow(rows[0])]);
      return record!;
    }
    const { records } = await scanLog(store, { sort: { field: "position", order: "ASC" }, offset: 0, limit: 1, filter: { id: [id] } });
    if (!records[0]) refuse("not_found");
    return records[0];
  });
};
