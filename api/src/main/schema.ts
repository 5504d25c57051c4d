import type pg from "pg";
import { migrate } from "@booking/event-store";
import { migrateReadModels } from "@booking/projections";
import { adminMigrations } from "../admin/index.ts";
import { authMigrations } from "../auth/index.ts";
import { creatorWritesMigrations } from "../bookings/index.ts";
import { calendarInviteMigrations } from "../calendar-invites/index.ts";
import { earlyAccessMigrations } from "../early-access/index.ts";
import { externalCalendarMigrations } from "../external-calendars/index.ts";
import { rateLimitMigrations } from "../http/index.ts";
import { mailMigrations } from "../mail/index.ts";
import { paymentsMigrations } from "../payments/index.ts";
import { payoutsMigrations } from "../payouts/index.ts";
import { reconciliationMigrations } from "../reconciliation/index.ts";
import { refundsMigrations } from "../refunds/index.ts";

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
  await migrate(db, "reconciliation_migrations", reconciliationMigrations);
  await migrate(db, "payouts_migrations", payoutsMigrations);
  await migrate(db, "external_calendar_migrations", externalCalendarMigrations);
  await migrate(db, "booking_migrations", creatorWritesMigrations);
}
