// What other areas use of external-calendars/: they import it from here, never from its files (eslint.config.js).

export { externalCalendarMigrations } from "./schema.ts";
export { externalCalendarRoutes, type ExternalCalendarRouteDeps } from "./routes.ts";
export { startCalendarSyncSweeper, syncDueCalendars } from "./sweeper.ts";
export { BookingCalendarWriter, type BookingCalendarWriterDeps } from "./reactor.ts";
export { calendarSecretsKey, secretBox, type SecretBox } from "./secret-box.ts";
export { calendarFetch, type CalendarFetchPolicy } from "./calendar-fetch.ts";
export type { CalendarSyncDeps } from "./sync.ts";
