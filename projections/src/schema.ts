import type { Migration } from "@booking/contracts";
import { bookingMigrations } from "./read-models/bookings.ts";
import { reviewMigrations } from "./read-models/reviews.ts";
import { conversationMigrations } from "./read-models/conversations.ts";
import { earningsMigrations } from "./read-models/earnings.ts";
import { userMigrations } from "./read-models/users.ts";
import { scheduleMigrations } from "./read-models/schedules.ts";
import { sessionMigrations } from "./read-models/sessions.ts";
import { ledgerMigrations } from "./read-models/ledger.ts";
import { expertMigrations } from "./read-models/experts.ts";

// Read models. Every row remembers the version of the stream it reflects (`stream_version`):
// a projection writes only when the event is newer, so a redelivered or older event is a no-op.
// Times come from the events, never from now(), so a replay rebuilds identical rows.

export const readModelMigrations: readonly Migration[] = [
  {
    name: "001_read_models",
    sql: `
      CREATE TABLE projection_checkpoints (
        name text PRIMARY KEY,
        position text,
        status text NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'rebuilding')),
        events_applied bigint NOT NULL DEFAULT 0,
        last_error text,
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE users (
        user_id text PRIMARY KEY,
        email text NOT NULL,
        role text NOT NULL,
        first_name text,
        last_name text,
        registered_at timestamptz NOT NULL,
        stream_version bigint NOT NULL
      );
      CREATE INDEX users_email ON users (lower(email));

      CREATE TABLE experts (
        expert_id text PRIMARY KEY,
        user_id text NOT NULL,
        slug text NOT NULL UNIQUE,
        first_name text NOT NULL,
        last_name text NOT NULL,
        title text NOT NULL,
        bio text,
        tags text[] NOT NULL DEFAULT '{}',
        profile_image text,
        published boolean NOT NULL,
        verified boolean NOT NULL DEFAULT false,
        vetted_by text,
        updated_at timestamptz NOT NULL,
        stream_version bigint NOT NULL
      );
      CREATE INDEX experts_user ON experts (user_id);
      CREATE INDEX experts_published ON experts (published) WHERE published;

      CREATE TABLE sessions (
        session_id text PRIMARY KEY,
        expert_id text NOT NULL,
        title text NOT NULL,
        description text NOT NULL,
        price_cents bigint NOT NULL,
        length_minutes int NOT NULL,
        prep_questions jsonb NOT NULL,
        session_details text NOT NULL,
        ideal_for jsonb NOT NULL,
        status text NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        stream_version bigint NOT NULL
      );
      CREATE INDEX sessions_expert ON sessions (expert_id) WHERE NOT deleted;

      CREATE TABLE schedules (
        expert_id text PRIMARY KEY,
        timezone text NOT NULL,
        slots jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        stream_version bigint NOT NULL
      );

      CREATE TABLE bookings (
        booking_id text PRIMARY KEY,
        expert_id text NOT NULL,
        expert_user_id text NOT NULL,
        creator_id text NOT NULL,
        session_id text NOT NULL,
        session_title text NOT NULL,
        price_cents bigint NOT NULL,
        length_minutes int NOT NULL,
        scheduled_time timestamptz NOT NULL,
        previous_time timestamptz,
        held_until timestamptz NOT NULL,
        status text NOT NULL,
        paid_cents bigint NOT NULL DEFAULT 0,
        refund_due_cents bigint NOT NULL DEFAULT 0,
        payment_state text NOT NULL DEFAULT 'unpaid',
        prep_questions jsonb NOT NULL,
        prep_answers jsonb,
        info_request_note text,
        notes jsonb,
        cancelled_by text,
        cancel_reason text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        stream_version bigint NOT NULL
      );
      CREATE INDEX bookings_expert ON bookings (expert_id, scheduled_time);
      CREATE INDEX bookings_expert_user ON bookings (expert_user_id, scheduled_time);
      CREATE INDEX bookings_creator ON bookings (creator_id, scheduled_time);
      CREATE INDEX bookings_status ON bookings (status, created_at);

      CREATE TABLE booking_events (
        event_id text PRIMARY KEY,
        booking_id text NOT NULL,
        expert_id text NOT NULL,
        stream_version bigint NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        actor jsonb,
        occurred_at timestamptz NOT NULL,
        position text NOT NULL
      );
      CREATE INDEX booking_events_booking ON booking_events (booking_id, stream_version);

      CREATE TABLE terms_acceptances (
        user_id text NOT NULL,
        version_id text NOT NULL,
        accepted_at timestamptz NOT NULL,
        stream_version bigint NOT NULL,
        PRIMARY KEY (user_id, version_id)
      );
      CREATE INDEX terms_acceptances_time ON terms_acceptances (accepted_at);

      CREATE TABLE earnings (
        expert_id text NOT NULL,
        month text NOT NULL,
        payments_count int NOT NULL,
        paid_cents bigint NOT NULL,
        refunded_cents bigint NOT NULL,
        stream_version bigint NOT NULL,
        PRIMARY KEY (expert_id, month)
      );
    `,
  },
  {
    // The experts listing reads published experts in this order with a LIMIT: the index hands
    // them over in order, so a listing no longer sorts every published expert.
    name: "002_experts_listing_order",
    sql: `
      CREATE INDEX experts_listing ON experts (verified DESC, last_name, first_name, expert_id) WHERE published;
    `,
  },
  // Each read model adds its own later changes in its module.
  ...bookingMigrations,
  ...reviewMigrations,
  ...earningsMigrations,
  ...userMigrations,
  ...scheduleMigrations,
  ...sessionMigrations,
  ...conversationMigrations,
  {
    // Blue-green rebuilds (generations.ts): the live generation's number and the version of the
    // rule that built it, beside its checkpoint; other generations (one being built, old ones
    // kept until dropped) in a table of their own. A rebuild left 'rebuilding' by the old
    // in-place rebuild had its rows committed with its checkpoint: live again, it continues.
    name: "011_projection_generations",
    sql: `
      ALTER TABLE projection_checkpoints
        ADD COLUMN generation int NOT NULL DEFAULT 1,
        ADD COLUMN version int NOT NULL DEFAULT 1;
      UPDATE projection_checkpoints SET status = 'live' WHERE status = 'rebuilding';
      CREATE TABLE projection_generations (
        name text NOT NULL,
        generation int NOT NULL,
        version int NOT NULL,
        state text NOT NULL CHECK (state IN ('building', 'retired')),
        position text,
        events_applied bigint NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz,
        PRIMARY KEY (name, generation)
      );
      CREATE UNIQUE INDEX projection_generations_one_building ON projection_generations (name) WHERE state = 'building';
    `,
  },
  {
    // From Kafka, partitions are applied in no global order, so a checkpoint (the furthest position
    // applied on any partition) does not say that an earlier position was applied. Each stream's
    // version applied does: read-your-writes waits on it (apply.ts, delivery "bus").
    name: "012_projected_streams",
    sql: `
      CREATE TABLE projected_streams (
        stream_id text PRIMARY KEY,
        version bigint NOT NULL
      );
    `,
  },
  ...ledgerMigrations,
  ...expertMigrations,
];
