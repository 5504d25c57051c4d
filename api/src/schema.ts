import type pg from "pg";
import { migrate } from "@booking/event-store";
import { migrateReadModels } from "@booking/projections";
import { adminMigrations } from "./admin/schema.ts";
import { authMigrations } from "./auth/schema.ts";
import { calendarInviteMigrations } from "./calendar-invites/schema.ts";
import { earlyAccessMigrations } from "./early-access/schema.ts";
import { rateLimitMigrations } from "./http/rate-limit-store.ts";
import { mailMigrations } from "./mail/schema.ts";
import { paymentsMigrations } from "./payments/schema.ts";
import { refundsMigrations } from "./refunds/schema.ts";

/** The read models and the API's own tables, each area with its own migration history. */
export async function migrateApiDatabase(db: pg.Pool): Promise<void> {
  await migrateReadModels(db);
  await migrate(db, "auth_migrations", authMigrations);
  await migrate(db, "payments_migrations", paymentsMigrations);
  await migrate(db, "admin_migrations", adminMigrations);
  await migrate(db, "early_access_migrations", earlyAccessMigrations);
  await migrate(db, "refunds_migrations", refundsMigrations);
  await migrate(db, "mail_migrations", mailMigrations);
  await migrate(db, "calendar_invite_migrations", calendarInviteMigrations);
  await migrate(db, "rate_limit_migrations", rateLimitMigrations);
}
