import { z } from "zod";
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import Stripe from "stripe";
import {
  PaymentConfirmedReply,
  PaymentIntentReply,
  WebhookReceivedReply,
  errorCatalogue,
  type Currency,
  type Result,
} from "@booking/contracts";
import type { CommandResult } from "@booking/event-store";
import { findBooking } from "@booking/projections";
import { actorOf, requireActor, Refused, refuse, valueOf } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import {
  recordRefundFailed,
  recordRefundIssued,
  judgeReportedRefund,
  askedRefund,
  listUnmatched,
  refundableCents,
} from "../refunds/index.ts";
import { BookingMetadata, RefundMetadata, TestConfirmBody, TestIntentBody } from "./bodies.ts";
import { paymentByClientSecret } from "./payments-table.ts";
import type { PaymentProvider } from "./provider.ts";
import { recordPaymentFailed, recordPaymentSucceeded, type PaymentRecording } from "./record-payment.ts";
import { stripeRefundFailure } from "./stripe-provider.ts";
import { chargeTestCard } from "./test-provider.ts";

/** A Stripe refund, as refund.updated carries it and charge.refunded lists them. */
const WebhookRefund = z.object({
  id: z.string().min(1).max(255),
  amount: z.number().int().positive(),
  status: z.string().nullish(),
  failure_reason: z.string().nullish(),
  metadata: z.unknown(),
});
const WebhookCharge = z.object({ id: z.string().min(1).max(255), refunds: z.object({ data: z.array(z.unknown()) }).nullish() });

const WebhookIntent = z.object({
  id: z.string().min(1).max(255),
  amount: z.number().int().nonnegative(),
  amount_received: z.number().int().nonnegative().optional(),
  metadata: z.unknown(),
  last_payment_error: z.object({ message: z.string().optional() }).nullish(),
});

/**
 * A refusal from recording a provider's report. A lost race is answered with an error so that
 * Stripe delivers the event again; anything else would be refused again, so it is kept in the
 * log (and on the payment row) and the event is acknowledged.
 */
function settleReport(log: FastifyBaseLogger, result: Result<CommandResult>, what: Record<string, string>): void {
  if (result.ok) return;
  if (result.refusal.code === "concurrency_conflict") throw new Refused(result.refusal);
  log.warn({ ...what, refusal: result.refusal.code }, "payment report not recorded");
}

export type PaymentRouteDeps = PaymentRecording & {
  payments: PaymentProvider;
  /** The secrets a Stripe webhook may be signed with; none: Stripe's webhook is refused (no provider to trust). */
  stripeWebhookSecrets: readonly string[];
  /** Stripe events other areas record (payouts' account, transfer and payout events; disputes): true when the event was theirs. */
  otherStripeEvents?: ((event: Stripe.Event, log: FastifyBaseLogger) => Promise<boolean>) | null;
  clock: () => string;
};

