import type { Migration } from "@booking/contracts";

// The API's own table of early-access requests: what visitors asked for from the landing page,
// before they have an account. Not domain events: nothing is decided on them; the console lists them.

export const earlyAccessMigrations: readonly Migration[] = [
  {
    name: "001_early_access_requests",
    sql: `
      CREATE TABLE early_access_requests (
        id text PRIMARY KEY,
        -- Lowercased by the body schema: one request per address, however it is typed.
        email text NOT NULL UNIQUE,
        name text NOT NULL,
        role text NOT NULL,
        need text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX early_access_requests_created ON early_access_requests (created_at);
    `,
  },
  {
    // Anyone who knows an address can send the form for it: a later request replaces the one shown
    // but never erases it. The versions it replaced, in the order they came (id).
    name: "002_early_access_earlier_versions",
    sql: `
      CREATE TABLE early_access_earlier_versions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        request_id text NOT NULL REFERENCES early_access_requests (id) ON DELETE CASCADE,
        name text NOT NULL,
        role text NOT NULL,
        need text NOT NULL,
        asked_at timestamptz NOT NULL,
        replaced_at timestamptz NOT NULL
      );
      CREATE INDEX early_access_earlier_versions_request ON early_access_earlier_versions (request_id, id);
    `,
  },
];
