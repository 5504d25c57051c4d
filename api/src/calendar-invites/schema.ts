import type { Migration } from "@booking/contracts";

// A feed's address is signed, not stored: the table keeps only each user's feed generation, and
// regenerating raises it, so every older address stops working at once.

export const calendarInviteMigrations: readonly Migration[] = [
  {
    name: "001_calendar_feeds",
    sql: `
      CREATE TABLE calendar_feeds (
        user_id text PRIMARY KEY,
        generation int NOT NULL,
        updated_at timestamptz NOT NULL
      );
    `,
  },
];
