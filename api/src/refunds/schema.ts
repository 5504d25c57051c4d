import type { Migration } from "@booking/contracts";

// The refund reactor's own tables: where it has read the log up to, which payment each booking was
// paid with, and every refund the log says is owed with what became of it. Written together with
// the checkpoint (one transaction), so a crash never loses an owed refund nor reads one twice.

export const refundsMigrations: readonly Migration[] = [
  {
    name: "001_refunds",
    sql: `
      CREATE TABLE refund_checkpoints (
        name text PRIMARY KEY,
        -- formatPosition: "commit:prepare"
        position text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- The first payment of each booking: a cancellation owes its refund back to it.
      CREATE TABLE refund_booking_payments (
        booking_id text PRIMARY KEY,
        payment_id text NOT NULL
      );
      CREATE TABLE refunds (
        -- The id of the event that owed it (a refunding Cancelled, or RefundDue)
        refund_key text PRIMARY KEY,
        booking_id text NOT NULL,
        expert_id text NOT NULL,
        payment_id text,
        amount_cents bigint NOT NULL,
        reason text NOT NULL,
        owed_at timestamptz NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed', 'issued')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        refund_id text,
        provider text,
        issued_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX refunds_due ON refunds (next_attempt_at) WHERE status <> 'issued';
      CREATE INDEX refunds_booking ON refunds (booking_id);
    `,
  },
  {
    // Refunds the provider reported that the product did not record (reported-refund.ts), for an admin to look into.
    name: "002_unmatched_provider_refunds",
    sql: `
      CREATE TABLE unmatched_provider_refunds (
        refund_id text PRIMARY KEY,
        provider text NOT NULL,
        amount_cents bigint NOT NULL,
        provider_status text,
        -- What its metadata claims, when it names them.
        booking_id text,
        refund_key text,
        why text NOT NULL CHECK (why IN ('unknown_refund', 'over_refund', 'amount_differs')),
        event_id text NOT NULL,
        reports int NOT NULL DEFAULT 1,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      );
      CREATE INDEX unmatched_provider_refunds_seen ON unmatched_provider_refunds (last_seen_at DESC);
    `,
  },
];
