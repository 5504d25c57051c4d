import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { calendarStream } from "@booking/engine";
import type { Queryable } from "../src/payments/payments-table.ts";
import type { RefundProvider, RefundRequest } from "../src/payments/provider.ts";
import { StripePaymentProvider, type StripeRefunds } from "../src/payments/stripe-provider.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { waitForReadModels } from "../src/http/read-your-writes.ts";
import { RefundReactor } from "../src/refunds/reactor.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { expertCancels, heldBooking, paidBooking, payHeld, run, type PaidBooking } from "./paid-booking.ts";

// Refunds owed are paid back through the provider exactly once, whatever is delivered twice;
// failures are retried and shown; the console refunds; Stripe's webhook reconciles.

const WEBHOOK_SECRET = "whsec_test_refunds_secret";

/** Stripe's published example objects (see /work/shared/stripe/README.md), so webhooks carry Stripe's real shapes. */
const stripeExamples = JSON.parse(readFileSync(new URL("../../../shared/stripe/fixtures3.json", import.meta.url), "utf8")) as {
  resources: { refund: Record<string, unknown>; charge: Record<string, unknown>; event: Record<string, unknown> };
};

let api: TestApi;
let now = Date.now();
const clock = () => new Date(now).toISOString();
// The harness creates the pool inside startTestApi, so the provider reaches it through the API once it exists.
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
const provider = new TestPaymentProvider(lazyDb);

beforeAll(async () => {
  api = await startTestApi({ payments: provider, stripeWebhookSecret: WEBHOOK_SECRET, clock });
});
afterAll(async () => api.close());

const reactor = (refunds: RefundProvider = provider) =>
  new RefundReactor(
    { log: api.ctx.store, db: api.ctx.db, calendar: api.ctx.calendar, provider: refunds, clock },
    { warn: () => undefined },
  );

async function calendarEvents(b: PaidBooking, type: string) {
  const { events } = await api.ctx.store.readStream(calendarStream(b.expertId));
  return events.filter((e) => e.type === type && (e.data as { bookingId: string }).bookingId === b.bookingId);
}

const testRefunds = async (b: PaidBooking) =>
  (await api.ctx.db.query<{ amount_cents: string }>("SELECT amount_cents FROM test_refunds WHERE booking_id = $1", [b.bookingId])).rows.map(
    (r) => Number(r.amount_cents),
  );

async function bookingMoney(b: PaidBooking) {
  const r = await api.call("GET", `/api/v1/bookings/${b.bookingId}`, { user: b.creator });
  expect(r.statusCode, r.body).toBe(200);
  const { paid_cents, refund_due_cents, refunded_cents, refund_state, payment_state } = r.json();
  return { paid_cents, refund_due_cents, refunded_cents, refund_state, payment_state };
}

