import type { Migration } from "@booking/contracts";

// The mail outbox: every message we owe someone, rendered once and kept as it will be sent, so a
// retry never sends a different message. Booking mails are written by the mail reactor in the
// same transaction as its checkpoint; account mails (verification, password reset) by the auth
// routes in the transaction that makes them owed. The sender delivers due rows and marks them.

export const mailMigrations: readonly Migration[] = [
  {
    name: "001_mail_outbox",
    sql: `
      CREATE TABLE mail_outbox (
        -- Deterministic for mails owed by an event ("{eventId}:{kind}:{userId}"), so reading the
        -- event again queues nothing new; the SMTP Message-ID is made from it.
        message_id text PRIMARY KEY,
        kind text NOT NULL,
        -- Essential mails (verification, reset, booking changes) are sent whatever the preferences.
        essential boolean NOT NULL,
        user_id text,
        to_address text NOT NULL,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        -- [{ filename, contentType, content }]: the seam for the calendar invite (.ics) of confirmed bookings.
        attachments jsonb NOT NULL DEFAULT '[]'::jsonb,
        booking_id text,
        -- Not before: a reminder waits for its time; everything else is due when queued.
        send_after timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'skipped', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        -- A sender took it until then; a sender killed mid-send leaves it due again after this.
        leased_until timestamptz,
        last_error text,
        skipped_reason text,
        sent_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX mail_outbox_due ON mail_outbox (send_after) WHERE status = 'pending';
      CREATE INDEX mail_outbox_booking ON mail_outbox (booking_id) WHERE status = 'pending';
      CREATE INDEX mail_outbox_user ON mail_outbox (user_id, created_at);
      CREATE INDEX mail_outbox_to ON mail_outbox (lower(to_address), created_at);
    `,
  },
  {
    // The mail reactor's own tables: where it has read the log up to, and what it needs to write a
    // mail (who people are and how they want mail, each expert's schedule zone, each booking),
    // written with the checkpoint in one transaction. `version` is the stream version of the last
    // event applied to a row: a redelivered older event changes nothing and owes no mail again.
    name: "002_mail_reactor",
    sql: `
      CREATE TABLE mail_checkpoints (
        name text PRIMARY KEY,
        -- formatPosition: "commit:prepare"
        position text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE mail_people (
        user_id text PRIMARY KEY,
        email text NOT NULL,
        first_name text,
        last_name text,
        -- null: never given; times are written in UTC then
        timezone text,
        reminder_mails boolean NOT NULL DEFAULT true,
        version int NOT NULL
      );
      CREATE TABLE mail_calendars (
        expert_id text PRIMARY KEY,
        timezone text NOT NULL,
        version int NOT NULL
      );
      CREATE TABLE mail_bookings (
        booking_id text PRIMARY KEY,
        expert_id text NOT NULL,
        expert_user_id text NOT NULL,
        creator_id text NOT NULL,
        title text NOT NULL,
        starts_at timestamptz NOT NULL,
        length_minutes int NOT NULL,
        price_cents bigint NOT NULL,
        paid_cents bigint NOT NULL DEFAULT 0,
        version int NOT NULL
      );
      -- A reminder not sent by its session's start is skipped, not sent late.
      ALTER TABLE mail_outbox ADD COLUMN send_before timestamptz;
    `,
  },
  {
    // Which of the recipient's preferences a reminder was queued under (their user stream's
    // version then): an opt-out read again later skips only the reminders queued before it.
    name: "003_mail_preferences_version",
    sql: "ALTER TABLE mail_outbox ADD COLUMN preferences_version int;",
  },
  {
    // Whether the booking is confirmed: an accepted move of a confirmed booking owes reminders for its new time.
    name: "004_mail_bookings_confirmed",
    sql: `ALTER TABLE mail_bookings ADD COLUMN confirmed boolean NOT NULL DEFAULT false;`,
  },
  {
    // The meeting link the expert set: mails and invites carry it.
    name: "005_mail_bookings_join_link",
    sql: `ALTER TABLE mail_bookings ADD COLUMN join_link text;`,
  },
  {
    // Issue 27.6 and 27.13: instant booking (its payment owes no request mail), the expert's deadline the creator's mail names, the generated room.
    name: "006_mail_bookings_instant_respond_by_room",
    sql: `ALTER TABLE mail_bookings ADD COLUMN instant boolean NOT NULL DEFAULT false, ADD COLUMN respond_by timestamptz, ADD COLUMN meeting_room text;`,
  },
  {
    // Issue 29.7: the creator's payment and refund mails carry their receipt (a PDF): the booking's currency and its last payment.
    name: "007_mail_bookings_receipts",
    sql: `ALTER TABLE mail_bookings ADD COLUMN currency text, ADD COLUMN payment_event_id text, ADD COLUMN payment_id text, ADD COLUMN paid_at timestamptz;`,
  },
  {
    // Issue 30: whose account each expert's profile is, so the expert's vetting decisions are mailed to them.
    name: "008_mail_experts",
    sql: `CREATE TABLE mail_experts (expert_id text PRIMARY KEY, user_id text NOT NULL, version int NOT NULL);`,
  },
  {
    // Issue 31.4: the cut-off a booking was made under, for the "cancel by" line; bookings before it were made under 24 hours.
    name: "009_mail_bookings_full_refund_hours",
    sql: `ALTER TABLE mail_bookings ADD COLUMN full_refund_hours int NOT NULL DEFAULT 24;`,
  },
  {
    // Issue 31.3: who muted which booking's conversation (no new-message mails to them).
    name: "010_mail_muted_threads",
    sql: `CREATE TABLE mail_muted_threads (booking_id text NOT NULL, user_id text NOT NULL, muted boolean NOT NULL, version int NOT NULL,
      PRIMARY KEY (booking_id, user_id));`,
  },
  {
    // Issue 35.3: the W3C trace context the mail was owed under (the owing event's, or the request's), so its delivery
    // joins that trace. Null while tracing is off.
    name: "011_mail_outbox_trace_parent",
    sql: "ALTER TABLE mail_outbox ADD COLUMN trace_parent text;",
  },
];
