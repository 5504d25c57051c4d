import type { Migration } from "@booking/contracts";

// The API's own record of payments: which provider payment belongs to which booking, and what the
// provider last said about it. The booking's paid state itself lives in the event store.

export const paymentsMigrations: readonly Migration[] = [
  {
    name: "001_payments",
    sql: `
      CREATE TABLE payments (
        payment_id text PRIMARY KEY,
        booking_id text NOT NULL,
        expert_id text NOT NULL,
        creator_id text NOT NULL,
        provider text NOT NULL,
        client_secret text UNIQUE,
        amount_cents bigint NOT NULL,
        status text NOT NULL DEFAULT 'requires_payment' CHECK (status IN ('requires_payment', 'succeeded', 'failed')),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX payments_booking ON payments (booking_id);
      -- The test provider keeps one payment per booking (Stripe gets the same from its idempotency key),
      -- so two concurrent checkouts of one booking can never both be charged.
      CREATE UNIQUE INDEX payments_test_one_per_booking ON payments (booking_id) WHERE provider = 'test';
    `,
  },
  {
    // The test provider's refunds, one per idempotency key (Stripe keeps the same on its side).
    name: "002_test_refunds",
    sql: `
      CREATE TABLE test_refunds (
        idempotency_key text PRIMARY KEY,
        refund_id text NOT NULL UNIQUE,
        payment_id text NOT NULL,
        booking_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX test_refunds_payment ON test_refunds (payment_id);
    `,
  },
];