describe("the refund reactor", () => {
  it("cancelling a paid booking refunds it once through the test provider, under redelivery three times over", async () => {
    const b = await paidBooking(api);
    await expertCancels(api, b);
    const [cancelled] = await calendarEvents(b, "Cancelled");
    expect(await bookingMoney(b)).toEqual({
      paid_cents: 15_000,
      refund_due_cents: 15_000,
      refunded_cents: 0,
      refund_state: "pending",
      payment_state: "refund_due",
    });

    await reactor().runOnce();
    for (let n = 0; n < 3; n++) {
      // The owing event read again (the checkpoint lost) and the provider's answer lost before it was recorded.
      await api.ctx.db.query("DELETE FROM refund_checkpoints");
      await api.ctx.db.query("UPDATE refunds SET status = 'pending', next_attempt_at = now() - interval '1 second' WHERE booking_id = $1", [
        b.bookingId,
      ]);
      await reactor().runOnce();
    }

    expect(await testRefunds(b)).toEqual([15_000]);
    const issued = await calendarEvents(b, "RefundIssued");
    expect(issued).toHaveLength(1);
    expect(issued[0]!.data).toMatchObject({ refundKey: cancelled!.eventId, amountCents: 15_000, provider: "test" });
    await waitForReadModels(api.ctx.db, { position: issued[0]!.position, events: issued });
    expect(await bookingMoney(b)).toEqual({
      paid_cents: 15_000,
      refund_due_cents: 15_000,
      refunded_cents: 15_000,
      refund_state: "refunded",
      payment_state: "refunded",
    });
  });

  it("a failed refund is recorded with its reason, retried with a growing wait, shown in the console, and paid once it works", async () => {
    const b = await paidBooking(api);
    await expertCancels(api, b);
    let failuresLeft = 2;
    const flaky: RefundProvider = {
      name: "test",
      refund: async (r: RefundRequest) => {
        if (failuresLeft-- > 0) throw new Error("connection reset");
        return provider.refund(r);
      },
    };
    const admin = await api.user("admin");
    const failedList = async () => {
      const r = await api.call("GET", `/api/v1/admin/refunds?filter=${encodeURIComponent(JSON.stringify({ booking_id: b.bookingId }))}`, {
        user: admin,
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { status: string; attempts: number; last_error: string | null; next_attempt_at: string; amount_cents: number }[];
    };

    await reactor(flaky).runOnce();
    let [row] = await failedList();
    expect(row).toMatchObject({
      status: "failed",
      attempts: 1,
      amount_cents: 15_000,
      last_error: "The payment provider could not be asked: Error: connection reset",
    });
    const firstWait = Date.parse(row!.next_attempt_at) - now;
    // Not due yet: nothing is asked.
    await reactor(flaky).runOnce();
    expect(failuresLeft).toBe(1);

    now += firstWait;
    await reactor(flaky).runOnce();
    [row] = await failedList();
    expect(row).toMatchObject({ status: "failed", attempts: 2 });
    expect(Date.parse(row!.next_attempt_at) - now).toBe(2 * firstWait);
    expect(await calendarEvents(b, "RefundFailed")).toHaveLength(2);
    expect(
      (
        await api.call(
          "GET",
          `/api/v1/admin/refunds?filter=${encodeURIComponent(JSON.stringify({ status: "failed", booking_id: b.bookingId }))}`,
          { user: admin },
        )
      ).json(),
    ).toHaveLength(1);

    now += 2 * firstWait;
    await reactor(flaky).runOnce();
    [row] = await failedList();
    expect(row).toMatchObject({ status: "issued", last_error: null });
    expect(await testRefunds(b)).toEqual([15_000]);
  });

  it("a creator who cancels a confirmed booking within the notice is owed nothing, and nothing is refunded", async () => {
    const b = await paidBooking(api);
    const [requested] = await calendarEvents(b, "BookingRequested");
    // The expert accepts within their deadline (issue 27.6); the creator cancels two hours before the start.
    await run(api, b.expertId, {
      type: "ConfirmBooking",
      expertId: b.expertId,
      bookingId: b.bookingId,
      actor: { userId: b.expert.id, role: "expert" },
    });
    const realNow = now;
    now = Date.parse((requested!.data as { scheduledTime: string }).scheduledTime) - 2 * 3_600_000;
    try {
      await run(api, b.expertId, {
        type: "CancelBooking",
        expertId: b.expertId,
        bookingId: b.bookingId,
        actor: { userId: b.creator.id, role: "creator" },
        reason: "",
      });
      await reactor().runOnce();
    } finally {
      now = realNow;
    }
    expect(await testRefunds(b)).toEqual([]);
    expect((await api.ctx.db.query("SELECT 1 FROM refunds WHERE booking_id = $1", [b.bookingId])).rowCount).toBe(0);
    expect(await bookingMoney(b)).toMatchObject({ paid_cents: 15_000, refund_due_cents: 0, refund_state: "none", payment_state: "paid" });
  });
});

describe("a payment that arrives for a lapsed hold whose time was taken", () => {
  it("is refunded on the first attempt, even when the reactor acts the moment the payment is in the log: the creator never sees 'Refund failed'", async () => {
    const held = await heldBooking(api);
    const store = api.ctx.store;
    const append = store.append.bind(store);
    // The reactor's passes that the payment's append wakes; the append returns once one has asked the provider.
    let asked = 0;
    let attempted = () => undefined as void;
    const asking: RefundProvider = { name: "test", refund: (r) => provider.refund(r).finally(() => (asked++, attempted())) };
    let eagerPass: Promise<unknown> = Promise.resolve();
    const realNow = now;
    try {
      now += 16 * 60_000;
      // Another creator takes the time the lapsed hold no longer keeps.
      const other = await api.user("creator");
      await run(api, held.expertId, {
        type: "RequestBooking",
        expertId: held.expertId,
        bookingId: `bk-${randomUUID()}`,
        actor: { userId: other.id, role: "creator" },
        scheduledTime: held.scheduledTime,
        session: {
          sessionId: `s-${randomUUID()}`,
          expertId: held.expertId,
          title: "Growth strategy",
          lengthMinutes: 60,
          priceCents: 15_000,
          published: true,
          prepQuestions: ["Goal?", "Now?", "Blocker?"],
        },
        expertUserId: held.expert.id,
        expertVetting: "approved",
        creatorAcceptedTerms: true,
        creatorBookings: [],
        holdMinutes: 15,
      });
      // The reactor, woken by the append, pays before the API has gone on (it won that race in 2 of 3 runs).
      vi.spyOn(store, "append").mockImplementation(async (...args) => {
        const written = await append(...args);
        if (args[1].some((e) => e.type === "PaymentSucceeded")) {
          // Not the whole pass: recording the provider's answer waits for this command's stream.
          const askedOnce = new Promise<void>((resolve) => (attempted = resolve));
          eagerPass = (async () => {
            // The log may show a commit a moment later (a transaction still in flight before it): look again until it is read.
            for (let n = 0; n < 200 && asked === 0; n++)
              if ((await reactor(asking).runOnce()).read === 0) await new Promise((r) => setTimeout(r, 10));
          })();
          await Promise.race([askedOnce, eagerPass]);
        }
        return written;
      });
      await payHeld(api, held);
      await eagerPass;
    } finally {
      vi.restoreAllMocks();
      now = realNow;
    }
    expect(asked).toBe(1);
    expect(await calendarEvents(held, "Cancelled")).toHaveLength(1);
    expect(await calendarEvents(held, "RefundFailed")).toEqual([]);
    expect(await testRefunds(held)).toEqual([15_000]);
    const issued = await calendarEvents(held, "RefundIssued");
    expect(issued).toHaveLength(1);
    const { rows } = await api.ctx.db.query("SELECT status, attempts FROM refunds WHERE booking_id = $1", [held.bookingId]);
    expect(rows).toEqual([{ status: "issued", attempts: 0 }]);
    await waitForReadModels(api.ctx.db, { position: issued[0]!.position, events: issued });
    expect(await bookingMoney(held)).toEqual({
      paid_cents: 15_000,
      refund_due_cents: 15_000,
      refunded_cents: 15_000,
      refund_state: "refunded",
      payment_state: "refunded",
    });
  });
});

describe("an admin's refund", () => {
  it("refunds part of a paid booking with a reason; the reactor pays exactly that", async () => {
    const b = await paidBooking(api);
    const admin = await api.user("admin");
    const r = await api.call("POST", "/api/v1/admin/refunds", {
      user: admin,
      body: { booking_id: b.bookingId, amount_cents: 4_000, reason: "Started late" },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      booking_id: b.bookingId,
      amount_cents: 4_000,
      reason: "Started late",
      status: "pending",
      attempts: 0,
    });
    expect(await bookingMoney(b)).toMatchObject({ refund_due_cents: 4_000, refund_state: "pending", payment_state: "refund_due" });
    await reactor().runOnce();
    expect(await testRefunds(b)).toEqual([4_000]);
    const issued = await calendarEvents(b, "RefundIssued");
    await waitForReadModels(api.ctx.db, { position: issued[0]!.position, events: issued });
    // $110 of the $150 is still held: partially refunded, not "refunded".
    expect(await bookingMoney(b)).toEqual({
      paid_cents: 15_000,
      refund_due_cents: 4_000,
      refunded_cents: 4_000,
      refund_state: "refunded",
      payment_state: "partially_refunded",
    });
    const list = (
      await api.call(
        "GET",
        `/api/v1/admin/refunds?filter=${encodeURIComponent(JSON.stringify({ status: "issued", booking_id: b.bookingId }))}`,
        { user: admin },
      )
    ).json();
    expect(list).toMatchObject([
      { booking_id: b.bookingId, amount_cents: 4_000, reason: "Started late", status: "issued", provider: "test" },
    ]);
    const one = await api.call("GET", `/api/v1/admin/refunds/${list[0].id}`, { user: admin });
    expect(one.json()).toMatchObject({ refund_key: list[0].id, status: "issued" });
  });

  it("refuses more than was paid, an unpaid booking, bad amounts, no reason, and anyone but an admin", async () => {
    const b = await paidBooking(api);
    const admin = await api.user("admin");
    const refund = (body: Record<string, unknown>, user = admin, id = b.bookingId) =>
      api.call("POST", "/api/v1/admin/refunds", { user, body: { booking_id: id, ...body } });
    const tooMuch = await refund({ amount_cents: 15_001, reason: "Goodwill" });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json()).toEqual({
      code: "refund_amount_too_high",
      message: "You can refund at most $150.00 for this booking: what was paid, less what is already owed back.",
    });
    for (const amount_cents of [0, -5, 3.5])
      expect((await refund({ amount_cents, reason: "x" })).json().code).toBe("refund_amount_invalid");
    expect((await refund({ amount_cents: 100, reason: "  " })).json().code).toBe("refund_reason_required");
    expect((await refund({ amount_cents: 100, reason: "x" }, b.creator)).statusCode).toBe(403);
    expect((await refund({ amount_cents: 100, reason: "x" }, admin, `bk-${randomUUID()}`)).json().code).toBe("booking_not_found");

    const unpaid = await paidBooking(api);
    const expertId = unpaid.expertId;
    const bookingId = `bk-${randomUUID()}`;
    await run(api, expertId, {
      type: "RequestBooking",
      expertId,
      bookingId,
      actor: { userId: unpaid.creator.id, role: "creator" },
      scheduledTime: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 11) + "11:00:00.000Z",
      session: {
        sessionId: `s-${randomUUID()}`,
        expertId,
        title: "Growth strategy",
        lengthMinutes: 60,
        priceCents: 15_000,
        published: true,
        prepQuestions: ["Goal?", "Now?", "Blocker?"],
      },
      expertUserId: unpaid.expert.id,
      expertVetting: "approved",
      creatorAcceptedTerms: true,
      creatorBookings: [],
      holdMinutes: 15,
    });
    const notPaid = await refund({ amount_cents: 100, reason: "x" }, admin, bookingId);
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.json().code).toBe("refund_booking_unpaid");
  });
});

