import type pg from "pg";
import { z } from "zod";
import { AdminBookingReply, AdminRefundReply, Id, RefundCents, RefundReason, RefundStatus, type Actor } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { bookingFromPg, findBooking } from "@booking/projections";
import type { CalendarCommands } from "../commands.ts";
import { actorOf } from "../http/auth-guard.ts";
import { refuse, valueOf } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import type { Projected } from "../read-your-writes.ts";
import { refundColumns, refundFromPg } from "../refunds/refunds-table.ts";
import { IdText, ListQueryString, RecordIdParams, SqlWhere, oneOrMany, orderBy, parseListQuery, selectPage, sendList, type ListSpec } from "./list-query.ts";

// Refunds, from the refund reactor's `refunds` table (id = refund_key): what is owed, what failed
// and why (with the next try), what was issued. An admin refunds part or all of a booking here.

const RefundFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    status: oneOrMany(RefundStatus).optional(),
    booking_id: IdText.optional(),
    expert_id: IdText.optional(),
  })
  .strict();

const spec: ListSpec<typeof RefundFilter> = {
  resource: "refunds",
  sortable: Object.fromEntries(["owed_at", "amount_cents", "status", "attempts", "next_attempt_at", "issued_at", "booking_id"].map((c) => [c, `r.${c}`])),
  defaultSort: ["owed_at", "DESC"],
  uniqueKey: "r.refund_key",
  filter: RefundFilter,
};

function refundWhere(f: z.output<typeof RefundFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`r.refund_key = ANY(${w.param(f.id)})`);
  if (f.status) w.add(`r.status = ANY(${w.param(f.status)})`);
  if (f.booking_id) w.add(`r.booking_id = ${w.param(f.booking_id)}`);
  if (f.expert_id) w.add(`r.expert_id = ${w.param(f.expert_id)}`);
  return w;
}

/** POST /admin/bookings/{id}/refund: whole cents and a reason, refused with the catalogue's words; the calendar checks the amount against what was paid. */
export const AdminRefundBody = z.strictObject({ amount_cents: RefundCents, reason: RefundReason });

export type RefundsAdminDeps = { db: pg.Pool; calendar: CalendarCommands; projected: Projected };

export const refundsAdmin: RoutePlugin<RefundsAdminDeps> = async (app, { db, calendar, projected }) => {
  const select = refundColumns
    .split(", ")
    .map((c) => `r.${c}`)
    .join(", ");
  const toRecord = (raw: Parameters<typeof refundFromPg>[0]): AdminRefundReply => {
    const row = refundFromPg(raw);
    return { id: row.refund_key, ...row };
  };

  app.get("/refunds", { schema: { querystring: ListQueryString, response: { 200: z.array(AdminRefundReply) } } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const { rows, total } = await selectPage<Parameters<typeof refundFromPg>[0]>(db, {
      select,
      from: "refunds r",
      where: refundWhere(list.filter),
      orderBy: orderBy(spec, list.sort),
      offset: list.offset,
      limit: list.limit,
    });
    return [...sendList(reply, spec.resource, list.offset, rows.map(toRecord), total)];
  });

  app.get("/refunds/:id", { schema: { params: RecordIdParams, response: { 200: AdminRefundReply } } }, async (request) => {
    const raw = (await db.query<Parameters<typeof refundFromPg>[0]>(`SELECT ${select} FROM refunds r WHERE r.refund_key = $1`, [request.params.id])).rows[0];
    return raw ? toRecord(raw) : refuse("not_found");
  });

  // The calendar decides (admin only, at most what was paid and is not already owed back); the reactor pays it.
  app.post(
    "/bookings/:id/refund",
    { schema: { params: z.object({ id: Id }).strict(), body: AdminRefundBody, response: { 200: AdminBookingReply } } },
    async (request) => {
      const admin = actorOf(request);
      const actor: Actor = { userId: admin.userId, role: "admin" };
      const booking = await findBooking(db, request.params.id);
      if (!booking) refuse("booking_not_found");
      const command = { type: "RefundBooking" as const, expertId: booking.expert_id, bookingId: booking.booking_id, actor, amountCents: request.body.amount_cents, reason: request.body.reason };
      await projected(valueOf(await calendar.handle(calendarStream(booking.expert_id), command, { actor })));
      const row = await findBooking(db, booking.booking_id);
      if (!row) refuse("booking_not_found");
      return { id: row.booking_id, ...bookingFromPg(row) };
    },
  );
};
