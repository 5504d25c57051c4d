// What other areas use of admin/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { adminMigrations } from "./schema.ts";
export { adminRoutes } from "./routes.ts";
export { bookingTimeline, timelineEntry } from "./bookings.ts";
export {
  Flag,
  IdText,
  ListQueryString,
  ListRange,
  MAX_LIST_ROWS,
  RecordIdParams,
  SqlWhere,
  listPage,
  oneOrMany,
  parseJsonParam,
  sendList,
  type ListSpec,
} from "./list-query.ts";
