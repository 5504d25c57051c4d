import PDFDocument from "pdfkit";
import { momentText, type Currency } from "@booking/contracts";

// A receipt as a PDF (issue 29.7): one page naming the platform, the parties, the session and its
// date in the reader's zone (the zone named), the amount with its currency and the provider's id.
// The same facts always make the same document: its creation date is the payment's or refund's time.

/** The platform's name as receipts and statements print it (the mails' product name). */
export const PLATFORM_NAME = "Expert Sessions";

export type ReceiptKind = "payment" | "refund";

/** Everything a receipt states; `key` is the id of the event it is the receipt of. */
export type ReceiptFacts = {
  kind: ReceiptKind;
  key: string;
  bookingId: string;
  /** The provider's payment id (a payment) or refund id (a refund). */
  providerId: string;
  amountCents: number;
  currency: Currency;
  /** When the money moved (the event's time). */
  at: string;
  sessionTitle: string;
  sessionStart: string;
  lengthMinutes: number;
  creatorName: string;
  expertName: string;
};

/** The reader's zone and where it came from, printed under the dates so nobody has to guess it. */
export type ReaderZone = { zone: string; source: "account" | "query" | "default" };

const LOCALE = "en-GB";

/** "$150.00 USD", "€49.50 EUR": minor units as the currency writes them, the ISO code always named. */
export function moneyText(cents: number, currency: string): string {
  const text = new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "narrowSymbol" }).format(cents / 100);
  return `${text} ${currency}`;
}

/** A person's name from its parts, or the fallback when the account has none. */
export const personName = (first: string | null | undefined, last: string | null | undefined, fallback: string): string =>
  [first, last]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(" ") || fallback;

const zoneNote = ({ zone, source }: ReaderZone): string =>
  source === "account"
    ? `Times are in ${zone}, the time zone of your account.`
    : source === "query"
      ? `Times are in ${zone}, as asked.`
      : "Times are in UTC (no time zone is on file for your account).";

/** Render a document to bytes: pdfkit writes a stream; it is collected whole. */
export function pdfBytes(draw: (doc: PDFKit.PDFDocument) => void, info: { title: string; at: string }): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    info: { Title: info.title, Author: PLATFORM_NAME, CreationDate: new Date(info.at) },
  });
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    draw(doc);
    doc.end();
  });
}

/** Label and value rows, two columns. */
export function detailRows(doc: PDFKit.PDFDocument, rows: readonly [string, string][]): void {
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font("Helvetica").fontSize(10).fillColor("#616e7c").text(label, 56, y, { width: 150 });
    doc.font("Helvetica-Bold").fontSize(11).fillColor("#1f2933").text(value, 210, y, { width: 330 });
    doc.moveDown(0.6);
  }
}

export function receiptTitle(kind: ReceiptKind): string {
  return kind === "payment" ? "Payment receipt" : "Refund receipt";
}

export function receiptPdf(r: ReceiptFacts, reader: ReaderZone): Promise<Buffer> {
  const when = (iso: string) => momentText(iso, { locale: LOCALE, zone: reader.zone });
  return pdfBytes(
    (doc) => {
      doc.font("Helvetica-Bold").fontSize(12).fillColor("#3e4c59").text(PLATFORM_NAME);
      doc.moveDown(1.5);
      doc.font("Helvetica-Bold").fontSize(22).fillColor("#1f2933").text(receiptTitle(r.kind));
      doc.moveDown(0.3);
      doc.font("Helvetica").fontSize(10).fillColor("#616e7c").text(`Receipt ${r.key}`);
      doc.moveDown(1.5);
      detailRows(doc, [
        [r.kind === "payment" ? "Paid" : "Refunded", moneyText(r.amountCents, r.currency)],
        [r.kind === "payment" ? "Paid on" : "Refunded on", when(r.at)],
        [r.kind === "payment" ? "Payment id" : "Refund id", r.providerId],
        ["Creator", r.creatorName],
        ["Expert", r.expertName],
        ["Session", r.sessionTitle],
        ["Session date", when(r.sessionStart)],
        ["Length", `${r.lengthMinutes} minutes`],
        ["Booking", r.bookingId],
      ]);
      doc.moveDown(1);
      doc.font("Helvetica").fontSize(9).fillColor("#7b8794").text(zoneNote(reader));
      doc.text(
        r.kind === "payment"
          ? `${PLATFORM_NAME} received this payment for the session above. The price includes the platform's fee; nothing was added.`
          : `${PLATFORM_NAME} refunded this amount to the card the session was paid with.`,
      );
    },
    { title: `${receiptTitle(r.kind)} ${r.key}`, at: r.at },
  );
}
