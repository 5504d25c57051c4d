// What other areas use of no-shows/: they import it from here, never from its files (eslint.config.js).

export { noShowRoutes } from "./routes.ts";
export { settleUncontestedNoShows, startNoShowSweeper } from "./sweeper.ts";
