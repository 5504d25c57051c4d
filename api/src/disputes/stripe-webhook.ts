import { z } from "zod";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import { DisputeStatus, type DisputeReport } from "@booking/contracts";
import { recordDispute, type DisputeRecording } from "./record-dispute.ts";

// Stripe's word on disputes (issue 31.2), once the webhook route has verified its signature: charge.dispute.created,
// .updated and .closed each become a RecordDispute on the disputed booking, whose decider records only what is new
// (a redelivered event records nothing). A dispute of a payment the product did not take is logged and acknowledged.

const DISPUTE_EVENTS = new Set(["charge.dispute.created", "charge.dispute.updated", "charge.dispute.closed"]);

const providerId = z.string().min(1).max(255);
/** The fields of Stripe's dispute object the product reads (its shape as in ../shared/stripe/fixtures3.json). */
const WebhookDispute = z.object({
  object: z.literal("dispute"),
  id: providerId,
  amount: z.number().int().nonnegative(),
  payment_intent: z.union([providerId, z.object({ id: providerId })]).nullish(),
  reason: z.string().max(100),
  status: DisputeStatus,
  evidence_details: z.object({ due_by: z.number().int().nullish() }).nullish(),
});

export type StripeEventLike = { id: string; type: string; data?: { object?: unknown } };

/** The dispute a verified event reports, or null with why it is not one the product records. */
export function disputeReportOf(event: StripeEventLike): { report: DisputeReport } | { ignored: string } {
  const parsed = WebhookDispute.safeParse(event.data?.object);
  if (!parsed.success) return { ignored: "unexpected fields" };
  const d = parsed.data;
  const paymentId = typeof d.payment_intent === "string" ? d.payment_intent : d.payment_intent?.id;
  if (!paymentId) return { ignored: "no payment intent" };
  const due = d.evidence_details?.due_by;
  return {
    report: {
      disputeId: d.id,
      paymentId,
      amountCents: d.amount,
      reason: d.reason,
      status: d.status,
      evidenceDueBy: due ? new Date(due * 1000).toISOString() : null,
    },
  };
}

/** Handles a verified event when it is a dispute's (true), else leaves it to the other handlers (false). */
export function stripeDisputeWebhook(deps: DisputeRecording & { db: pg.Pool }) {
  return async (event: StripeEventLike, log: FastifyBaseLogger): Promise<boolean> => {
    if (!DISPUTE_EVENTS.has(event.type)) return false;
    const read = disputeReportOf(event);
    if ("ignored" in read) {
      log.warn({ eventId: event.id, why: read.ignored }, "Stripe dispute not recorded");
      return true;
    }
    const outcome = await recordDispute(deps, read.report);
    if (outcome !== "recorded")
      log.warn({ eventId: event.id, disputeId: read.report.disputeId, why: outcome }, "Stripe dispute not recorded");
    return true;
  };
}
