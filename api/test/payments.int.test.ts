import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { paymentProviderFrom } from "../src/payments/factory.ts";
import type { Queryable } from "../src/payments/payments-table.ts";
import { StripePaymentProvider, type StripePaymentIntents } from "../src/payments/stripe-provider.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

const WEBHOOK_SECRET = "whsec_test_payments_secret";
const PRICE = 15_000;

let api: TestApi;
// The harness creates the pool inside startTestApi, so the provider reaches it through the API once it exists.
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };

beforeAll(async () => {
  api = await startTestApi({ payments: new TestPaymentProvider(lazyDb), stripeWebhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => api.close());

type Booked = { bookingId: string; expertId: string; creator: TestUser; expert: TestUser };

/** Tomorrow 10:00 UTC: inside the UTC 09:00-17:00 schedule below and within the 28 bookable days. */
function tomorrowAtTen(): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + 1);
  d.setUTCHours(10, 0, 0, 0);
  return d.toISOString();
}

/** A pending, unpaid booking with a fresh expert (so bookings never compete for a time). */
async function book(priceCents = PRICE): Promise<Booked> {
  const expert = await api.user("expert");
  const creator = await api.user("creator");
  const expertId = `ex-${randomUUID()}`;
  const bookingId = `bk-${randomUUID()}`;
  const run = async (command: CalendarCommand) => {
    const r = await api.ctx.calendar.handle(calendarStream(expertId), command, { actor: command.actor });
    if (!r.ok) throw new Error(`${command.type}: ${r.refusal.code}`);
    await api.ctx.projected(r.value);
  };
  const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
  await run({
    type: "SetSchedule",
    expertId,
    actor: { userId: expert.id, role: "expert" },
    schedule: { timezone: "UTC", slots: weekdays.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" })) },
  });
  await run({
    type: "RequestBooking",
    expertId,
    bookingId,
    actor: { userId: creator.id, role: "creator" },
    scheduledTime: tomorrowAtTen(),
    session: {
      sessionId: `s-${randomUUID()}`,
      expertId,
      title: "Growth strategy",
      lengthMinutes: 60,
      priceCents,
      published: true,
      prepQuestions: ["Goal?", "Now?", "Blocker?"],
    },
    expertUserId: expert.id,
    expertVetting: "approved",
    creatorAcceptedTerms: true,
    creatorBookings: [],
    holdMinutes: 15,
  });
  return { bookingId, expertId, creator, expert };
}

async function calendarEvents(b: Booked, type: string) {
  const { events } = await api.ctx.store.readStream(calendarStream(b.expertId));
  return events.filter((e) => e.type === type && (e.data as { bookingId: string }).bookingId === b.bookingId);
}

async function paymentState(bookingId: string): Promise<string> {
  const { rows } = await api.ctx.db.query<{ payment_state: string }>("SELECT payment_state FROM bookings WHERE booking_id = $1", [
    bookingId,
  ]);
  return rows[0]!.payment_state;
}

async function intentFor(b: Booked): Promise<{ clientSecret: string; paymentId: string; amount: number; publishableKey: string | null }> {
  const r = await api.call("POST", "/api/v1/stripe/test-intent", { user: b.creator, body: { bookingId: b.bookingId, amount: PRICE } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

const confirm = (user: TestUser, clientSecret: string, cardNumber: string) =>
  api.call("POST", "/api/v1/payments/test/confirm", { user, body: { client_secret: clientSecret, card_number: cardNumber } });

function signedStripeEvent(type: string, intent: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, "")}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: intent },
  });
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

const deliver = (event: { payload: string; signature: string }) =>
  api.call("POST", "/api/v1/stripe/webhook", {
    body: event.payload,
    headers: { "content-type": "application/json", "stripe-signature": event.signature },
  });

const stripeIntent = (b: Booked, id = `pi_${randomUUID().replace(/-/g, "")}`, extra: Record<string, unknown> = {}) => ({
  id,
  object: "payment_intent",
  amount: PRICE,
  amount_received: PRICE,
  currency: "usd",
  metadata: { bookingId: b.bookingId, expertId: b.expertId },
  ...extra,
});

describe("POST /stripe/test-intent", () => {
  it("charges the booking's price, whatever the client thinks, and gives one payment per booking", async () => {
    const b = await book();
    const first = await intentFor(b);
    expect(first).toMatchObject({ amount: PRICE, publishableKey: null });
    expect(first.paymentId).toMatch(/^pi_test_[0-9a-f-]{36}$/);
    expect(first.clientSecret.startsWith(`${first.paymentId}_secret_`)).toBe(true);
    expect(await intentFor(b)).toEqual(first);
    const racing = await Promise.all([intentFor(b), intentFor(b)]);
    expect(racing).toEqual([first, first]);
    const noAmount = await api.call("POST", "/api/v1/stripe/test-intent", { user: b.creator, body: { bookingId: b.bookingId } });
    expect(noAmount.json()).toEqual(first);
  });

  it("refuses an amount that is not the price", async () => {
    const b = await book();
    const r = await api.call("POST", "/api/v1/stripe/test-intent", { user: b.creator, body: { bookingId: b.bookingId, amount: 100 } });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ code: "payment_amount_mismatch", message: "The payment amount does not match the session price." });
  });

  it("answers another user's booking exactly like a missing one", async () => {
    const b = await book();
    const stranger = await api.user("creator");
    const theirs = await api.call("POST", "/api/v1/stripe/test-intent", {
      user: stranger,
      body: { bookingId: b.bookingId, amount: PRICE },
    });
    const missing = await api.call("POST", "/api/v1/stripe/test-intent", {
      user: stranger,
      body: { bookingId: "no-such-booking", amount: PRICE },
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ code: "booking_not_found", message: "No booking found" });
    expect(missing.json()).toEqual(theirs.json());
    expect((await api.call("POST", "/api/v1/stripe/test-intent", { user: b.expert, body: { bookingId: b.bookingId } })).statusCode).toBe(
      404,
    );
  });

  it("needs a signed-in user and a strict body", async () => {
    const b = await book();
    expect((await api.call("POST", "/api/v1/stripe/test-intent", { body: { bookingId: b.bookingId } })).statusCode).toBe(401);
    const extra = await api.call("POST", "/api/v1/stripe/test-intent", {
      user: b.creator,
      body: { bookingId: b.bookingId, amount: PRICE, currency: "eur" },
    });
    expect(extra.statusCode).toBe(400);
  });

  it("refuses a cancelled booking", async () => {
    const b = await book();
    const cancel = await api.ctx.calendar.handle(calendarStream(b.expertId), {
      type: "CancelBooking",
      expertId: b.expertId,
      bookingId: b.bookingId,
      actor: { userId: b.creator.id, role: "creator" },
      reason: "",
    });
    if (!cancel.ok) throw new Error(cancel.refusal.code);
    await api.ctx.projected(cancel.value);
    const r = await api.call("POST", "/api/v1/stripe/test-intent", { user: b.creator, body: { bookingId: b.bookingId, amount: PRICE } });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ code: "booking_transition_refused", message: "This booking is cancelled and can no longer be paid." });
  });
});

