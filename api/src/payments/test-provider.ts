import { randomBytes, randomUUID } from "node:crypto";
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

// The network-free provider of the embedded mode and the tests. It behaves like Stripe's test
// mode where the product can tell: one payment per booking, a client secret that only the payer
// holds, and the same two test cards.

export const TEST_CARD_SUCCEEDS = "4242424242424242";
export const TEST_CARD_DECLINED = "4000000000000002";

export type CardVerdict = "succeeded" | "declined" | "invalid";

/** What charging a card number would do; spaces (as people type them) are ignored. */
export function chargeTestCard(cardNumber: string): CardVerdict {
  const digits = cardNumber.replace(/\s+/g, "");
  if (digits === TEST_CARD_SUCCEEDS) return "succeeded";
  if (digits === TEST_CARD_DECLINED) return "declined";
  return "invalid";
}

export class TestPaymentProvider implements PaymentProvider, RefundProvider {
  readonly name = "test";
  readonly publishableKey = null;

  constructor(private readonly db: Queryable) {}

  async createIntent(input: PaymentIntentRequest): Promise<PaymentIntent> {
    const paymentId = `pi_test_${randomUUID()}`;
    const clientSecret = `${paymentId}_secret_${randomBytes(18).toString("base64url")}`;
    // One payment per booking, even when two checkouts race: the partial unique index decides.
    const inserted = await this.db.query<{ payment_id: string; client_secret: string }>(
      `INSERT INTO payments (payment_id, booking_id, expert_id, creator_id, provider, client_secret, amount_cents, status)
       VALUES ($1, $2, $3, $4, 'test', $5, $6, 'requires_payment')
       ON CONFLICT (booking_id) WHERE provider = 'test' DO NOTHING
       RETURNING payment_id, client_secret`,
      [paymentId, input.bookingId, input.expertId, input.creatorId, clientSecret, input.amountCents],
    );
    const row =
      inserted.rows[0] ??
      (
        await this.db.query<{ payment_id: string; client_secret: string }>(
          "SELECT payment_id, client_secret FROM payments WHERE booking_id = $1 AND provider = 'test'",
          [input.bookingId],
        )
      ).rows[0];
    if (!row) throw new Error(`test payment for booking ${input.bookingId} vanished`);
    return { paymentId: row.payment_id, clientSecret: row.client_secret };
  }

  /**
   * Like Stripe: one refund per idempotency key, only of a succeeded test payment, never more in
   * all than it took. The refunds are rows of `test_refunds`, so tests can count the money sent back.
   */
  async refund(input: RefundRequest): Promise<RefundOutcome> {
    const key = refundIdempotencyKey(input.refundKey);
    const inserted = await this.db.query<{ refund_id: string }>(
      `INSERT INTO test_refunds (idempotency_key, refund_id, payment_id, booking_id, amount_cents)
       SELECT $1, $2, p.payment_id, p.booking_id, $4::bigint FROM payments p
       WHERE p.payment_id = $3 AND p.provider = 'test' AND p.status = 'succeeded'
         AND p.amount_cents >= $4::bigint + (SELECT COALESCE(sum(r.amount_cents), 0) FROM test_refunds r WHERE r.payment_id = p.payment_id)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING refund_id`,
      [key, `re_test_${randomUUID()}`, input.paymentId, input.amountCents],
    );
    const refundId =
      inserted.rows[0]?.refund_id ??
      (await this.db.query<{ refund_id: string }>("SELECT refund_id FROM test_refunds WHERE idempotency_key = $1", [key])).rows[0]
        ?.refund_id;
    if (refundId) return { status: "issued", refundId };
    return {
      status: "failed",
      reason:
        `Test payment ${input.paymentId} cannot be refunded ${input.amountCents} cents: it is not a succeeded ` +
        `test payment, or not that much of it is left.`,
    };
  }
}
