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
];