describe("Stripe", () => {
  function signed(type: string, object: Record<string, unknown>) {
    const payload = JSON.stringify({
      id: `evt_${randomUUID().replace(/-/g, "")}`,
      object: "event",
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    });
    return {
      body: payload,
      headers: {
        "content-type": "application/json",
        "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    };
  }

  it("a signed charge.refunded records the refund once, however often it is delivered", async () => {
    const b = await paidBooking(api);
    await expertCancels(api, b);
    // The reactor has read the refund owed (and asked Stripe for it): Stripe knows our key only after that.
    await reactor().follow();
    const [cancelled] = await calendarEvents(b, "Cancelled");
    const refund = {
      id: "re_stripe_1",
      object: "refund",
      amount: 15_000,
      status: "succeeded",
      metadata: { bookingId: b.bookingId, expertId: b.expertId, refundKey: cancelled!.eventId },
    };
    const event = signed("charge.refunded", {
      id: "ch_1",
      object: "charge",
      payment_intent: b.paymentId,
      amount_refunded: 15_000,
      refunds: { object: "list", data: [refund] },
    });
    for (let n = 0; n < 3; n++) {
      const r = await api.call("POST", "/api/v1/stripe/webhook", event);
      expect(r.statusCode, r.body).toBe(200);
    }
    const issued = await calendarEvents(b, "RefundIssued");
    expect(issued.map((e) => e.data)).toEqual([
      { bookingId: b.bookingId, refundKey: cancelled!.eventId, refundId: "re_stripe_1", amountCents: 15_000, provider: "stripe" },
    ]);
    await waitForReadModels(api.ctx.db, { position: issued[0]!.position, events: issued });
    expect(await bookingMoney(b)).toMatchObject({ refunded_cents: 15_000, refund_state: "refunded" });
    // The reactor, reading the same log, finds nothing left to pay.
    await reactor().runOnce();
    expect(await testRefunds(b)).toEqual([]);
  });

  it("a signed refund.updated that failed records the failure; a forged one records nothing", async () => {
    const b = await paidBooking(api);
    await expertCancels(api, b);
    await reactor().follow();
    const [cancelled] = await calendarEvents(b, "Cancelled");
    const failed = {
      id: "re_stripe_2",
      object: "refund",
      amount: 15_000,
      status: "failed",
      failure_reason: "expired_or_canceled_card",
      metadata: { bookingId: b.bookingId, expertId: b.expertId, refundKey: cancelled!.eventId },
    };
    const forged = signed("refund.updated", failed);
    const r = await api.call("POST", "/api/v1/stripe/webhook", {
      ...forged,
      headers: { ...forged.headers, "stripe-signature": "t=1,v1=00" },
    });
    expect(r.statusCode).toBe(400);
    expect(await calendarEvents(b, "RefundFailed")).toHaveLength(0);
    expect((await api.call("POST", "/api/v1/stripe/webhook", signed("refund.updated", failed))).statusCode).toBe(200);
    expect((await calendarEvents(b, "RefundFailed")).map((e) => e.data)).toEqual([
      { bookingId: b.bookingId, refundKey: cancelled!.eventId, reason: "Stripe could not refund: expired or canceled card." },
    ]);
  });

  /** Stripe's example event around `object`, signed. */
  function signedExample(type: string, object: Record<string, unknown>) {
    const id = `evt_${randomUUID().replace(/-/g, "")}`;
    const payload = JSON.stringify({ ...stripeExamples.resources.event, id, type, created: Math.floor(now / 1000), data: { object } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return { body: payload, headers: { "content-type": "application/json", "stripe-signature": signature } };
  }
  /** Stripe's example refund with these fields (its metadata is empty: a refund made in Stripe's dashboard). */
  const exampleRefund = (fields: Record<string, unknown>) => ({
    ...stripeExamples.resources.refund,
    id: `re_${randomUUID().replace(/-/g, "").slice(0, 24)}`,
    ...fields,
  });
  const deliver = async (type: string, object: Record<string, unknown>) => {
    const r = await api.call("POST", "/api/v1/stripe/webhook", signedExample(type, object));
    expect(r.statusCode, r.body).toBe(200);
  };
  async function unmatched(refundId: string) {
    const admin = await api.user("admin");
    const r = await api.call("GET", `/api/v1/admin/unmatched-refunds?filter=${encodeURIComponent(JSON.stringify({ id: refundId }))}`, {
      user: admin,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Record<string, unknown>[];
  }

  it("a signed refund the product never asked for is not recorded, whatever it claims, and is listed for an admin", async () => {
    const b = await paidBooking(api, 2_000);
    const neverIssued = { bookingId: b.bookingId, expertId: b.expertId, refundKey: `ev-${randomUUID()}` };
    const claimed = exampleRefund({ amount: 999_999, payment_intent: b.paymentId, metadata: neverIssued });
    const fromDashboard = exampleRefund({ amount: 500, payment_intent: b.paymentId });
    await deliver("refund.updated", claimed);
    await deliver("refund.updated", claimed);
    const charge = { ...stripeExamples.resources.charge, payment_intent: b.paymentId, amount_refunded: 500 };
    await deliver("charge.refunded", { ...charge, refunds: { object: "list", data: [fromDashboard] } });

    expect(await calendarEvents(b, "RefundIssued")).toEqual([]);
    expect(await bookingMoney(b)).toEqual({
      paid_cents: 2_000,
      refund_due_cents: 0,
      refunded_cents: 0,
      refund_state: "none",
      payment_state: "paid",
    });
    expect(await unmatched(claimed.id)).toMatchObject([
      {
        id: claimed.id,
        provider: "stripe",
        booking_id: b.bookingId,
        amount_cents: 999_999,
        provider_status: "succeeded",
        why: "unknown_refund",
        reports: 2,
      },
    ]);
    expect(await unmatched(fromDashboard.id)).toMatchObject([
      { id: fromDashboard.id, booking_id: null, refund_key: null, amount_cents: 500, why: "unknown_refund", reports: 1 },
    ]);
    // The console's list refuses a filter it does not know with the catalogue's words, not a 5xx.
    const admin = await api.user("admin");
    const bad = await api.call("GET", `/api/v1/admin/unmatched-refunds?filter=${encodeURIComponent(JSON.stringify({ why: "nope" }))}`, {
      user: admin,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe("invalid_request");
    expect((await api.call("GET", "/api/v1/admin/unmatched-refunds", { user: b.creator })).statusCode).toBe(403);
  });

  it("a signed refund under the product's key above what it asked for (or was paid) is refused and listed; the one asked for is recorded", async () => {
    const b = await paidBooking(api, 2_000);
    const admin = await api.user("admin");
    const owed = await api.call("POST", "/api/v1/admin/refunds", {
      user: admin,
      body: { booking_id: b.bookingId, amount_cents: 500, reason: "Started late" },
    });
    expect(owed.statusCode, owed.body).toBe(200);
    const ours = { bookingId: b.bookingId, expertId: b.expertId, refundKey: owed.json().id as string };
    const huge = exampleRefund({ amount: 999_999, payment_intent: b.paymentId, metadata: ours });
    const aboveAsked = exampleRefund({ amount: 2_000, payment_intent: b.paymentId, metadata: ours });
    const belowAsked = exampleRefund({ amount: 300, payment_intent: b.paymentId, metadata: ours });
    await deliver("refund.updated", huge);
    const charge = { ...stripeExamples.resources.charge, payment_intent: b.paymentId };
    await deliver("charge.refunded", { ...charge, refunds: { object: "list", data: [aboveAsked, belowAsked] } });

    expect(await calendarEvents(b, "RefundIssued")).toEqual([]);
    expect(await bookingMoney(b)).toMatchObject({ refunded_cents: 0, refund_state: "pending", payment_state: "refund_due" });
    expect(await unmatched(huge.id)).toMatchObject([
      { booking_id: b.bookingId, refund_key: ours.refundKey, amount_cents: 999_999, why: "over_refund" },
    ]);
    expect(await unmatched(aboveAsked.id)).toMatchObject([{ amount_cents: 2_000, why: "over_refund" }]);
    expect(await unmatched(belowAsked.id)).toMatchObject([{ amount_cents: 300, why: "amount_differs" }]);

    const asked = exampleRefund({ amount: 500, payment_intent: b.paymentId, metadata: ours });
    await deliver("refund.updated", asked);
    await deliver("refund.updated", asked);
    const issued = await calendarEvents(b, "RefundIssued");
    expect(issued.map((e) => e.data)).toEqual([
      { bookingId: b.bookingId, refundKey: ours.refundKey, refundId: asked.id, amountCents: 500, provider: "stripe" },
    ]);
    expect(await unmatched(asked.id)).toEqual([]);
    await waitForReadModels(api.ctx.db, { position: issued[0]!.position, events: issued });
    expect(await bookingMoney(b)).toEqual({
      paid_cents: 2_000,
      refund_due_cents: 500,
      refunded_cents: 500,
      refund_state: "refunded",
      payment_state: "partially_refunded",
    });
    await reactor().runOnce();
    expect(await testRefunds(b)).toEqual([]);
  });

  it("the Stripe provider refunds the payment intent under refund-<refundKey>, with the booking in the metadata", async () => {
    const calls: { params: Stripe.RefundCreateParams; options: Stripe.RequestOptions | undefined }[] = [];
    const refunds: StripeRefunds = {
      create: async (params, options) => {
        calls.push({ params, options });
        return { id: "re_fake_1", status: calls.length === 1 ? "pending" : "failed", failure_reason: "lost_or_stolen_card" };
      },
    };
    const stripe = new StripePaymentProvider(lazyDb, {
      secretKey: "sk_test_unused",
      publishableKey: null,
      client: { paymentIntents: { create: async () => ({ id: "pi", client_secret: "s" }) }, refunds },
    });
    const request = { refundKey: "ev-1", paymentId: "pi_1", bookingId: "bk-1", expertId: "ex-1", amountCents: 2_500 };
    expect(await stripe.refund(request)).toEqual({ status: "issued", refundId: "re_fake_1" });
    expect(calls[0]).toEqual({
      params: {
        payment_intent: "pi_1",
        amount: 2_500,
        reason: "requested_by_customer",
        metadata: { bookingId: "bk-1", expertId: "ex-1", refundKey: "ev-1" },
      },
      options: { idempotencyKey: "refund-ev-1" },
    });
    expect(await stripe.refund(request)).toEqual({ status: "failed", reason: "Stripe could not refund: lost or stolen card." });
  });
});
