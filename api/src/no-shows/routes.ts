import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  AdminNoShowReply,
  BookingIdParams,
  BookingReply,
  NoShowDecisionBody,
  NoShowReportBody,
  NoShowState,
  type NoShowReply,
} from "@booking/contracts";
import { IdText, ListQueryString, RecordIdParams, SqlWhere, listPage, oneOrMany, type ListSpec } from "../admin/index.ts";
import { bookingFor, replyAsOf, runOnBooking, type BookingRouteDeps } from "../bookings/index.ts";
import { actorOf, refuse, requireActor } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";

// No-shows (issue 31.1): a party reports the other absent, the reported party contests, an admin decides a
// contested report; each a command on the expert's calendar (engine/src/calendar/no-shows.ts). The console
// lists the reports, the soonest deadline first.

export type NoShowRouteDeps = Pick<BookingRouteDeps, "db" | "calendar" | "projected" | "clock" | "meetingRoomUrlTemplate">;

const oneBooking = { response: { 200: BookingReply } };

const NoShowFilter = z
  .object({ id: oneOrMany(IdText).optional(), state: oneOrMany(NoShowState).optional(), expert_id: IdText.optional() })
  .strict();

const spec: ListSpec<typeof NoShowFilter> = {
  resource: "no-shows",
  sortable: {
    contest_by: ["b.no_show->>'contest_by'", "b.booking_id"],
    reported_at: ["b.no_show->>'reported_at'", "b.booking_id"],
    scheduled_time: ["b.scheduled_time", "b.booking_id"],
  },
  defaultSort: ["contest_by", "ASC"],
  uniqueKey: "b.booking_id",
  filter: NoShowFilter,
};

/** Where a report stands, in SQL over the row's `no_show`. */
const STATE_SQL = `CASE WHEN b.no_show->>'outcome' IS NOT NULL THEN 'settled'
  WHEN (b.no_show->>'contested')::boolean THEN 'contested' ELSE 'open' END`;

type NoShowRow = {
  booking_id: string;
  expert_id: string;
  expert_user_id: string;
  creator_id: string;
  session_title: string;
  scheduled_time: Date;
  length_minutes: number;
  status: string;
  state: "open" | "contested" | "settled";
  paid_cents: string;
  refund_due_cents: string;
  currency: string;
  no_show: NoShowReply;
};

const adminRecord = (r: NoShowRow): AdminNoShowReply => ({
  id: r.booking_id,
  booking_id: r.booking_id,
  expert_id: r.expert_id,
  expert_user_id: r.expert_user_id,
  creator_id: r.creator_id,
  session_title: r.session_title,
  scheduled_time: r.scheduled_time.toISOString(),
  length_minutes: r.length_minutes,
  status: r.status,
  state: r.state,
  paid_cents: Number(r.paid_cents),
  refund_due_cents: Number(r.refund_due_cents),
  currency: r.currency,
  no_show: r.no_show,
});

const SELECT = `b.booking_id, b.expert_id, b.expert_user_id, b.creator_id, b.session_title, b.scheduled_time, b.length_minutes, b.status,
  ${STATE_SQL} AS state, b.paid_cents, b.refund_due_cents, b.currency, b.no_show`;

export const noShowRoutes: RoutePlugin<NoShowRouteDeps> = async (app, deps) => {
  const { db, clock, meetingRoomUrlTemplate } = deps;
  const replyOf = (row: Parameters<typeof replyAsOf>[0]) => replyAsOf(row, clock(), meetingRoomUrlTemplate);

  const partyStep = (type: "ReportNoShow" | "ContestNoShow", path: string) =>
    app.post(
      path,
      { onRequest: requireActor(), schema: { params: BookingIdParams, body: NoShowReportBody.nullish(), ...oneBooking } },
      async (request) => {
        const actor = actorOf(request);
        const row = await bookingFor(db, actor, request.params.bookingId);
        return replyOf(await runOnBooking(deps, actor, row, { type, note: request.body?.note ?? "" }));
      },
    );
  partyStep("ReportNoShow", "/bookings/:bookingId/no-show");
  partyStep("ContestNoShow", "/bookings/:bookingId/no-show/contest");

  await app.register(
    async (plain) => {
      plain.addHook("onRequest", requireActor("admin"));
      const admin = plain.withTypeProvider<ZodTypeProvider>();

      admin.get(
        "/no-shows",
        { schema: { querystring: ListQueryString, response: { 200: z.array(AdminNoShowReply) } } },
        async (request, reply) =>
          listPage(
            reply,
            db,
            spec,
            request.query,
            {
              select: SELECT,
              from: "bookings b",
              where: (f) => {
                const w = new SqlWhere();
                w.add("b.no_show IS NOT NULL");
                if (f.id) w.add(`b.booking_id = ANY(${w.param(f.id)})`);
                if (f.state) w.add(`${STATE_SQL} = ANY(${w.param(f.state)})`);
                if (f.expert_id) w.add(`b.expert_id = ${w.param(f.expert_id)}`);
                return w;
              },
            },
            adminRecord,
          ),
      );

      admin.get("/no-shows/:id", { schema: { params: RecordIdParams, response: { 200: AdminNoShowReply } } }, async (request) => {
        const { rows } = await db.query<NoShowRow>(`SELECT ${SELECT} FROM bookings b WHERE b.booking_id = $1 AND b.no_show IS NOT NULL`, [
          request.params.id,
        ]);
        if (!rows[0]) refuse("not_found");
        return adminRecord(rows[0]);
      });

      admin.post(
        "/bookings/:bookingId/no-show/decision",
        { schema: { params: BookingIdParams, body: NoShowDecisionBody, ...oneBooking } },
        async (request) => {
          const actor = actorOf(request);
          const row = await bookingFor(db, actor, request.params.bookingId);
          const { upheld, refund_cents: refundCents, reason } = request.body;
          return replyOf(await runOnBooking(deps, actor, row, { type: "DecideNoShow", upheld, refundCents, reason }));
        },
      );
    },
    { prefix: "/admin" },
  );
};
