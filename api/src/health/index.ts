// What other areas use of health/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { healthRoutes } from "./routes.ts";
export { OK, databaseCheck, kafkaCheck, readModelChecks, readinessOf, withinTime } from "./readiness.ts";
export type { Readiness } from "./readiness.ts";
