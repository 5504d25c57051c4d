// What other areas use of refunds/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { refundFact } from "./owed.ts";
export { judgeReportedRefund } from "./reported-refund.ts";
export { refundsMigrations } from "./schema.ts";
export { refundsConfig } from "./config.ts";
export { recordFact, refundColumns, refundFromPg } from "./refunds-table.ts";
export { askedRefund, listUnmatched, refundableCents, unmatchedColumns, unmatchedFromPg } from "./unmatched-refunds-table.ts";
export { recordRefundFailed, recordRefundIssued } from "./record-refund.ts";
export { RefundReactor } from "./reactor.ts";
