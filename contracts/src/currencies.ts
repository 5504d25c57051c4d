// The currencies as plain constants, without zod: what a browser's first page imports to write a
// price (web/src/shared/money.ts) without loading the schemas. money.ts builds the schema on them.

/** The currencies an expert may price a session in (issue 29.8). */
export const CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD"] as const;
export type CurrencyCode = (typeof CURRENCIES)[number];
/** A session saved before sessions had a currency, and everything paid for it, is in US dollars. */
export const DEFAULT_CURRENCY: CurrencyCode = "USD";
