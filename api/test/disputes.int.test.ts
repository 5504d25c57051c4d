import { readFileSync } from "node:fs";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MoneyTrailReply, type AdminDisputeReply, type MoneyTrailEntryReply } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { PayoutReactor } from "../src/payouts/reactor.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { expertCancels, paidBooking, type PaidBooking } from "./paid-booking.ts";
import { pdfText } from "./receipts-pdf-text.ts";

// Disputes and chargebacks (issue 31.2): Stripe's dispute webhooks, built from its own example `dispute` and `event`
// objects and signed, each delivered three times, record each step once on the booking; a lost dispute moves the
// money in the ledger as a refund would; a dispute over money already refunded moves nothing; the console lists
// disputes, exports the evidence, and (with the test provider) opens one as a bank would.

const WEBHOOK_SECRET = "whsec_test_disputes_secret";
const examples = JSON.parse(readFileSync(new URL("../../../shared/stripe/fixtures3.json", import.meta.url), "utf8")) as {
  resources: { dispute: Record<string, unknown>; event: Record<string, unknown> };
};

let api: TestApi;
let admin: TestUser;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
const provider = new TestPaymentProvider(lazyDb);

beforeAll(async () => {
  api = await startTestApi({ payments: provider, stripeWebhookSecret: WEBHOOK_SECRET });
  admin = await api.user("admin");
});
afterAll(async () => api?.close());

/** Stripe's example event carrying Stripe's example dispute, made about `b`'s payment, signed with `secret`. */
function disputeEvent(b: PaidBooking, type: string, dispute: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify({
    ...examples.resources.event,
    id: `evt_${type}_${String(dispute.status)}_${b.bookingId}`,
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: { ...examples.resources.dispute, id: `dp_${b.bookingId}`, payment_intent: b.paymentId, amount: b.priceCents, ...dispute },
    },
  });
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}
const deliver = (e: { payload: string; signature: string }) =>
  api.call("POST", "/api/v1/stripe/webhook", {
    body: e.payload,
    headers: { "content-type": "application/json", "stripe-signature": e.signature },
  });
const thrice = async (e: { payload: string; signature: string }) => {
  for (let i = 0; i < 3; i++) expect((await deliver(e)).statusCode).toBe(200);
};
const disputeEvents = async (b: PaidBooking) =>
  (await api.ctx.store.readStream(calendarStream(b.expertId))).events
    .filter((e) => e.type.startsWith("Dispute") && (e.data as { bookingId: string }).bookingId === b.bookingId)
    .map((e) => `${e.type}:${(e.data as { status: string }).status}`);
const get = (url: string) => api.call("GET", `/api/v1${url}`, { user: admin });
const trail = async (b: PaidBooking) =>
  MoneyTrailReply.parse((await get(`/admin/bookings/${b.bookingId}/money-trail`)).json()).map((e: MoneyTrailEntryReply) => [
    e.event_type,
    e.account,
    e.debit_cents,
    e.credit_cents,
  ]);

