import type { Migration } from "@booking/contracts";

export const eventStoreMigrations: readonly Migration[] = [
  {
    name: "001_events",
    sql: `
      CREATE TABLE streams (
        stream_id text PRIMARY KEY,
        version bigint NOT NULL CHECK (version >= 0)
      );
      CREATE TABLE events (
        global_position bigserial PRIMARY KEY,
        -- The writing transaction: catch-up readers order by it and never read past the oldest
        -- transaction still running, so an event committed out of order is never skipped.
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        stream_id text NOT NULL,
        version bigint NOT NULL CHECK (version >= 1),
        event_id uuid NOT NULL UNIQUE,
        type text NOT NULL,
        schema_version int NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream_id, version)
      );
      CREATE INDEX events_log_order ON events (transaction_id, global_position);
    `,
  },
];
