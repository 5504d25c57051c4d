import { findUser, type BookingWithParties, type Queryable } from "@booking/projections";
import { personName, type ReceiptFacts } from "./receipt-pdf.ts";

// A booking's receipts, from its calendar events as the booking_events read model holds them:
// one per PaymentSucceeded and one per RefundIssued, each in the booking's currency (the read
// model's: its request's; before issue 29 there was only the US dollar).

type EventRow = { event_id: string; type: string; data: Record<string, unknown>; occurred_at: Date | string };

const iso = (at: Date | string) => (at instanceof Date ? at : new Date(at)).toISOString();

export async function receiptsOf(db: Queryable, booking: BookingWithParties): Promise<ReceiptFacts[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT event_id, type, data, occurred_at FROM booking_events
     WHERE booking_id = $1 AND type IN ('PaymentSucceeded', 'RefundIssued')
     ORDER BY expert_id, stream_version`,
    [booking.booking_id],
  );
  const expertUser = await findUser(db, booking.expert_user_id);
  const parties = {
    bookingId: booking.booking_id,
    sessionTitle: booking.session_title,
    sessionStart: booking.scheduled_time,
    lengthMinutes: booking.length_minutes,
    creatorName: personName(booking.creator_first_name, booking.creator_last_name, "Creator"),
    // The expert's account name, as their mails and the receipt mails have it; else their profile's.
    expertName: expertUser
      ? personName(expertUser.first_name, expertUser.last_name, "Expert")
      : personName(booking.expert_first_name, booking.expert_last_name, "Expert"),
  };
  return rows.map((r) => ({
    ...parties,
    kind: r.type === "PaymentSucceeded" ? ("payment" as const) : ("refund" as const),
    key: r.event_id,
    providerId: String(r.type === "PaymentSucceeded" ? r.data.paymentId : r.data.refundId),
    amountCents: Number(r.data.amountCents),
    currency: booking.currency,
    at: iso(r.occurred_at),
  }));
}
