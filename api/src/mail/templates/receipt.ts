import { DEFAULT_CURRENCY, type Currency } from "@booking/contracts";
import { personName, receiptPdf, type ReceiptFacts } from "../../receipts/index.ts";
import type { Queryable } from "../../reactors/index.ts";
import type { BookingFact } from "../facts.ts";
import type { BookingState } from "../owed.ts";
import type { OutgoingMail } from "../outbox.ts";

// Receipts by mail (issue 29.7): the creator's mail about a payment ("Request sent", or the
// confirmation of an instant booking) and about a refund ("Your refund is on its way") carries
// the receipt of that payment or refund as a PDF, the same document GET
// /bookings/{id}/receipts/{key}.pdf serves (key: the PaymentSucceeded or RefundIssued event's id),
// with the dates in the creator's zone. A payment that owes the creator no mail (a second payment,
// one for a closed booking) has its receipt only in the app.

/** `currency` as the payment's event gave it (a Currency: the table is written from events only). */
type ReceiptRow = { currency: Currency | null; payment_event_id: string | null; payment_id: string | null; paid_at: Date | null };

/** Which creator mail carries which receipt, for the facts that owe one; null: none. */
function receiptOf(fact: BookingFact, state: BookingState, row: ReceiptRow): { kind: OutgoingMail["kind"]; facts: ReceiptFacts } | null {
  const b = state.booking;
  const parties = {
    bookingId: b.bookingId,
    sessionTitle: b.title,
    sessionStart: b.startsAt,
    lengthMinutes: b.lengthMinutes,
    creatorName: personName(state.creator?.firstName, state.creator?.lastName, "Creator"),
    expertName: personName(state.expert?.firstName, state.expert?.lastName, "Expert"),
  };
  const currency = row.currency ?? DEFAULT_CURRENCY;
  switch (fact.kind) {
    case "paid":
      if (!fact.paymentId) return null;
      return {
        kind: "booking_requested",
        facts: {
          ...parties,
          kind: "payment",
          key: fact.eventId,
          providerId: fact.paymentId,
          amountCents: fact.amountCents,
          currency,
          at: fact.at,
        },
      };
    case "confirmed":
      if (!fact.instant || !row.payment_event_id || !row.payment_id || !row.paid_at) return null;
      return {
        kind: "booking_confirmed",
        facts: {
          ...parties,
          kind: "payment",
          key: row.payment_event_id,
          providerId: row.payment_id,
          amountCents: state.paidCents,
          currency,
          at: row.paid_at.toISOString(),
        },
      };
    case "refund_issued":
      if (!fact.refundId) return null;
      return {
        kind: "refund_issued",
        facts: {
          ...parties,
          kind: "refund",
          key: fact.eventId,
          providerId: fact.refundId,
          amountCents: fact.amountCents,
          currency,
          at: fact.at,
        },
      };
    default:
      return null;
  }
}

/** The mails a fact owes, the creator's payment or refund mail with its receipt attached. */
export async function withReceipts(db: Queryable, fact: BookingFact, state: BookingState, mails: OutgoingMail[]): Promise<OutgoingMail[]> {
  if (fact.kind !== "paid" && fact.kind !== "confirmed" && fact.kind !== "refund_issued") return mails;
  const creatorId = state.creator?.userId;
  if (!creatorId || !mails.some((m) => m.userId === creatorId)) return mails;
  const row = (
    await db.query<ReceiptRow>("SELECT currency, payment_event_id, payment_id, paid_at FROM mail_bookings WHERE booking_id = $1", [
      fact.bookingId,
    ])
  ).rows[0];
  const receipt = row && receiptOf(fact, state, row);
  if (!receipt) return mails;
  const zone = state.creator!.zone;
  const pdf = await receiptPdf(receipt.facts, { zone, source: zone === "UTC" ? "default" : "account" });
  const attachment = {
    filename: `${receipt.facts.kind}-receipt-${receipt.facts.key}.pdf`,
    contentType: "application/pdf",
    content: pdf.toString("base64"),
    encoding: "base64" as const,
  };
  return mails.map((m) =>
    m.userId === creatorId && m.kind === receipt.kind ? { ...m, attachments: [...(m.attachments ?? []), attachment] } : m,
  );
}