export const paymentsRoutes: RoutePlugin<PaymentRouteDeps> = async (app, deps) => {
  const { db, payments, stripeWebhookSecrets, clock } = deps;
  // Spec section 7: a payment for one of the creator's bookings. The amount is the booking's price.
  app.post(
    "/stripe/test-intent",
    { preHandler: requireActor(), schema: { body: TestIntentBody, response: { 200: PaymentIntentReply } } },
    async (request) => {
      const actor = actorOf(request);
      const booking = await findBooking(db, request.body.bookingId);
      // Someone else's booking is answered exactly like a missing one.
      if (!booking || booking.creator_id !== actor.userId) refuse("booking_not_found");
      if (booking.status === "cancelled" || booking.status === "completed") {
        refuse("booking_transition_refused", { status: booking.status === "cancelled" ? "cancelled" : "complete", action: "paid" });
      }
      // A free session counts as paid in the calendar, so there is nothing to charge either.
      if (booking.payment_state !== "unpaid" || booking.price_cents === 0) refuse("booking_already_paid");
      if (request.body.amount !== undefined && request.body.amount !== booking.price_cents) refuse("payment_amount_mismatch");
      const intent = await payments.createIntent({
        bookingId: booking.booking_id,
        expertId: booking.expert_id,
        creatorId: booking.creator_id,
        amountCents: booking.price_cents,
        currency: booking.currency as Currency,
        description: booking.session_title,
      });
      return {
        clientSecret: intent.clientSecret,
        paymentId: intent.paymentId,
        amount: booking.price_cents,
        publishableKey: payments.publishableKey,
      };
    },
  );

  // The test provider's stand-in for Stripe Elements: charge a test card against a client secret.
  const testProviderOnly = async () => {
    if (payments.name !== "test") refuse("payment_provider_unavailable");
  };
  app.post(
    "/payments/test/confirm",
    { preHandler: [testProviderOnly, requireActor()], schema: { body: TestConfirmBody, response: { 200: PaymentConfirmedReply } } },
    async (request) => {
      const actor = actorOf(request);
      const payment = await paymentByClientSecret(db, request.body.client_secret);
      if (!payment || payment.provider !== "test" || payment.creatorId !== actor.userId) refuse("payment_not_found");
      const outcome = { paymentId: payment.paymentId, bookingId: payment.bookingId, expertId: payment.expertId, provider: "test" };
      // Confirming a paid payment again charges nothing, like Stripe answering with the succeeded intent; it records the
      // success again (a no-op once recorded), so a crash between the row and the calendar is mended by the retry.
      if (payment.status === "succeeded") {
        settleReport(request.log, await recordPaymentSucceeded(deps, { ...outcome, amountCents: payment.amountCents }), {
          paymentId: payment.paymentId,
        });
        return { status: "succeeded" as const };
      }
      const verdict = chargeTestCard(request.body.card_number);
      if (verdict === "invalid") refuse("card_number_invalid");
      if (verdict === "declined") {
        const failed = await recordPaymentFailed(deps, {
          ...outcome,
          amountCents: payment.amountCents,
          reason: errorCatalogue.payment_declined.message,
          attemptId: randomUUID(),
        });
        settleReport(request.log, failed, { paymentId: payment.paymentId });
        refuse("payment_declined");
      }
      valueOf(await recordPaymentSucceeded(deps, { ...outcome, amountCents: payment.amountCents }));
      return { status: "succeeded" as const };
    },
  );

  /**
   * Stripe's word on refunds: one the product asked for (reported-refund.ts: its key, its booking,
   * its amount, within what is left of the payment) is recorded as issued when it went through (a
   * no-op when the reactor already recorded it from Stripe's answer; the record when a crash lost
   * that answer), as failed when it failed. Any other refund, whatever its metadata claims, is
   * logged (ids only) and listed for an admin (GET /admin/unmatched-refunds), never recorded.
   */
  const reconcileRefunds = async (log: FastifyBaseLogger, type: string, object: unknown, eventId: string) => {
    let refunds: unknown[];
    if (type === "refund.updated") refunds = [object];
    else {
      const charge = WebhookCharge.safeParse(object);
      // Newer API versions leave the charge's refunds out; refund.updated brings each of them.
      refunds = charge.success ? (charge.data.refunds?.data ?? []) : [];
    }
    for (const raw of refunds) {
      const refund = WebhookRefund.safeParse(raw);
      if (!refund.success) {
        log.warn({ eventId }, "Stripe refund with unexpected fields ignored");
        continue;
      }
      const { id: refundId, amount: amountCents, status } = refund.data;
      const metadata = RefundMetadata.safeParse(refund.data.metadata);
      const report = { refundId, amountCents, claimed: metadata.success ? metadata.data : null };
      const asked = report.claimed && (await askedRefund(db, report.claimed.refundKey));
      const verdict = judgeReportedRefund(report, asked, asked ? await refundableCents(db, asked.bookingId, asked.refundKey) : 0);
      if (verdict.kind === "unmatched") {
        log.warn({ eventId, refundId, why: verdict.why }, "Stripe refund not recorded: not one the product asked for; listed for an admin");
        await listUnmatched(db, { ...report, provider: "stripe", providerStatus: status ?? null, why: verdict.why, eventId, at: clock() });
        continue;
      }
      const on = { refundKey: verdict.refundKey, bookingId: verdict.bookingId, expertId: verdict.expertId };
      if (status === "succeeded" || status === "pending") {
        const issued = { ...on, refundId, amountCents, provider: "stripe", at: clock() };
        settleReport(log, await recordRefundIssued(deps, issued), { eventId, refundId });
      } else if (status === "failed" || status === "canceled") {
        const failed = { ...on, reason: stripeRefundFailure(refund.data.failure_reason), attemptId: refundId };
        settleReport(log, await recordRefundFailed(deps, failed), { eventId, refundId });
      }
    }
  };

  /** How far a webhook's signed timestamp may be from our clock, either way: Stripe's own default. */
  const WEBHOOK_TOLERANCE_SECONDS = Stripe.webhooks.DEFAULT_TOLERANCE;

  // Stripe's signature covers the exact bytes sent, so this route alone keeps the raw body:
  // the JSON parser is replaced inside this encapsulated plugin only.
  await app.register(async (webhook) => {
    webhook.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

    webhook.post("/stripe/webhook", { schema: { response: { 200: WebhookReceivedReply } } }, async (request) => {
      if (stripeWebhookSecrets.length === 0) refuse("payment_provider_unavailable");
      const signature = request.headers["stripe-signature"];
      const raw = request.body;
      if (typeof signature !== "string" || !Buffer.isBuffer(raw)) refuse("webhook_signature_invalid");
      const receivedAtMs = Date.parse(clock());
      // Signed with the platform endpoint's secret or the Connect endpoint's: either will do.
      const verifiedWith = (secret: string): Stripe.Event | null => {
        try {
          return Stripe.webhooks.constructEvent(raw, signature, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, receivedAtMs);
        } catch {
          return null;
        }
      };
      const event = stripeWebhookSecrets.reduce<Stripe.Event | null>((found, secret) => found ?? verifiedWith(secret), null);
      if (!event) refuse("webhook_signature_invalid");
      // The library refuses only old timestamps; one from the future is as suspect (a forged or broken clock).
      const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
      if (!(signedAt <= receivedAtMs / 1000 + WEBHOOK_TOLERANCE_SECONDS)) refuse("webhook_signature_invalid");

      // A validly signed body can still be anything JSON (even null): check its shape first.
      if (!event || typeof event !== "object" || typeof (event as { type?: unknown }).type !== "string") refuse("invalid_request");
      if (deps.otherStripeEvents && (await deps.otherStripeEvents(event, request.log))) return { received: true as const };
      if (event.type === "charge.refunded" || event.type === "refund.updated") {
        await reconcileRefunds(request.log, event.type, (event as { data?: { object?: unknown } }).data?.object, event.id);
        return { received: true as const };
      }
      if (event.type !== "payment_intent.succeeded" && event.type !== "payment_intent.payment_failed") return { received: true as const };
      // Signed does not mean well-formed: check the fields we use before trusting them.
      const parsed = WebhookIntent.safeParse((event as { data?: { object?: unknown } }).data?.object);
      if (!parsed.success) {
        request.log.warn({ eventId: event.id }, "Stripe payment intent with unexpected fields ignored");
        return { received: true as const };
      }
      const intent = parsed.data;
      const booking = BookingMetadata.safeParse(intent.metadata);
      if (!booking.success) {
        // Not a booking payment (another integration on the same Stripe account): nothing to record.
        request.log.warn({ eventId: event.id, paymentId: intent.id }, "Stripe payment without booking metadata ignored");
        return { received: true as const };
      }
      const outcome = { paymentId: intent.id, bookingId: booking.data.bookingId, expertId: booking.data.expertId, provider: "stripe" };
      if (event.type === "payment_intent.succeeded") {
        const amountCents = intent.amount_received && intent.amount_received > 0 ? intent.amount_received : intent.amount;
        settleReport(request.log, await recordPaymentSucceeded(deps, { ...outcome, amountCents }), {
          eventId: event.id,
          paymentId: intent.id,
        });
      } else {
        const reason = intent.last_payment_error?.message ?? "The payment failed.";
        settleReport(
          request.log,
          await recordPaymentFailed(deps, { ...outcome, amountCents: intent.amount, reason, attemptId: event.id }),
          { eventId: event.id, paymentId: intent.id },
        );
      }
      return { received: true as const };
    });
  });
};
