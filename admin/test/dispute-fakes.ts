import type { AdminDisputeReply, DisputeReply, TimelineEntry } from "@booking/contracts";

// Disputes (issue 31.2) as GET /admin/disputes sends them, for the console's dispute tests: three open (one past its
// evidence deadline, one a test dispute, one over a booking partly refunded before it opened) and two closed (lost,
// won). Each is on its own booking, whose history holds its payment; one more booking was paid with the test provider
// and has no dispute. Deadlines are relative to when the tests run, so "in 3 days" and "overdue" read the same.

export const SOON = "dp_test_pi_test_soon";
export const OVERDUE = "dp_1Overdue";
export const LATER = "dp_1Later";
export const LOST = "dp_1Lost";
export const WON = "dp_1Won";
/** Paid with the test provider, no dispute yet. */
export const UNDISPUTED_BOOKING = "00000000-0000-4000-8000-0000000000f0";
export const UNDISPUTED_PAYMENT = "pi_test_undisputed";

const HOUR = 3_600_000;
const at = (hoursFromNow: number) => new Date(Date.now() + hoursFromNow * HOUR).toISOString();

const bookingIdOf = (n: number) => `00000000-0000-4000-8000-0000000000f${n}`;

function row(n: number, id: string, title: string, more: Partial<AdminDisputeReply>): AdminDisputeReply {
  return {
    id,
    dispute_id: id,
    booking_id: bookingIdOf(n),
    expert_id: "00000000-0000-4000-8000-0000000000e1",
    creator_id: "00000000-0000-4000-8000-0000000000d1",
    session_title: title,
    scheduled_time: at(-72),
    currency: "USD",
    paid_cents: 5000,
    payment_id: `pi_${n}`,
    amount_cents: 5000,
    reason: "fraudulent",
    status: "needs_response",
    evidence_due_by: at(24 * 3 + 2),
    opened_at: at(-24),
    closed_at: null,
    lost_cents: 0,
    refunded_before_cents: 0,
    ...more,
  };
}

/** A test dispute: its payment was made with the test provider, so its page can move it on. */
export const soonDispute = row(1, SOON, "Thumbnail teardown", { payment_id: "pi_test_soon", reason: "general" });
export const overdueDispute = row(2, OVERDUE, "Sponsorship pricing", { evidence_due_by: at(-2), reason: "product_not_received" });
/** EUR 10.00 of EUR 50.00 had already been refunded when it opened: the refund is the evidence. */
export const laterDispute = row(3, LATER, "Channel audit", {
  status: "under_review",
  currency: "EUR",
  amount_cents: 4000,
  evidence_due_by: at(24 * 9 + 2),
  refunded_before_cents: 1000,
  reason: "credit_not_processed",
});
/** Lost: USD 40.00 taken back of USD 50.00 disputed (USD 10.00 had been owed back already). */
export const lostDispute = row(4, LOST, "Retention deep dive", {
  status: "lost",
  evidence_due_by: at(-24 * 10),
  closed_at: at(-24 * 2),
  lost_cents: 4000,
});
export const wonDispute = row(5, WON, "Pricing clinic", { status: "won", evidence_due_by: at(-24 * 5), closed_at: at(-24) });

export const disputeRows: AdminDisputeReply[] = [lostDispute, laterDispute, soonDispute, wonDispute, overdueDispute];

/** A booking's dispute as its page holds it. */
export function bookingDispute(d: AdminDisputeReply): DisputeReply {
  const fields = ["dispute_id", "payment_id", "amount_cents", "reason", "status", "evidence_due_by", "opened_at", "closed_at"] as const;
  const picked = Object.fromEntries(fields.map((f) => [f, d[f]]));
  return { ...picked, lost_cents: d.lost_cents, refunded_before_cents: d.refunded_before_cents } as DisputeReply;
}

function entry(n: number, type: string, data: Record<string, unknown>): TimelineEntry {
  return {
    event_id: `00000000-0000-4000-8000-00000000a${n}00`,
    type,
    time: at(-96 + n),
    actor: null,
    version: n,
    position: String(n),
    data,
  };
}

/** The history of a booking paid once: its request and its payment, made with `provider`. */
function paidHistory(bookingId: string, paymentId: string, provider: string): TimelineEntry[] {
  return [
    entry(1, "BookingRequested", { bookingId, prepAnswers: ["Why do my thumbnails not get clicks?"] }),
    entry(2, "PaymentSucceeded", { bookingId, paymentId, amountCents: 5000, provider, currency: "USD" }),
  ];
}

/** The booking fields GET /admin/bookings/{id} adds for these tests: its disputes, its currency and its history. */
export function disputedBookingFields(bookingId: string): Record<string, unknown> | null {
  if (bookingId === UNDISPUTED_BOOKING)
    return { currency: "USD", disputes: [], timeline: paidHistory(bookingId, UNDISPUTED_PAYMENT, "test"), paid_cents: 5000 };
  const dispute = disputeRows.find((d) => d.booking_id === bookingId);
  if (!dispute) return null;
  const provider = dispute.payment_id.startsWith("pi_test_") ? "test" : "stripe";
  return {
    session_title: dispute.session_title,
    currency: dispute.currency,
    disputes: [bookingDispute(dispute)],
    timeline: paidHistory(bookingId, dispute.payment_id, provider),
  };
}
