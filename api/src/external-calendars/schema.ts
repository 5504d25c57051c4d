import type { Migration } from "@booking/contracts";

// The expert's connected calendars (issue 32). A connection is how to read (an iCal address, or a
// CalDAV account); its calendars are what is read (one for an iCal address, those the account has
// for CalDAV). The address of an iCal connection and the password of a CalDAV one are secrets:
// stored sealed (secret-box.ts), never returned, gone with the connection. Busy times themselves
// are on the expert's calendar stream; the writes table remembers which booking was written where.

export const externalCalendarMigrations: readonly Migration[] = [
  {
    name: "001_external_calendars",
    sql: `
      CREATE TABLE calendar_connections (
        connection_id text PRIMARY KEY,
        expert_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('ics', 'caldav')),
        label text NOT NULL,
        -- ics: the address; caldav: {"serverUrl","username","password"}; sealed with the key from configuration.
        sealed_secret text NOT NULL,
        -- Tells two connections of one source apart without unsealing them (an HMAC, see secret-box.ts).
        source_fingerprint text NOT NULL,
        all_day_blocks boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        last_synced_at timestamptz,
        last_error text,
        failures int NOT NULL DEFAULT 0,
        next_sync_at timestamptz NOT NULL,
        -- At most one read in flight per connection: a reader takes it until then.
        leased_until timestamptz,
        UNIQUE (expert_id, source_fingerprint)
      );
      CREATE INDEX calendar_connections_due ON calendar_connections (next_sync_at);
      CREATE INDEX calendar_connections_expert ON calendar_connections (expert_id);

      CREATE TABLE external_calendars (
        calendar_id text PRIMARY KEY,
        connection_id text NOT NULL REFERENCES calendar_connections (connection_id) ON DELETE CASCADE,
        name text NOT NULL,
        -- The CalDAV collection's address (not secret without the password); null for an iCal address.
        url text,
        blocks boolean NOT NULL,
        receives_bookings boolean NOT NULL DEFAULT false,
        busy_count int NOT NULL DEFAULT 0,
        -- The last read's validators (iCal addresses): an unchanged file is not read again.
        etag text,
        last_modified text,
        -- When the file was last read in full: validators are sent only within the hour after, so the
        -- window of four weeks moves on (recurring events further out appear) even if the file does not change.
        read_in_full_at timestamptz
      );
      CREATE INDEX external_calendars_connection ON external_calendars (connection_id);

      -- Each confirmed booking written into an expert's calendar, and what is due for it.
      CREATE TABLE external_booking_writes (
        booking_id text PRIMARY KEY,
        expert_id text NOT NULL,
        -- The calendar stream's version that asked for the latest write: the booking read model must show it first.
        wanted_version bigint NOT NULL,
        due boolean NOT NULL,
        calendar_id text,
        object_url text,
        written_start timestamptz,
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        leased_until timestamptz,
        last_error text
      );
      CREATE INDEX external_booking_writes_due ON external_booking_writes (next_attempt_at) WHERE due;
      CREATE TABLE external_booking_write_checkpoints (
        name text PRIMARY KEY,
        -- formatPosition: "commit:prepare"
        position text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];
