import type pg from "pg";
import { z } from "zod";
import { AdminBookingEventReply } from "@booking/contracts";
import { adminBookingEventReply, bookingEventListSort, bookingEventSelectList, findAdminBookingEvent } from "@booking/projections";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import {
  addTimeRange,
  IdText,
  listPage,
  ListQueryString,
  type ListSpec,
  Moment,
  oneOrMany,
  RecordIdParams,
  SqlWhere,
} from "./list-query.ts";

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
  sortable: bookingEventListSort,
  defaultSort: ["occurred_at", "DESC"],
  uniqueKey: "e.event_id",
  filter: BookingEventFilter,
};

function bookingEventWhere(f: z.output<typeof BookingEventFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`e.event_id = ANY(${w.param(f.id)})`);
  if (f.booking_id) w.add(`e.booking_id = ANY(${w.param(f.booking_id)})`);
  if (f.expert_id) w.add(`e.expert_id = ${w.param(f.expert_id)}`);
  if (f.type) w.add(`e.type = ANY(${w.param(f.type)})`);
  addTimeRange(w, "e.occurred_at", f.occurred_from, f.occurred_to);
  return w;
}

export type BookingEventsAdminDeps = { db: pg.Pool };

export const bookingEventsAdmin: RoutePlugin<BookingEventsAdminDeps> = async (app, { db }) => {
  app.get(
    "/booking-events",
    { schema: { querystring: ListQueryString, response: { 200: z.array(AdminBookingEventReply) } } },
    async (request, reply) =>
      listPage(
        reply,
        db,
        spec,
        request.query,
        { select: bookingEventSelectList, from: "booking_events e", where: bookingEventWhere },
        adminBookingEventReply,
      ),
  );

  app.get("/booking-events/:id", { schema: { params: RecordIdParams, response: { 200: AdminBookingEventReply } } }, async (request) => {
    const event = await findAdminBookingEvent(db, request.params.id);
    if (!event) refuse("not_found");
    return event;
  });
};
