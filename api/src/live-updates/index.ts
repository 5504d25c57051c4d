// What other areas use of live-updates/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { BookingFeed } from "./booking-feed.ts";
export { streamRoutes } from "./routes.ts";
export type { StreamLimits } from "./routes.ts";
