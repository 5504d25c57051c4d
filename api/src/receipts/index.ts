// What other areas use of receipts/: they import it from here, never from its files (eslint.config.js).

export { receiptRoutes } from "./routes.ts";
export { receiptPdf, moneyText, personName, pdfBytes, detailRows, PLATFORM_NAME } from "./receipt-pdf.ts";
export type { ReceiptFacts, ReceiptKind, ReaderZone } from "./receipt-pdf.ts";
