import { DISPUTE_STATUS_LABELS, momentText, type AdminDisputeReply, type TimelineEntry } from "@booking/contracts";
import { detailRows, moneyText, pdfBytes, PLATFORM_NAME } from "../receipts/index.ts";

// A dispute's evidence as one document (issue 31.2): the dispute, the booking, and the booking's whole history from the
// event log (request, payment, acceptance, the creator's preparation answers, the meeting link, no-show reports, notes,
// the conversation's messages),
// in UTC, to submit to the payment provider. The same facts always make the same document.

export type EvidenceFacts = { dispute: AdminDisputeReply; creatorName: string; expertName: string; timeline: readonly TimelineEntry[] };

const utc = (iso: string) => momentText(iso, { locale: "en-GB", zone: "UTC" });

/** One step of the history in words: what happened, from the event's own data. */
export function evidenceLine(e: TimelineEntry, currency: string): string {
  const d = e.data as Record<string, unknown>;
  const text = (k: string) => (typeof d[k] === "string" ? (d[k] as string) : "");
  const cents = (k: string) => (typeof d[k] === "number" ? moneyText(d[k] as number, currency) : "");
  switch (e.type) {
    case "BookingRequested":
      return `The creator requested "${text("sessionTitle")}" for ${utc(text("scheduledTime"))}, ${String(d.lengthMinutes)} minutes.`;
    case "PaymentSucceeded":
      return `The creator paid ${cents("amountCents")} (payment ${text("paymentId")}).`;
    case "Confirmed":
      return d.instant ? "Confirmed on payment (instant booking)." : "The expert accepted the booking.";
    case "PrepSubmitted":
      return `The creator answered the preparation questions: ${(d.answers as string[]).map((a) => `"${a}"`).join("; ")}.`;
    case "InfoRequested":
      return `The expert asked for more information: "${text("note")}".`;
    case "JoinLinkSet":
      return `The expert set the meeting link: ${text("url")}.`;
    case "RescheduleAccepted":
      return `Moved from ${utc(text("from"))} to ${utc(text("to"))}.`;
    case "Completed":
      return "The session's end passed and it was completed.";
    case "NotesAdded":
      return "The expert shared session notes with the creator.";
    case "MessageSent":
      return `The ${text("role")} wrote: "${text("text")}"`;
    case "NoShowReported":
      return `A no-show of the ${text("absent")} was reported${text("note") ? `: "${text("note")}"` : "."}`;
    case "NoShowContested":
      return `The report was contested${text("note") ? `: "${text("note")}"` : "."}`;
    case "NoShowSettled":
      return `The no-show report was settled as ${text("outcome").replaceAll("_", " ")}, ${cents("refundCents")} refunded: ${text("reason")}.`;
    case "Cancelled":
      return `Cancelled by the ${text("by")}, ${cents("refundCents")} owed back${text("reason") ? `: "${text("reason")}"` : "."}`;
    case "RefundDue":
      return `${cents("amountCents")} owed back to the creator.`;
    case "RefundIssued":
      return `${cents("amountCents")} refunded to the creator (refund ${text("refundId")}).`;
    case "DisputeOpened":
    case "DisputeUpdated":
    case "DisputeClosed":
      return `Dispute ${text("disputeId")}: ${DISPUTE_STATUS_LABELS[text("status") as keyof typeof DISPUTE_STATUS_LABELS] ?? text("status")}.`;
    default:
      return e.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() + ".";
  }
}

export function evidencePdf(f: EvidenceFacts): Promise<Buffer> {
  const d = f.dispute;
  return pdfBytes(
    (doc) => {
      doc.font("Helvetica-Bold").fontSize(12).fillColor("#3e4c59").text(PLATFORM_NAME);
      doc.moveDown(1);
      doc.font("Helvetica-Bold").fontSize(20).fillColor("#1f2933").text("Dispute evidence");
      doc.moveDown(0.3);
      doc.font("Helvetica").fontSize(10).fillColor("#616e7c").text(`Dispute ${d.dispute_id} of payment ${d.payment_id}. Times are in UTC.`);
      doc.moveDown(1);
      detailRows(doc, [
        ["Disputed", moneyText(d.amount_cents, d.currency)],
        ["Reason given", d.reason],
        ["Status", DISPUTE_STATUS_LABELS[d.status]],
        ["Evidence due by", d.evidence_due_by ? utc(d.evidence_due_by) : "—"],
        ["Session", d.session_title],
        ["Scheduled for", utc(d.scheduled_time)],
        ["Paid", moneyText(d.paid_cents, d.currency)],
        ["Creator (the customer)", f.creatorName],
        ["Expert", f.expertName],
      ]);
      doc.moveDown(0.5);
      doc.font("Helvetica-Bold").fontSize(14).fillColor("#1f2933").text("The booking's history");
      doc.moveDown(0.5);
      for (const e of f.timeline) {
        doc.font("Helvetica-Bold").fontSize(9).fillColor("#616e7c").text(utc(e.time));
        doc.font("Helvetica").fontSize(10).fillColor("#1f2933").text(evidenceLine(e, d.currency));
        doc.moveDown(0.4);
      }
    },
    { title: `Dispute evidence ${d.dispute_id}`, at: d.opened_at },
  );
}
