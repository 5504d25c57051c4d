// What other areas use of calendar-invites/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { endFeedAddress } from "./feed.ts";
export { calendarInviteMigrations } from "./schema.ts";
export { calendarText } from "./ics.ts";
export { bookingInvite, type InviteSettings } from "./booking-invite.ts";
export type { Addressee, CalendarMethod } from "./ics.ts";
export { calendarInviteRoutes } from "./routes.ts";
