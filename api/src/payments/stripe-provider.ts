import Stripe from "stripe";
import type { Queryable } from "./payments-table.ts";
import {
  refundIdempotencyKey,
  type PaymentIntent,
  type PaymentIntentRequest,
  type PaymentProvider,
  type RefundOutcome,
  type RefundProvider,
  type RefundRequest,
} from "./provider.ts";

// Stripe: the server creates the PaymentIntent for the booking's price; the web app confirms it
// with Stripe Elements; the booking is fulfilled only from the signed webhook (routes.ts).

/** The Stripe calls this provider makes, so tests can hand in a fake client. */
export type StripePaymentIntents = {
  create(params: Stripe.PaymentIntentCreateParams, options?: Stripe.RequestOptions): Promise<{ id: string; client_secret: string | null }>;
};
export type StripeRefunds = {
  create(
    params: Stripe.RefundCreateParams,
    options?: Stripe.RequestOptions,
  ): Promise<{ id: string; status: string | null; failure_reason?: string | null }>;
};
/** A fake without `refunds` serves tests that only take payments; refunding through it throws. */
export type StripeClient = { paymentIntents: StripePaymentIntents; refunds?: StripeRefunds };

export type StripeProviderOptions = {
  secretKey: string;
  publishableKey: string | null;
  /** Defaults to the real client for `secretKey`. */
  client?: StripeClient;
};

export class StripePaymentProvider implements PaymentProvider, RefundProvider {
  readonly name = "stripe";
  readonly publishableKey: string | null;
  private readonly client: StripeClient;

  constructor(
    private readonly db: Queryable,
    options: StripeProviderOptions,
  ) {
    this.publishableKey = options.publishableKey;
    this.client = options.client ?? new Stripe(options.secretKey);
  }

  async createIntent(input: PaymentIntentRequest): Promise<PaymentIntent> {
    // One idempotency key per booking: a retried or doubled checkout gets the same intent back,
    // so a booking can never be charged twice through two intents.
    const intent = await this.client.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: input.currency.toLowerCase(),
        description: input.description,
        metadata: { bookingId: input.bookingId, expertId: input.expertId },
        automatic_payment_methods: { enabled: true },
      },
      { idempotencyKey: `booking-${input.bookingId}` },
    );
    if (!intent.client_secret) throw new Error(`Stripe returned PaymentIntent ${intent.id} without a client secret`);
    await this.db.query(
      `INSERT INTO payments (payment_id, booking_id, expert_id, creator_id, provider, client_secret, amount_cents, status)
       VALUES ($1, $2, $3, $4, 'stripe', $5, $6, 'requires_payment')
       ON CONFLICT (payment_id) DO UPDATE SET client_secret = EXCLUDED.client_secret, updated_at = now()`,
      [intent.id, input.bookingId, input.expertId, input.creatorId, intent.client_secret, input.amountCents],
    );
    return { paymentId: intent.id, clientSecret: intent.client_secret };
  }

  async refund(input: RefundRequest): Promise<RefundOutcome> {
    if (!this.client.refunds) throw new Error("This Stripe client cannot refund");
    // The key is the owing event's: a retry after a crash, a timeout or a redelivery gets the same refund back.
    const refund = await this.client.refunds.create(
      {
        payment_intent: input.paymentId,
        amount: input.amountCents,
        reason: "requested_by_customer",
        metadata: { bookingId: input.bookingId, expertId: input.expertId, refundKey: input.refundKey },
      },
      { idempotencyKey: refundIdempotencyKey(input.refundKey) },
    );
    // Pending is issued too: Stripe has taken it, and refund.updated reports a later failure.
    if (refund.status === "failed" || refund.status === "canceled")
      return { status: "failed", reason: stripeRefundFailure(refund.failure_reason) };
    return { status: "issued", refundId: refund.id };
  }
}

/** Stripe's failure_reason codes in words an operator reads in the console. */
export function stripeRefundFailure(code: string | null | undefined): string {
  return code ? `Stripe could not refund: ${code.replace(/_/g, " ")}.` : "Stripe could not refund.";
}
