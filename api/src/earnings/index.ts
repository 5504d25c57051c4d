// What other areas use of earnings/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { earningsRoutes } from "./routes.ts";
