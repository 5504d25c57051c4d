import { z } from "zod";
import { BookingStatus, formatPosition, readDomainEvent, type Actor } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { AppContext } from "../context.ts";
import { refuse } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { IdText, ListQueryString, Flag, Moment, RecordIdParams, SearchText, SqlWhere, addTimeRange, containsPattern, isoTime, oneOrMany, orderBy, parseListQuery, selectPage, sendList, type ListSpec } from "./list-query.ts";

// Bookings, from the `bookings` read model (id = booking_id). One booking also shows its
// timeline, read from the event store itself: the audit trail, not a projection of it.

/** The read model's payment states: money never received, received, or owed back. */
const PaymentState = z.enum(["unpaid", "paid", "refund_due"]);

const BookingFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    status: oneOrMany(BookingStatus).optional(),
    expert_id: IdText.optional(),
    expert_user_id: IdText.optional(),
    creator_id: IdText.optional(),
    session_id: IdText.optional(),
    payment_state: oneOrMany(PaymentState).optional(),
    /** paid=true: the creator's money was received (payment_state paid or refund_due, i.e. also refunded-or-owed ones); false: unpaid. */
    paid: Flag.optional(),
    scheduled_from: Moment.optional(),
    scheduled_to: Moment.optional(),
    /** Matches the session title (contains) or any of the booking's ids (exactly). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof BookingFilter> = {
  resource: "bookings",
  sortable: {
    id: "b.booking_id",
    scheduled_time: "b.scheduled_time",
    created_at: "b.created_at",
    updated_at: "b.updated_at",
    held_until: "b.held_until",
    status: "b.status",
    payment_state: "b.payment_state",
    price_cents: "b.price_cents",
    paid_cents: "b.paid_cents",
    refund_due_cents: "b.refund_due_cents",
    session_title: "b.session_title",
    expert_id: "b.expert_id",
    creator_id: "b.creator_id",
  },
  defaultSort: ["scheduled_time", "DESC"],
  uniqueKey: "b.booking_id",
  filter: BookingFilter,
};

const COLUMNS = `b.booking_id, b.expert_id, b.expert_user_id, b.creator_id, b.session_id, b.session_title, b.price_cents, b.length_minutes, b.scheduled_time,
  b.previous_time, b.held_until, b.status, b.paid_cents, b.refund_due_cents, b.payment_state, b.prep_questions, b.prep_answers, b.info_request_note, b.notes,
  b.cancelled_by, b.cancel_reason, b.created_at, b.updated_at, b.stream_version`;

type BookingRow = {
  booking_id: string;
  expert_id: string;
  expert_user_id: string;
  creator_id: string;
  session_id: string;
  session_title: string;
  price_cents: string;
  length_minutes: number;
  scheduled_time: Date;
  previous_time: Date | null;
  held_until: Date;
  status: string;
  paid_cents: string;
  refund_due_cents: string;
  payment_state: string;
  prep_questions: unknown;
  prep_answers: unknown;
  info_request_note: string | null;
  notes: unknown;
  cancelled_by: string | null;
  cancel_reason: string | null;
  created_at: Date;
  updated_at: Date;
  stream_version: string;
};

const toRecord = (r: BookingRow) => ({
  id: r.booking_id,
  booking_id: r.booking_id,
  expert_id: r.expert_id,
  expert_user_id: r.expert_user_id,
  creator_id: r.creator_id,
  session_id: r.session_id,
  session_title: r.session_title,
  price_cents: Number(r.price_cents),
  length_minutes: r.length_minutes,
  scheduled_time: r.scheduled_time.toISOString(),
  previous_time: isoTime(r.previous_time),
  held_until: r.held_until.toISOString(),
  status: r.status,
  paid_cents: Number(r.paid_cents),
  refund_due_cents: Number(r.refund_due_cents),
  payment_state: r.payment_state,
  prep_questions: r.prep_questions,
  prep_answers: r.prep_answers,
  info_request_note: r.info_request_note,
  notes: r.notes,
  cancelled_by: r.cancelled_by,
  cancel_reason: r.cancel_reason,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  stream_version: Number(r.stream_version),
});

function bookingWhere(f: z.output<typeof BookingFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`b.booking_id = ANY(${w.param(f.id)})`);
  if (f.status) w.add(`b.status = ANY(${w.param(f.status)})`);
  if (f.expert_id) w.add(`b.expert_id = ${w.param(f.expert_id)}`);
  if (f.expert_user_id) w.add(`b.expert_user_id = ${w.param(f.expert_user_id)}`);
  if (f.creator_id) w.add(`b.creator_id = ${w.param(f.creator_id)}`);
  if (f.session_id) w.add(`b.session_id = ${w.param(f.session_id)}`);
  if (f.payment_state) w.add(`b.payment_state = ANY(${w.param(f.payment_state)})`);
  if (f.paid !== undefined) w.add(f.paid ? "b.payment_state IN ('paid', 'refund_due')" : "b.payment_state = 'unpaid'");
  addTimeRange(w, "b.scheduled_time", f.scheduled_from, f.scheduled_to);
  if (f.q) {
    const q = w.param(f.q);
    w.add(`(b.session_title ILIKE ${w.param(containsPattern(f.q))} OR ${q} IN (b.booking_id, b.expert_id, b.creator_id, b.session_id, b.expert_user_id))`);
  }
  return w;
}

/** One entry of a booking's history, as the event store holds it (upcast to the current schema). */
export type TimelineEntry = { event_id: string; type: string; time: string; actor: Actor | null; version: number; position: string; data: unknown };

/** A booking's full history from its expert's calendar stream, in stream order (newest last). */
export async function bookingTimeline(ctx: AppContext, expertId: string, bookingId: string): Promise<TimelineEntry[]> {
  const { events } = await ctx.store.readStream(calendarStream(expertId));
  const timeline: TimelineEntry[] = [];
  for (const stored of events) {
    const event = readDomainEvent(stored.type, stored.schemaVersion, stored.data);
    if (!("bookingId" in event.data) || event.data.bookingId !== bookingId) continue;
    timeline.push({
      event_id: stored.eventId,
      type: event.type,
      time: stored.metadata.at,
      actor: stored.metadata.actor ?? null,
      version: stored.version,
      position: formatPosition(stored.position),
      data: event.data,
    });
  }
  return timeline;
}

export const bookingsAdmin: RoutePlugin = async (app, ctx) => {
  app.get("/bookings", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = bookingWhere(list.filter);
    const { rows, total } = await selectPage<BookingRow>(ctx.db, { select: COLUMNS, from: "bookings b", where, orderBy: orderBy(spec, list.sort), offset: list.offset, limit: list.limit });
    return sendList(reply, spec.resource, list.offset, rows.map(toRecord), total);
  });

  app.get("/bookings/:id", { schema: { params: RecordIdParams } }, async (request) => {
    const { rows } = await ctx.db.query<BookingRow>(`SELECT ${COLUMNS} FROM bookings b WHERE b.booking_id = $1`, [request.params.id]);
    const row = rows[0];
    if (!row) refuse("not_found");
    return { ...toRecord(row), timeline: await bookingTimeline(ctx, row.expert_id, row.booking_id) };
  });
};
