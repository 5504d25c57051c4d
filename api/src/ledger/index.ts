// What other areas use of ledger/: they import it from here, never from its files (eslint.config.js).

export { ledgerRoutes } from "./routes.ts";
