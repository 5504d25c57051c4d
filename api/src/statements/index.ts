// What other areas use of statements/: they import it from here, never from its files (eslint.config.js).

export { statementRoutes } from "./routes.ts";
export { statementOf } from "./statement.ts";
export type { Statement, EarningLine, MoneyLine, CurrencyTotals } from "./statement.ts";
