import { monthText } from "@booking/contracts";
import { detailRows, moneyText, pdfBytes, PLATFORM_NAME } from "../receipts/index.ts";
import type { Statement } from "./statement.ts";

// The statement as a PDF: the month's earnings per booking (session, date, paid, refunded, fee,
// share), transfers, reversals and payouts, then per currency the totals and the balance owed to
// the expert at the month's start and end. Dates in UTC, as the month is.

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

export function statementPdf(s: Statement, expertName: string, at: string): Promise<Buffer> {
  const title = `Statement for ${monthText(s.month, "en-GB")}`;
  return pdfBytes(
    (doc) => {
      doc.font("Helvetica-Bold").fontSize(12).fillColor("#3e4c59").text(PLATFORM_NAME);
      doc.moveDown(1);
      doc.font("Helvetica-Bold").fontSize(20).fillColor("#1f2933").text(title);
      doc.font("Helvetica").fontSize(10).fillColor("#616e7c").text(`${expertName} (expert ${s.expertId}). Dates in UTC.`);
      doc.moveDown(1);
      const heading = (text: string) => {
        doc.moveDown(0.5);
        doc.font("Helvetica-Bold").fontSize(13).fillColor("#1f2933").text(text, 56);
        doc.moveDown(0.3);
      };
      const row = (cells: string[], widths: number[], bold = false) => {
        const y = doc.y;
        let x = 56;
        doc
          .font(bold ? "Helvetica-Bold" : "Helvetica")
          .fontSize(8.5)
          .fillColor("#1f2933");
        let bottom = y;
        cells.forEach((cell, i) => {
          doc.text(cell, x, y, { width: widths[i]! - 4 });
          bottom = Math.max(bottom, doc.y);
          x += widths[i]!;
        });
        doc.x = 56;
        doc.y = bottom + 3;
        if (doc.y > 760) doc.addPage();
      };
      heading("Earnings");
      const earningWidths = [56, 120, 56, 64, 64, 64, 64];
      row(["Date", "Session", "Session date", "Paid", "Refunded", "Fee", "Your share"], earningWidths, true);
      if (!s.earnings.length) row(["No earnings were released this month."], [480]);
      for (const e of s.earnings)
        row(
          [
            day(e.at),
            e.event === "released" ? e.session : `${e.session} (refund after release)`,
            day(e.sessionDate),
            moneyText(e.paidCents, e.currency),
            moneyText(e.refundedCents, e.currency),
            moneyText(e.feeCents, e.currency),
            moneyText(e.shareCents, e.currency),
          ],
          earningWidths,
        );
      heading("Transfers, reversals and payouts");
      const movementWidths = [70, 90, 220, 100];
      row(["Date", "What", "Booking", "Amount"], movementWidths, true);
      if (!s.movements.length) row(["None this month."], [480]);
      const label = { transfer: "Transfer", reversal: "Reversal", payout: "Payout" } as const;
      for (const m of s.movements) row([day(m.at), label[m.kind], m.bookingId ?? "", moneyText(m.amountCents, m.currency)], movementWidths);
      for (const t of s.totals) {
        heading(`Totals in ${t.currency}`);
        const money = (cents: number) => moneyText(cents, t.currency);
        detailRows(doc, [
          ["Owed to you at the start", money(t.opening_cents)],
          ["Earnings released", money(t.earnings_cents)],
          ["Fee", money(t.fee_cents)],
          ["Refunds after release", money(t.refunds_cents)],
          ["Your share", money(t.share_cents)],
          ["Transferred", money(t.transfers_cents)],
          ["Reversed", money(t.reversals_cents)],
          ["Paid out", money(t.payouts_cents)],
          ["Owed to you at the end", money(t.closing_cents)],
        ]);
      }
      if (!s.totals.length) heading("No money moved this month.");
    },
    { title: `${title} ${s.expertId}`, at },
  );
}