describe("POST /payments/test/confirm", () => {
  it("4242 4242 4242 4242 pays the booking once, however often it is confirmed", async () => {
    const b = await book();
    const { clientSecret } = await intentFor(b);
    const r = await confirm(b.creator, clientSecret, "4242 4242 4242 4242");
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ status: "succeeded" });
    expect(await paymentState(b.bookingId)).toBe("paid"); // read-your-writes
    const again = await confirm(b.creator, clientSecret, "4242424242424242");
    expect(again.json()).toEqual({ status: "succeeded" });
    expect(await calendarEvents(b, "PaymentSucceeded")).toHaveLength(1);
    const { rows } = await api.ctx.db.query(
      "SELECT provider, status, amount_cents::int AS amount_cents, creator_id FROM payments WHERE booking_id = $1",
      [b.bookingId],
    );
    expect(rows).toEqual([{ provider: "test", status: "succeeded", amount_cents: PRICE, creator_id: b.creator.id }]);
  });

  it("a paid booking cannot be paid again", async () => {
    const b = await book();
    const { clientSecret } = await intentFor(b);
    expect((await confirm(b.creator, clientSecret, "4242424242424242")).statusCode).toBe(200);
    const r = await api.call("POST", "/api/v1/stripe/test-intent", { user: b.creator, body: { bookingId: b.bookingId, amount: PRICE } });
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe("booking_already_paid");
  });

  it("4000 0000 0000 0002 is declined with the card's message; the failure is recorded and the booking stays unpaid", async () => {
    const b = await book();
    const { clientSecret } = await intentFor(b);
    const r = await confirm(b.creator, clientSecret, "4000 0000 0000 0002");
    expect(r.statusCode).toBe(402);
    expect(r.json()).toEqual({ code: "payment_declined", message: "Your card was declined." });
    expect(await paymentState(b.bookingId)).toBe("unpaid");
    const failed = await calendarEvents(b, "PaymentFailed");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({ reason: "Your card was declined." });
    expect(await calendarEvents(b, "PaymentSucceeded")).toHaveLength(0);
    // The same payment may be tried again with a good card, like a Stripe intent after a decline.
    expect((await confirm(b.creator, clientSecret, "4242424242424242")).json()).toEqual({ status: "succeeded" });
    expect(await paymentState(b.bookingId)).toBe("paid");
  });

  it("any other card number is refused without recording anything", async () => {
    const b = await book();
    const { clientSecret } = await intentFor(b);
    const r = await confirm(b.creator, clientSecret, "1234 5678 9012 3456");
    expect(r.statusCode).toBe(402);
    expect(r.json()).toEqual({ code: "card_number_invalid", message: "Your card number is incorrect." });
    expect(await calendarEvents(b, "PaymentFailed")).toHaveLength(0);
    expect(await paymentState(b.bookingId)).toBe("unpaid");
  });

  it("only the booking's creator can confirm its payment; unknown secrets are not found", async () => {
    const b = await book();
    const { clientSecret } = await intentFor(b);
    const stranger = await api.user("creator");
    const theirs = await confirm(stranger, clientSecret, "4242424242424242");
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe("payment_not_found");
    expect((await confirm(b.creator, "pi_test_nope_secret_nope", "4242424242424242")).statusCode).toBe(404);
    expect(await paymentState(b.bookingId)).toBe("unpaid");
  });
});

