// What other areas use of personal-data/: they import it from here, never from its files (eslint.config.js).

export { personalDataRoutes } from "./routes.ts";
export { erasureRoutes } from "./erasure-routes.ts";
export type { DataKeys } from "./erasure.ts";
