// The payments port: Stripe in production, a network-free test provider for the embedded mode and tests.

export type PaymentIntent = { paymentId: string; clientSecret: string };

export interface PaymentProvider {
  readonly name: "stripe" | "test";
  /** Shown to the web app, which loads Stripe Elements only when there is one. */
  readonly publishableKey: string | null;
  /** A payment for a booking's amount; asking twice for one booking returns the same payment. */
  createIntent(input: { bookingId: string; expertId: string; amountCents: number; description: string }): Promise<PaymentIntent>;
}
