import type pg from "pg";
import { z } from "zod";
import {
  AdminBookingReply,
  AdminBookingShowReply,
  BookingStatus,
  PaymentState,
  formatPosition,
  readDomainEvent,
  type DomainEvent,
  type StoredEvent,
  type TimelineEntry,
} from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { EventStore } from "@booking/event-store";
import { bookingFromPg, bookingListSort, bookingSelectList, findBooking } from "@booking/projections";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import {
  addTimeRange,
  containsPattern,
  Flag,
  IdText,
  listPage,
  ListQueryString,
  type ListSpec,
  Moment,
  oneOrMany,
  RecordIdParams,
  SearchText,
  SqlWhere,
} from "./list-query.ts";

// Bookings, from the `bookings` read model (id = booking_id). One booking also shows its
// timeline, read from the event store itself: the audit trail, not a projection of it.

const BookingFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    status: oneOrMany(BookingStatus).optional(),
    expert_id: IdText.optional(),
    expert_user_id: IdText.optional(),
    creator_id: IdText.optional(),
    session_id: IdText.optional(),
    payment_state: oneOrMany(PaymentState).optional(),
    /** paid=true: the creator's money was received (any payment_state but unpaid: some may have gone back since); false: unpaid. */
    paid: Flag.optional(),
    scheduled_from: Moment.optional(),
    scheduled_to: Moment.optional(),
    /** Matches the session title (contains) or any of the booking's ids (exactly). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof BookingFilter> = {
  resource: "bookings",
  sortable: bookingListSort,
  defaultSort: ["scheduled_time", "DESC"],
  uniqueKey: "b.booking_id",
  filter: BookingFilter,
};

/** A row as the console gets it: the read model's own, keyed by `id` for react-admin. */
const toRecord = (raw: Record<string, unknown>): AdminBookingReply => {
  const row = bookingFromPg(raw);
  return { id: row.booking_id, ...row };
};

function bookingWhere(f: z.output<typeof BookingFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`b.booking_id = ANY(${w.param(f.id)})`);
  if (f.status) w.add(`b.status = ANY(${w.param(f.status)})`);
  if (f.expert_id) w.add(`b.expert_id = ${w.param(f.expert_id)}`);
  if (f.expert_user_id) w.add(`b.expert_user_id = ${w.param(f.expert_user_id)}`);
  if (f.creator_id) w.add(`b.creator_id = ${w.param(f.creator_id)}`);
  if (f.session_id) w.add(`b.session_id = ${w.param(f.session_id)}`);
  if (f.payment_state) w.add(`b.payment_state = ANY(${w.param(f.payment_state)})`);
  if (f.paid !== undefined) w.add(f.paid ? "b.payment_state <> 'unpaid'" : "b.payment_state = 'unpaid'");
  addTimeRange(w, "b.scheduled_time", f.scheduled_from, f.scheduled_to);
  if (f.q) {
    const q = w.param(f.q);
    w.add(
      `(b.session_title ILIKE ${w.param(containsPattern(f.q))} OR ${q} IN (b.booking_id, b.expert_id, b.creator_id, b.session_id, b.expert_user_id))`,
    );
  }
  return w;
}

/** One event of a booking's history as the console shows it (the stored event, upcast to the current schema). */
export const timelineEntry = (stored: StoredEvent, event: DomainEvent): TimelineEntry => ({
  event_id: stored.eventId,
  type: event.type,
  time: stored.metadata.at,
  actor: stored.metadata.actor ?? null,
  version: stored.version,
  position: formatPosition(stored.position),
  data: event.data,
});

/** A booking's full history from its expert's calendar stream, in stream order (newest last). */
export async function bookingTimeline(store: EventStore, expertId: string, bookingId: string): Promise<TimelineEntry[]> {
  const { events } = await store.readStream(calendarStream(expertId));
  const timeline: TimelineEntry[] = [];
  for (const stored of events) {
    const event = readDomainEvent(stored.type, stored.schemaVersion, stored.data);
    if (!("bookingId" in event.data) || event.data.bookingId !== bookingId) continue;
    timeline.push(timelineEntry(stored, event));
  }
  return timeline;
}

export type BookingsAdminDeps = {
  /** The bookings read model. */
  db: pg.Pool;
  /** Each booking's timeline is read from its expert's calendar stream. */
  store: EventStore;
};

export const bookingsAdmin: RoutePlugin<BookingsAdminDeps> = async (app, { db, store }) => {
  app.get(
    "/bookings",
    { schema: { querystring: ListQueryString, response: { 200: z.array(AdminBookingReply) } } },
    async (request, reply) =>
      listPage(reply, db, spec, request.query, { select: bookingSelectList, from: "bookings b", where: bookingWhere }, toRecord),
  );

  app.get("/bookings/:id", { schema: { params: RecordIdParams, response: { 200: AdminBookingShowReply } } }, async (request) => {
    const row = await findBooking(db, request.params.id);
    if (!row) refuse("not_found");
    return { ...toRecord(row), timeline: await bookingTimeline(store, row.expert_id, row.booking_id) };
  });
};
