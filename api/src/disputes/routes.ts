import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AdminDisputeReply, DisputeStatus, TestDisputeBody, readDomainEvent, type TimelineEntry } from "@booking/contracts";
import { calendarStream, conversationStream, refundableCents } from "@booking/engine";
import type { EventStore } from "@booking/event-store";
import { findBooking } from "@booking/projections";
import {
  bookingTimeline,
  timelineEntry,
  IdText,
  ListQueryString,
  RecordIdParams,
  SqlWhere,
  listPage,
  oneOrMany,
  type ListSpec,
} from "../admin/index.ts";
import { refuse, requireActor } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { personName } from "../receipts/index.ts";
import { evidencePdf } from "./evidence-pdf.ts";
import { bookingOfPayment, recordDispute, type DisputeRecording } from "./record-dispute.ts";

// The console's disputes (issue 31.2): every dispute of a booking's payment, the soonest evidence deadline first; one
// dispute's evidence as a PDF to submit to the provider; and, with the test payment provider only, a dispute opened
// or moved on as a bank would, so the flow can be tried without Stripe.

export type DisputeRouteDeps = DisputeRecording & { store: EventStore };

const PaymentParams = z.strictObject({ paymentId: z.string().min(1).max(255) });
const DisputeFilter = z
  .object({ id: oneOrMany(IdText).optional(), status: oneOrMany(DisputeStatus).optional(), open: z.boolean().optional() })
  .strict();

const spec: ListSpec<typeof DisputeFilter> = {
  resource: "disputes",
  sortable: {
    evidence_due_by: ["x.evidence_due_by", "x.id"],
    opened_at: ["x.opened_at", "x.id"],
    amount_cents: ["x.amount_cents", "x.id"],
  },
  defaultSort: ["evidence_due_by", "ASC"],
  uniqueKey: "x.id",
  filter: DisputeFilter,
};

/** One row per dispute: the bookings read model's disputes, beside their booking. */
const FROM = `(SELECT d->>'dispute_id' AS id, b.booking_id, b.expert_id, b.creator_id, b.session_title, b.scheduled_time, b.currency, b.paid_cents,
    d->>'dispute_id' AS dispute_id, d->>'payment_id' AS payment_id, (d->>'amount_cents')::bigint AS amount_cents, d->>'reason' AS reason,
    d->>'status' AS status, (d->>'evidence_due_by')::timestamptz AS evidence_due_by, (d->>'opened_at')::timestamptz AS opened_at,
    (d->>'closed_at')::timestamptz AS closed_at, (d->>'lost_cents')::bigint AS lost_cents,
    (d->>'refunded_before_cents')::bigint AS refunded_before_cents
  FROM bookings b CROSS JOIN LATERAL jsonb_array_elements(b.disputes) d WHERE b.disputes <> '[]'::jsonb) x`;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null ? null : String(v));
const adminRecord = (r: Record<string, unknown>): AdminDisputeReply =>
  AdminDisputeReply.parse({
    ...r,
    scheduled_time: iso(r.scheduled_time),
    evidence_due_by: iso(r.evidence_due_by),
    opened_at: iso(r.opened_at),
    closed_at: iso(r.closed_at),
    amount_cents: Number(r.amount_cents),
    paid_cents: Number(r.paid_cents),
    lost_cents: Number(r.lost_cents),
    refunded_before_cents: Number(r.refunded_before_cents),
  });

export const disputeRoutes: RoutePlugin<DisputeRouteDeps> = async (app, deps) => {
  const { db, store, calendar } = deps;
  /** The booking's history from its calendar stream, with its conversation's messages in time order among it. */
  const evidenceTimeline = async (expertId: string, bookingId: string): Promise<TimelineEntry[]> => {
    const [calendarSteps, { events }] = await Promise.all([
      bookingTimeline(store, expertId, bookingId),
      store.readStream(conversationStream(bookingId)),
    ]);
    const messages = events
      .filter((e) => e.type === "MessageSent")
      .map((stored) => timelineEntry(stored, readDomainEvent(stored.type, stored.schemaVersion, stored.data)));
    return [...calendarSteps, ...messages].sort((a, b) => a.time.localeCompare(b.time));
  };
  const one = async (id: string) => {
    const { rows } = await db.query(`SELECT * FROM ${FROM} WHERE x.id = $1`, [id]);
    if (!rows[0]) refuse("not_found");
    return adminRecord(rows[0]);
  };

  await app.register(
    async (plain) => {
      plain.addHook("onRequest", requireActor("admin"));
      const admin = plain.withTypeProvider<ZodTypeProvider>();

      admin.get(
        "/disputes",
        { schema: { querystring: ListQueryString, response: { 200: z.array(AdminDisputeReply) } } },
        async (request, reply) =>
          listPage(
            reply,
            db,
            spec,
            request.query,
            {
              select: "x.*",
              from: FROM,
              where: (f) => {
                const w = new SqlWhere();
                if (f.id) w.add(`x.id = ANY(${w.param(f.id)})`);
                if (f.status) w.add(`x.status = ANY(${w.param(f.status)})`);
                if (f.open !== undefined) w.add(f.open ? "x.closed_at IS NULL" : "x.closed_at IS NOT NULL");
                return w;
              },
            },
            adminRecord,
          ),
      );

      admin.get("/disputes/:id", { schema: { params: RecordIdParams, response: { 200: AdminDisputeReply } } }, async (request) =>
        one(request.params.id),
      );

      admin.get("/disputes/:id/evidence.pdf", { schema: { params: RecordIdParams } }, async (request, reply) => {
        const dispute = await one(request.params.id);
        // The booking read model names both parties (null: no name on file).
        const booking = await findBooking(db, dispute.booking_id);
        const pdf = await evidencePdf({
          dispute,
          creatorName: personName(booking?.creator_first_name, booking?.creator_last_name, "The creator"),
          expertName: personName(booking?.expert_first_name, booking?.expert_last_name, "The expert"),
          timeline: await evidenceTimeline(dispute.expert_id, dispute.booking_id),
        });
        return reply
          .type("application/pdf")
          .header("content-disposition", `attachment; filename="dispute-${dispute.dispute_id}.pdf"`)
          .send(pdf);
      });

      // The test provider's stand-in for a bank: opens a dispute on one of its payments, or moves one on (won, lost...).
      admin.post(
        "/payments/:paymentId/test-dispute",
        { schema: { params: PaymentParams, body: TestDisputeBody, response: { 200: AdminDisputeReply } } },
        async (request) => {
          const paid = await bookingOfPayment(db, request.params.paymentId);
          if (!paid) refuse("payment_not_found");
          if (paid.provider !== "test") refuse("dispute_test_provider_only");
          const { state } = await calendar.load(calendarStream(paid.expertId));
          const b = state.bookings.get(paid.bookingId);
          if (!b) refuse("booking_not_found");
          const disputeId = `dp_test_${request.params.paymentId}`;
          const opening = b.disputes[disputeId] === undefined;
          if (opening && refundableCents(b) === 0) refuse("dispute_booking_refunded");
          const report = {
            disputeId,
            paymentId: request.params.paymentId,
            amountCents: request.body.amount_cents ?? refundableCents(b),
            reason: request.body.reason,
            status: request.body.status,
            evidenceDueBy: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          };
          const outcome = await recordDispute(deps, report);
          if (outcome !== "recorded") refuse(outcome === "payment_not_ours" ? "payment_not_found" : "invalid_request");
          return one(disputeId);
        },
      );
    },
    { prefix: "/admin" },
  );
};
