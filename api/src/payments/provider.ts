import type { Currency } from "@booking/contracts";

// The payments port: Stripe in production, a network-free test provider for the embedded mode and tests.

export type PaymentIntent = { paymentId: string; clientSecret: string };

export type PaymentIntentRequest = {
  bookingId: string;
  /** The expert's profile id: the booking's calendar stream, where the payment is recorded. */
  expertId: string;
  creatorId: string;
  /** Always the booking's price, computed on the server. */
  amountCents: number;
  /** The booking's currency (issue 29.8): the creator is charged in the session's own. */
  currency: Currency;
  description: string;
};

export interface PaymentProvider {
  readonly name: "stripe" | "test";
  /** Shown to the web app, which loads Stripe Elements only when there is one. */
  readonly publishableKey: string | null;
  /** A payment for a booking's amount; asking twice for one booking returns the same payment. */
  createIntent(input: PaymentIntentRequest): Promise<PaymentIntent>;
}

/** Money going back to the payer, for one owed refund. */
export type RefundRequest = {
  /** The id of the event that owed it; the provider's idempotency key derives from it, so asking again never refunds twice. */
  refundKey: string;
  /** The payment the money goes back to. */
  paymentId: string;
  bookingId: string;
  expertId: string;
  amountCents: number;
};

/** The provider took the refund (`refundId` names it there), or said why not. */
export type RefundOutcome = { status: "issued"; refundId: string } | { status: "failed"; reason: string };

/** The idempotency key a refund is asked for under: one per owed refund, the same on every retry. */
export const refundIdempotencyKey = (refundKey: string) => `refund-${refundKey}`;

export interface RefundProvider {
  readonly name: "stripe" | "test";
  /** Refund part or all of a payment; asking again for one refundKey answers with the same refund. Throws when the provider could not be asked. */
  refund(input: RefundRequest): Promise<RefundOutcome>;
}