describe("Stripe's dispute webhooks", () => {
  it("created, updated and closed as lost, each delivered three times: recorded once each; the money goes back as a refund would", async () => {
    const b = await paidBooking(api);
    await thrice(disputeEvent(b, "charge.dispute.created", { status: "needs_response", reason: "product_not_received" }));
    await thrice(disputeEvent(b, "charge.dispute.updated", { status: "under_review" }));
    await thrice(disputeEvent(b, "charge.dispute.closed", { status: "lost" }));
    expect(await disputeEvents(b)).toEqual(["DisputeOpened:needs_response", "DisputeUpdated:under_review", "DisputeClosed:lost"]);
    // A late, out-of-order "created" changes nothing on a closed dispute.
    await deliver(disputeEvent(b, "charge.dispute.created", { status: "needs_response" }));
    expect(await disputeEvents(b)).toHaveLength(3);

    const booking = (await api.call("GET", `/api/v1/bookings/${b.bookingId}`, { user: b.creator })).json();
    expect(booking).toMatchObject({ refund_due_cents: 15_000, refunded_cents: 15_000, payment_state: "refunded" });
    expect(await trail(b)).toEqual([
      ["PaymentSucceeded", "platform_cash", 15_000, 0],
      ["PaymentSucceeded", "bookings_held", 0, 15_000],
      ["DisputeClosed", "bookings_held", 15_000, 0],
      ["DisputeClosed", "platform_cash", 0, 15_000],
    ]);
    // The payouts see it as money owed back: the expert's share of the booking is gone before any release.
    await new PayoutReactor(
      {
        log: api.ctx.store,
        db: api.ctx.db,
        payouts: api.ctx.payouts,
        provider: api.ctx.payoutProvider,
        clock: () => new Date().toISOString(),
      },
      { warn: () => undefined },
    ).runOnce();
    const payout = await api.ctx.db.query("SELECT paid_cents, refunded_cents FROM payout_bookings WHERE booking_id = $1", [b.bookingId]);
    expect(payout.rows[0]).toEqual({ paid_cents: "15000", refunded_cents: "15000" });
    const listed = (await get(`/admin/disputes?filter=${encodeURIComponent(JSON.stringify({ id: `dp_${b.bookingId}` }))}`)).json<
      AdminDisputeReply[]
    >();
    expect(listed).toEqual([
      expect.objectContaining({
        booking_id: b.bookingId,
        status: "lost",
        lost_cents: 15_000,
        reason: "product_not_received",
        amount_cents: 15_000,
      }),
    ]);
  });

  it("a won dispute moves no money; one over money already refunded records it but takes nothing twice", async () => {
    const won = await paidBooking(api);
    await thrice(disputeEvent(won, "charge.dispute.created", { status: "needs_response" }));
    await thrice(disputeEvent(won, "charge.dispute.closed", { status: "won" }));
    expect(await disputeEvents(won)).toEqual(["DisputeOpened:needs_response", "DisputeClosed:won"]);
    expect((await trail(won)).filter(([type]) => type === "DisputeClosed")).toEqual([]);

    const refunded = await paidBooking(api);
    await expertCancels(api, refunded);
    await thrice(disputeEvent(refunded, "charge.dispute.created", { status: "needs_response" }));
    await thrice(disputeEvent(refunded, "charge.dispute.closed", { status: "lost" }));
    expect((await get(`/admin/disputes/dp_${refunded.bookingId}`)).json()).toMatchObject({
      refunded_before_cents: 15_000,
      lost_cents: 0,
    });
  });

  it("a forged signature is refused and records nothing; a dispute of a payment the product did not take is acknowledged, not recorded", async () => {
    const b = await paidBooking(api);
    const forged = await deliver(disputeEvent(b, "charge.dispute.created", { status: "needs_response" }, "whsec_someone_else"));
    expect([forged.statusCode, forged.json().code]).toEqual([400, "webhook_signature_invalid"]);
    const foreign = await deliver(disputeEvent(b, "charge.dispute.created", { status: "needs_response", payment_intent: "pi_not_ours" }));
    expect(foreign.statusCode).toBe(200);
    expect(await disputeEvents(b)).toEqual([]);
  });
});

describe("the console", () => {
  it("opens a test dispute as a bank would, exports the evidence with the booking's history, and refuses one on a refunded booking", async () => {
    const b = await paidBooking(api);
    const said = await api.call("POST", `/api/v1/bookings/${b.bookingId}/messages`, {
      user: b.creator,
      body: { text: "Looking forward to it" },
    });
    expect(said.statusCode, said.body).toBe(200);
    const opened = await api.call("POST", `/api/v1/admin/payments/${b.paymentId}/test-dispute`, {
      user: admin,
      body: { reason: "fraudulent" },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ status: "needs_response", amount_cents: 15_000, reason: "fraudulent" });
    const id = opened.json<AdminDisputeReply>().id;
    const pdf = await get(`/admin/disputes/${id}/evidence.pdf`);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const text = pdfText(pdf.rawPayload);
    // Long ids wrap at the page's edge: read the ids with the lines joined, the sentences with a space between lines.
    const joined = text.replace(/\n/g, "");
    const spaced = text.replace(/\s*\n\s*/g, " ");
    expect(text).toContain("Dispute evidence");
    expect(joined).toContain(`Dispute ${id} of payment ${b.paymentId}`);
    expect(spaced).toContain('The creator requested "Growth strategy" for');
    expect(joined).toContain(`The creator paid $150.00 USD (payment ${b.paymentId}).`);
    expect(spaced).toContain("Needs a response");
    expect(spaced).toContain('The creator wrote: "Looking forward to it"');

    const lost = await api.call("POST", `/api/v1/admin/payments/${b.paymentId}/test-dispute`, { user: admin, body: { status: "lost" } });
    expect(lost.json()).toMatchObject({ status: "lost", lost_cents: 15_000 });

    const refunded = await paidBooking(api);
    await expertCancels(api, refunded);
    const refused = await api.call("POST", `/api/v1/admin/payments/${refunded.paymentId}/test-dispute`, { user: admin, body: {} });
    expect([refused.statusCode, refused.json().code]).toEqual([409, "dispute_booking_refunded"]);
    const creator = await api.call("POST", `/api/v1/admin/payments/${b.paymentId}/test-dispute`, { user: b.creator, body: {} });
    expect(creator.statusCode).toBe(403);
  });
});
