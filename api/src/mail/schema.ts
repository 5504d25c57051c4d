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
];
