// The payments port: Stripe in production, a network-free test provider for the embedded mode and tests.

export type PaymentIntent = { paymentId: string; clientSecret: string };

export type PaymentIntentRequest = {
  bookingId: string;
  /** The expert's profile id: the booking's calendar stream, where the payment is recorded. */
  expertId: string;
  creatorId: string;
  /** Always the booking's price, computed on the server. */
  amountCents: number;
  description: string;
};

export interface PaymentProvider {
  readonly name: "stripe" | "test";
  /** Shown to the web app, which loads Stripe Elements only when there is one. */
  readonly publishableKey: string | null;
  /** A payment for a booking's amount; asking twice for one booking returns the same payment. */
  createIntent(input: PaymentIntentRequest): Promise<PaymentIntent>;
}
