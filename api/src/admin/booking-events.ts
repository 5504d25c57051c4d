import { z } from "zod";
import { refuse } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { IdText, ListQueryString, Moment, RecordIdParams, SqlWhere, addTimeRange, oneOrMany, orderBy, parseListQuery, selectPage, sendList, type ListSpec } from "./list-query.ts";

// Booking events, from the `booking_events` read model (id = event_id): every booking's history
// as a flat, filterable list.

const BookingEventFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    booking_id: oneOrMany(IdText).optional(),
    expert_id: IdText.optional(),
    type: oneOrMany(z.string().min(1).max(100)).optional(),
    occurred_from: Moment.optional(),
    occurred_to: Moment.optional(),
  })
  .strict();

const spec: ListSpec<typeof BookingEventFilter> = {
  resource: "booking-events",
  // Within a calendar stream the version orders events exactly; time alone may tie.
  sortable: {
    id: "e.event_id",
    occurred_at: ["e.occurred_at", "e.expert_id", "e.stream_version"],
    stream_version: ["e.expert_id", "e.stream_version"],
    booking_id: ["e.booking_id", "e.stream_version"],
    type: "e.type",
  },
  defaultSort: ["occurred_at", "DESC"],
  uniqueKey: "e.event_id",
  filter: BookingEventFilter,
};

const COLUMNS = "e.event_id, e.booking_id, e.expert_id, e.stream_version, e.type, e.data, e.actor, e.occurred_at, e.position";

type BookingEventRow = { event_id: string; booking_id: string; expert_id: string; stream_version: string; type: string; data: unknown; actor: unknown; occurred_at: Date; position: string };

const toRecord = (r: BookingEventRow) => ({
  id: r.event_id,
  event_id: r.event_id,
  booking_id: r.booking_id,
  expert_id: r.expert_id,
  stream_version: Number(r.stream_version),
  type: r.type,
  data: r.data,
  actor: r.actor,
  occurred_at: r.occurred_at.toISOString(),
  position: r.position,
});

function bookingEventWhere(f: z.output<typeof BookingEventFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`e.event_id = ANY(${w.param(f.id)})`);
  if (f.booking_id) w.add(`e.booking_id = ANY(${w.param(f.booking_id)})`);
  if (f.expert_id) w.add(`e.expert_id = ${w.param(f.expert_id)}`);
  if (f.type) w.add(`e.type = ANY(${w.param(f.type)})`);
  addTimeRange(w, "e.occurred_at", f.occurred_from, f.occurred_to);
  return w;
}

export const bookingEventsAdmin: RoutePlugin = async (app, ctx) => {
  app.get("/booking-events", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = bookingEventWhere(list.filter);
    const { rows, total } = await selectPage<BookingEventRow>(ctx.db, { select: COLUMNS, from: "booking_events e", where, orderBy: orderBy(spec, list.sort), offset: list.offset, limit: list.limit });
    return sendList(reply, spec.resource, list.offset, rows.map(toRecord), total);
  });

  app.get("/booking-events/:id", { schema: { params: RecordIdParams } }, async (request) => {
    const { rows } = await ctx.db.query<BookingEventRow>(`SELECT ${COLUMNS} FROM booking_events e WHERE e.event_id = $1`, [request.params.id]);
    if (!rows[0]) refuse("not_found");
    return toRecord(rows[0]);
  });
};