describe("POST /stripe/webhook", () => {
  it("records a payment once, however often Stripe delivers the event", async () => {
    const b = await book();
    const event = signedStripeEvent("payment_intent.succeeded", stripeIntent(b));
    for (let i = 0; i < 5; i++) {
      const r = await deliver(event);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toEqual({ received: true });
    }
    expect(await calendarEvents(b, "PaymentSucceeded")).toHaveLength(1);
    expect(await paymentState(b.bookingId)).toBe("paid");
    const { rows } = await api.ctx.db.query("SELECT provider, status, creator_id FROM payments WHERE booking_id = $1", [b.bookingId]);
    expect(rows).toEqual([{ provider: "stripe", status: "succeeded", creator_id: b.creator.id }]);
  });

  it("records one payment when Stripe delivers the same event concurrently", async () => {
    const b = await book();
    const event = signedStripeEvent("payment_intent.succeeded", stripeIntent(b));
    const replies = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await calendarEvents(b, "PaymentSucceeded")).toHaveLength(1);
  });

  it("refuses a bad or missing signature and records nothing", async () => {
    const b = await book();
    const forged = signedStripeEvent("payment_intent.succeeded", stripeIntent(b), "whsec_someone_else");
    const r = await deliver(forged);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ code: "webhook_signature_invalid", message: "The webhook signature is not valid." });
    const unsigned = await api.call("POST", "/api/v1/stripe/webhook", {
      body: forged.payload,
      headers: { "content-type": "application/json" },
    });
    expect(unsigned.statusCode).toBe(400);
    // Signed bytes, then altered: the signature covers the raw body.
    const honest = signedStripeEvent("payment_intent.succeeded", stripeIntent(b));
    const tampered = await deliver({
      payload: honest.payload.replace(`"amount":${PRICE}`, `"amount":${PRICE + 1}`),
      signature: honest.signature,
    });
    expect(tampered.statusCode).toBe(400);
    // Correctly signed, but stamped outside Stripe's five-minute tolerance, in the past or the future (a replay or a forged clock).
    // Just past it by 20 s, not 1: on a loaded machine a second can pass between stamping and checking (a CI run saw it).
    const now = Math.floor(Date.now() / 1000);
    for (const timestamp of [now - 3600, now + 3600, now + 320]) {
      const stamped = {
        payload: honest.payload,
        signature: Stripe.webhooks.generateTestHeaderString({ payload: honest.payload, secret: WEBHOOK_SECRET, timestamp }),
      };
      expect((await deliver(stamped)).statusCode, `timestamp ${timestamp - now} s from now`).toBe(400);
    }
    expect(await calendarEvents(b, "PaymentSucceeded")).toHaveLength(0);
    expect(await paymentState(b.bookingId)).toBe("unpaid");
    // Within the tolerance either way, it is taken.
    const slightlyAhead = {
      payload: honest.payload,
      signature: Stripe.webhooks.generateTestHeaderString({ payload: honest.payload, secret: WEBHOOK_SECRET, timestamp: now + 60 }),
    };
    expect((await deliver(slightlyAhead)).statusCode).toBe(200);
  });

  it("records a failed payment with Stripe's message", async () => {
    const b = await book();
    const event = signedStripeEvent(
      "payment_intent.payment_failed",
      stripeIntent(b, undefined, { amount_received: 0, last_payment_error: { message: "Your card has insufficient funds." } }),
    );
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await deliver(event)).statusCode).toBe(200); // redelivered
    const failed = await calendarEvents(b, "PaymentFailed");
    expect(failed.map((e) => e.data)).toEqual([expect.objectContaining({ reason: "Your card has insufficient funds." })]);
    expect(await paymentState(b.bookingId)).toBe("unpaid");
    const { rows } = await api.ctx.db.query("SELECT status, last_error FROM payments WHERE booking_id = $1", [b.bookingId]);
    expect(rows).toEqual([{ status: "failed", last_error: "Your card has insufficient funds." }]);
  });

  it("acknowledges other events and payments that are not for a booking without recording them", async () => {
    const b = await book();
    expect((await deliver(signedStripeEvent("charge.succeeded", { id: "ch_1", object: "charge" }))).json()).toEqual({ received: true });
    const foreign = signedStripeEvent("payment_intent.succeeded", { ...stripeIntent(b), metadata: {} });
    expect((await deliver(foreign)).statusCode).toBe(200);
    expect(await calendarEvents(b, "PaymentSucceeded")).toHaveLength(0);
  });

  it("keeps ordinary JSON parsing for the rest of the API", async () => {
    const b = await book();
    const r = await api.call("POST", "/api/v1/stripe/test-intent", { user: b.creator, body: { bookingId: b.bookingId, amount: PRICE } });
    expect(r.statusCode).toBe(200);
    const docs = await api.call("GET", "/api/v1/docs");
    expect(Object.keys(docs.json().paths)).toEqual(
      expect.arrayContaining(["/stripe/test-intent", "/payments/test/confirm", "/stripe/webhook"]),
    );
  });
});

