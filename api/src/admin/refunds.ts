import type pg from "pg";
import { z } from "zod";
import { AdminRefundReply, Id, RefundCents, RefundReason, RefundStatus, type Actor } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { findBooking } from "@booking/projections";
import type { CalendarCommands } from "../main/index.ts";
import { actorOf, refuse, valueOf } from "../http/index.ts";
import type { RoutePlugin, Projected } from "../http/index.ts";
import { refundFact, recordFact, refundColumns, refundFromPg } from "../refunds/index.ts";
import { IdText, listPage, ListQueryString, type ListSpec, oneOrMany, RecordIdParams, SqlWhere } from "./list-query.ts";

// Refunds, from the refund reactor's `refunds` table (id = refund_key): what is owed, what failed
// and why (with the next try), what was issued. An admin refunds part or all of a booking here
// (react-admin's create).

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
  sortable: Object.fromEntries(
    ["owed_at", "amount_cents", "status", "attempts", "next_attempt_at", "issued_at", "booking_id"].map((c) => [c, `r.${c}`]),
  ),
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

/**
 * POST /admin/refunds (react-admin's create): the booking, whole cents and a reason, refused with the
 * catalogue's words; the calendar checks the amount against what was paid.
 */
export const AdminRefundBody = z.strictObject({ booking_id: Id, amount_cents: RefundCents, reason: RefundReason });

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

  app.get("/refunds", { schema: { querystring: ListQueryString, response: { 200: z.array(AdminRefundReply) } } }, async (request, reply) =>
    listPage(reply, db, spec, request.query, { select, from: "refunds r", where: refundWhere }, toRecord),
  );

  const refundRecord = async (refundKey: string) => {
    const raw = (await db.query<Parameters<typeof refundFromPg>[0]>(`SELECT ${select} FROM refunds r WHERE r.refund_key = $1`, [refundKey]))
      .rows[0];
    return raw ? toRecord(raw) : refuse("not_found");
  };

  app.get("/refunds/:id", { schema: { params: RecordIdParams, response: { 200: AdminRefundReply } } }, async (request) =>
    refundRecord(request.params.id),
  );

  // The calendar decides (admin only, at most what was paid and is not already owed back); the
  // reactor pays it. The owed refund is written to the list at once (the reactor's own write of
  // it, from the log, then changes nothing), so the console shows what it just created.
  app.post("/refunds", { schema: { body: AdminRefundBody, response: { 200: AdminRefundReply } } }, async (request) => {
    const admin = actorOf(request);
    const actor: Actor = { userId: admin.userId, role: "admin" };
    const { booking_id, amount_cents, reason } = request.body;
    const booking = await findBooking(db, booking_id);
    if (!booking) refuse("booking_not_found");
    const command = {
      type: "RefundBooking" as const,
      expertId: booking.expert_id,
      bookingId: booking.booking_id,
      actor,
      amountCents: amount_cents,
      reason,
    };
    const result = valueOf(await calendar.handle(calendarStream(booking.expert_id), command, { actor }));
    await projected(result);
    const owing = result.events.find((e) => e.type === "RefundDue");
    const fact = owing ? refundFact(owing) : null;
    if (!owing || !fact) return refuse("something_went_wrong");
    await recordFact(db, fact);
    return refundRecord(owing.eventId);
  });
};
