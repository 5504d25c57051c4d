import type { Migration } from "@booking/contracts";

// The payouts area's own tables. The test provider's accounts, transfers, reversals and payouts
// (Stripe keeps the same on its side, one per idempotency key). And the payout reactor's read of the
// log: where it has read up to, each paid booking's money and what became of its share (release,
// transfer, reversals), each payout, and each expert's account and hold. Written with the checkpoint
// in one transaction, so a crash neither loses what is owed nor reads it twice.

export const payoutsMigrations: readonly Migration[] = [
  {
    name: "001_test_payout_provider",
    sql: `
      CREATE TABLE test_payout_accounts (
        account_id text PRIMARY KEY,
        -- One account per expert: asking again answers with the same account.
        expert_id text NOT NULL UNIQUE,
        email text NOT NULL,
        country text,
        payouts_enabled boolean NOT NULL DEFAULT false,
        details_submitted boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- What the platform may still transfer per currency; no row: as much as it is asked (tests lower it).
      CREATE TABLE test_platform_balances (
        currency text PRIMARY KEY,
        available_cents bigint NOT NULL
      );
      CREATE TABLE test_transfers (
        idempotency_key text PRIMARY KEY,
        transfer_id text NOT NULL UNIQUE,
        account_id text NOT NULL,
        booking_id text NOT NULL,
        expert_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX test_transfers_account ON test_transfers (account_id);
      CREATE TABLE test_transfer_reversals (
        idempotency_key text PRIMARY KEY,
        reversal_id text NOT NULL UNIQUE,
        transfer_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX test_transfer_reversals_transfer ON test_transfer_reversals (transfer_id);
      CREATE TABLE test_payouts (
        idempotency_key text PRIMARY KEY,
        payout_id text NOT NULL UNIQUE,
        account_id text NOT NULL,
        expert_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL,
        status text NOT NULL DEFAULT 'paid',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX test_payouts_account ON test_payouts (account_id);
    `,
  },
  {
    name: "002_payouts_read",
    sql: `
      CREATE TABLE payout_checkpoints (
        name text PRIMARY KEY,
        -- formatPosition: "commit:prepare"
        position text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE payout_experts (
        expert_id text PRIMARY KEY,
        account_id text,
        provider text,
        payouts_enabled boolean NOT NULL DEFAULT false,
        details_submitted boolean NOT NULL DEFAULT false,
        held boolean NOT NULL DEFAULT false,
        held_reason text,
        -- The payouts stream's version last applied: a fact read late never undoes a newer one.
        stream_version int NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX payout_experts_account ON payout_experts (account_id) WHERE account_id IS NOT NULL;
      CREATE TABLE payout_bookings (
        booking_id text PRIMARY KEY,
        expert_id text NOT NULL,
        currency text NOT NULL DEFAULT 'USD',
        status text NOT NULL DEFAULT 'requested',
        paid_cents bigint NOT NULL DEFAULT 0,
        -- Owed back in all (refunding cancellations and RefundDue), paid back or not yet.
        refunded_cents bigint NOT NULL DEFAULT 0,
        fee_basis_points int,
        completed_at timestamptz,
        released_at timestamptz,
        released_refunded_cents bigint,
        released_fee_cents bigint,
        released_share_cents bigint,
        -- The refund total the payouts stream last adjusted the earning to.
        adjusted_refunded_cents bigint,
        transfer_key text,
        transfer_status text NOT NULL DEFAULT 'none' CHECK (transfer_status IN ('none', 'pending', 'failed', 'sent')),
        transfer_id text,
        transferred_cents bigint NOT NULL DEFAULT 0,
        transfer_attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_error text,
        transferred_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX payout_bookings_expert ON payout_bookings (expert_id);
      CREATE INDEX payout_bookings_releasable ON payout_bookings (completed_at) WHERE released_at IS NULL AND completed_at IS NOT NULL;
      CREATE INDEX payout_bookings_transfer_due ON payout_bookings (next_attempt_at) WHERE transfer_status IN ('pending', 'failed');
      CREATE UNIQUE INDEX payout_bookings_transfer ON payout_bookings (transfer_id) WHERE transfer_id IS NOT NULL;
      -- One per EarningAdjusted (reversalKeyOf): the share given back, reversed once the transfer went.
      CREATE TABLE payout_reversals (
        reversal_key text PRIMARY KEY,
        booking_id text NOT NULL,
        expert_id text NOT NULL,
        amount_cents bigint NOT NULL,
        currency text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed', 'reversed', 'not_needed')),
        reversal_id text,
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        adjusted_at timestamptz NOT NULL,
        reversed_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX payout_reversals_booking ON payout_reversals (booking_id);
      CREATE INDEX payout_reversals_due ON payout_reversals (next_attempt_at) WHERE status IN ('pending', 'failed');
      CREATE TABLE payout_payouts (
        payout_key text PRIMARY KEY,
        expert_id text NOT NULL,
        amount_cents bigint NOT NULL,
        currency text NOT NULL,
        by text NOT NULL,
        status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'in_transit', 'paid', 'failed')),
        payout_id text,
        failure_reason text,
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        requested_at timestamptz NOT NULL,
        sent_at timestamptz,
        paid_at timestamptz,
        failed_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX payout_payouts_expert ON payout_payouts (expert_id, requested_at DESC);
      CREATE INDEX payout_payouts_due ON payout_payouts (next_attempt_at) WHERE status = 'requested';
      CREATE UNIQUE INDEX payout_payouts_provider_id ON payout_payouts (payout_id) WHERE payout_id IS NOT NULL;
    `,
  },
];