describe("providers", () => {
  it("the Stripe provider asks for the booking's price with one idempotency key per booking, and records the payment", async () => {
    const b = await book();
    const calls: { params: Stripe.PaymentIntentCreateParams; options: Stripe.RequestOptions | undefined }[] = [];
    const paymentIntents: StripePaymentIntents = {
      create: async (params, options) => {
        calls.push({ params, options });
        return { id: "pi_fake_1", client_secret: "pi_fake_1_secret_abc" };
      },
    };
    const provider = new StripePaymentProvider(api.ctx.db, {
      secretKey: "sk_test_unused",
      publishableKey: "pk_test_123",
      client: { paymentIntents },
    });
    const request = {
      bookingId: b.bookingId,
      expertId: b.expertId,
      creatorId: b.creator.id,
      amountCents: PRICE,
      currency: "EUR" as const,
      description: "Growth strategy",
    };
    expect(await provider.createIntent(request)).toEqual({ paymentId: "pi_fake_1", clientSecret: "pi_fake_1_secret_abc" });
    await provider.createIntent(request);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toEqual({
      params: {
        amount: PRICE,
        currency: "eur",
        description: "Growth strategy",
        metadata: { bookingId: b.bookingId, expertId: b.expertId },
        automatic_payment_methods: { enabled: true },
      },
      options: { idempotencyKey: `booking-${b.bookingId}` },
    });
    expect(calls[1]).toEqual(calls[0]);
    const { rows } = await api.ctx.db.query("SELECT payment_id, provider, client_secret, status FROM payments WHERE booking_id = $1", [
      b.bookingId,
    ]);
    expect(rows).toEqual([
      { payment_id: "pi_fake_1", provider: "stripe", client_secret: "pi_fake_1_secret_abc", status: "requires_payment" },
    ]);
  });

  it("configuration picks Stripe only when a secret key is set", () => {
    expect(paymentProviderFrom({}, lazyDb).name).toBe("test");
    const stripe = paymentProviderFrom({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" }, lazyDb);
    expect(stripe.name).toBe("stripe");
    expect(stripe.publishableKey).toBe("pk_test_x");
  });
});

describe("with Stripe configured and no webhook secret", () => {
  let stripeApi: TestApi;
  beforeAll(async () => {
    const paymentIntents: StripePaymentIntents = {
      create: async () => ({ id: `pi_${randomUUID().replace(/-/g, "")}`, client_secret: "secret" }),
    };
    const db: Queryable = { query: (text, values) => stripeApi.ctx.db.query(text, values) };
    stripeApi = await startTestApi({
      payments: new StripePaymentProvider(db, { secretKey: "sk_test_unused", publishableKey: "pk_test_123", client: { paymentIntents } }),
    });
  });
  afterAll(async () => stripeApi.close());

  it("the test card route and the webhook are not available", async () => {
    const creator = await stripeApi.user("creator");
    const confirmed = await stripeApi.call("POST", "/api/v1/payments/test/confirm", {
      user: creator,
      body: { client_secret: "x", card_number: "4242424242424242" },
    });
    expect(confirmed.statusCode).toBe(404);
    expect(confirmed.json()).toEqual({ code: "payment_provider_unavailable", message: "This payment method is not available." });
    const event = signedStripeEvent("payment_intent.succeeded", { id: "pi_1", object: "payment_intent" });
    const hook = await stripeApi.call("POST", "/api/v1/stripe/webhook", {
      body: event.payload,
      headers: { "content-type": "application/json", "stripe-signature": event.signature },
    });
    expect(hook.statusCode).toBe(404);
    expect(hook.json().code).toBe("payment_provider_unavailable");
  });
});
