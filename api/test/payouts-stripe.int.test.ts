import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payoutStream, reversalKeyOf, transferKeyOf, type PayoutCommand } from "@booking/contracts";
import { startStripeFixturesServer, stripeFixture, stripeFixtureEvent, type StripeFixturesServer } from "@booking/testkit";
import { sendPayoutCommand } from "../src/payouts/index.ts";
import { PayoutReactor } from "../src/payouts/reactor.ts";
import { StripePayoutProvider } from "../src/payouts/stripe-payout-provider.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// Stripe's payouts webhooks through the real route (signature verified with the webhook secret):
// events made from Stripe's example `event`, its data.object Stripe's example account, transfer
// (with its example reversal) or payout given this test's ids, signed with the library's own
// generateTestHeaderString. A correct one records its event on the expert's payouts stream once.

const WEBHOOK_SECRET = "whsec_test_payouts_secret";
/** The Connect endpoint's own secret: events on connected accounts come signed with it. */
const CONNECT_SECRET = "whsec_test_connect_secret";
const SYSTEM = { userId: "payouts", role: "system" } as const;
const DAY = 86_400_000;

let api: TestApi;
let stripe: StripeFixturesServer;
let provider: StripePayoutProvider;
beforeAll(async () => {
  stripe = await startStripeFixturesServer();
  const client = new Stripe("sk_test_fixtures", { ...stripe.clientOptions, maxNetworkRetries: 0 });
  api = await startTestApi({
    stripeWebhookSecret: WEBHOOK_SECRET,
    stripeConnectWebhookSecret: CONNECT_SECRET,
    payoutProvider: (provider = new StripePayoutProvider({ secretKey: "sk_test_fixtures", client })),
  });
});
afterAll(async () => {
  await api.close();
  await stripe.close();
});

const stripeId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 24)}`;

async function send(command: PayoutCommand, key = randomUUID()) {
  const r = await sendPayoutCommand({ db: api.ctx.db, payouts: api.ctx.payouts }, command, key);
  if (!r.ok) throw new Error(`${command.type}: ${r.refusal.code}`);
}

async function payoutEvents(expertId: string) {
  const { events } = await api.ctx.store.readStream(payoutStream(expertId));
  return events.map((e) => ({ type: e.type, data: e.data as Record<string, unknown> }));
}

function signed(event: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

const deliver = (event: { payload: string; signature: string }) =>
  api.call("POST", "/api/v1/stripe/webhook", {
    body: event.payload,
    headers: { "content-type": "application/json", "stripe-signature": event.signature },
  });

async function deliverOk(event: { payload: string; signature: string }) {
  const r = await deliver(event);
  expect(r.statusCode, r.body).toBe(200);
  expect(r.json()).toEqual({ received: true });
}

type Expert = { expertId: string; accountId: string };

/** An expert who connected a Stripe account (not yet able to be paid). */
async function connected(): Promise<Expert> {
  const expertId = `ex-${randomUUID()}`;
  const accountId = stripeId("acct");
  await send({ type: "ConnectPayoutAccount", expertId, actor: { userId: expertId, role: "expert" }, accountId, provider: "stripe" });
  return { expertId, accountId };
}

/** ... whose account Stripe enabled, with a booking's share released and transferred to it. */
async function paidTo(expert: Expert): Promise<{ bookingId: string; transferId: string }> {
  const { expertId, accountId } = expert;
  await send({ type: "RecordPayoutAccountStatus", expertId, actor: SYSTEM, accountId, payoutsEnabled: true, detailsSubmitted: true });
  const bookingId = `bk-${randomUUID()}`;
  const completedAt = new Date(Date.now() - 30 * DAY).toISOString();
  const earning = { bookingId, currency: "USD" as const, paidCents: 10_000, refundedCents: 0, feeBasisPoints: 1500, completedAt };
  await send({ type: "ReleaseEarning", expertId, actor: SYSTEM, earning });
  const transferId = stripeId("tr");
  const transfer = { transferKey: transferKeyOf(bookingId), bookingId, transferId, amountCents: 8_500, currency: "USD" as const };
  await send({ type: "RecordTransfer", expertId, actor: SYSTEM, ...transfer });
  return { bookingId, transferId };
}

const accountUpdated = (accountId: string, fields: Record<string, unknown> = {}) =>
  stripeFixtureEvent("account.updated", { ...stripeFixture("account"), id: accountId, ...fields });

describe("connecting a Stripe payout account", () => {
  it("creates the expert's Express account and links to Stripe's onboarding; account.updated then enables it", async () => {
    const expert = await api.user("expert");
    const r = await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toEqual({ onboarding_url: stripeFixture("account_link").url });
    const account = (await api.call("GET", "/api/v1/experts/me/payout-account", { user: expert })).json();
    expect(account).toMatchObject({ status: "incomplete", provider: "stripe", account_id: expect.stringMatching(/^acct_/) });
    const accountId = account.account_id as string;
    expect(stripe.requests.find((q) => q.path === "/v1/accounts" && q.idempotencyKey === `account-${expert.id}`)).toMatchObject({
      form: { type: "express", email: expert.email, "metadata[expertId]": expert.id, "capabilities[transfers][requested]": "true" },
    });
    expect(stripe.requests.find((q) => q.path === "/v1/account_links" && q.form.account === accountId)).toMatchObject({
      form: { type: "account_onboarding", return_url: expect.stringContaining("/payouts?onboarding=done") },
    });

    stripe.updateAccount(accountId, { payouts_enabled: true, details_submitted: true });
    await deliverOk(signed(accountUpdated(accountId, { payouts_enabled: true, details_submitted: true })));
    expect((await api.call("GET", "/api/v1/experts/me/payout-account", { user: expert })).json()).toMatchObject({
      status: "enabled",
      account_id: accountId,
    });
  });

  it("an expert who comes back after Stripe forgot the key (24 hours) finishes their one account, not a second", async () => {
    const expert = await api.user("expert");
    const accountOf = async () =>
      (await api.call("GET", "/api/v1/experts/me/payout-account", { user: expert })).json().account_id as string;
    expect((await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert })).statusCode).toBe(201);
    const first = await accountOf();
    stripe.forgetIdempotencyKeys();
    expect((await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert })).statusCode).toBe(201);
    expect(await accountOf()).toBe(first);
    const created = stripe.requests.filter((q) => q.path === "/v1/accounts" && q.form["metadata[expertId]"] === expert.id && !q.replayed);
    expect(created).toHaveLength(1);
    expect(stripe.requests.filter((q) => q.path === "/v1/account_links" && q.form.account === first)).toHaveLength(2);
  });
});

describe("account.updated", () => {
  it("records that Stripe can now pay the expert's account, once however often it is delivered", async () => {
    const expert = await connected();
    const stripeEvent = accountUpdated(expert.accountId, { payouts_enabled: true, details_submitted: true });
    const event = signed(stripeEvent);
    await deliverOk(event);
    const reportedAt = new Date(Number(stripeEvent.created) * 1000).toISOString();
    const updated = { type: "PayoutAccountUpdated", data: { ...expert, payoutsEnabled: true, detailsSubmitted: true, reportedAt } };
    expect(await payoutEvents(expert.expertId)).toEqual([expect.objectContaining({ type: "PayoutAccountConnected" }), updated]);
    await deliverOk(event);
    expect(await payoutEvents(expert.expertId)).toHaveLength(2);
    // The payouts tables follow at once (GET /experts/me/payout-account reads them).
    const { rows } = await api.ctx.db.query("SELECT payouts_enabled FROM payout_experts WHERE expert_id = $1", [expert.expertId]);
    expect(rows).toEqual([{ payouts_enabled: true }]);
  });

  it("a bad signature is refused and records nothing", async () => {
    const expert = await connected();
    const honest = signed(accountUpdated(expert.accountId, { payouts_enabled: true, details_submitted: true }));
    const forged = signed(JSON.parse(honest.payload) as Record<string, unknown>, "whsec_someone_else");
    for (const attempt of [
      forged,
      { payload: honest.payload.replace('"payouts_enabled":true', '"payouts_enabled":false'), signature: honest.signature },
    ]) {
      const r = await deliver(attempt);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ code: "webhook_signature_invalid" });
    }
    expect(await payoutEvents(expert.expertId)).toHaveLength(1);
  });

  it("Connect events signed with the Connect endpoint's secret are taken too; a third secret is not", async () => {
    const expert = await connected();
    const event = accountUpdated(expert.accountId, { payouts_enabled: true, details_submitted: true });
    const r = await deliver(signed(event, "whsec_someone_else"));
    expect(r.statusCode).toBe(400);
    expect(await payoutEvents(expert.expertId)).toHaveLength(1);
    await deliverOk(signed(event, CONNECT_SECRET));
    expect((await payoutEvents(expert.expertId)).map((e) => e.type)).toEqual(["PayoutAccountConnected", "PayoutAccountUpdated"]);
  });

  it("delivered out of order, an older report never undoes a newer one", async () => {
    const expert = await connected();
    const now = Math.floor(Date.now() / 1000);
    const newer = accountUpdated(expert.accountId, { payouts_enabled: true, details_submitted: true });
    const older = accountUpdated(expert.accountId, { payouts_enabled: false, details_submitted: true });
    await deliverOk(signed({ ...newer, created: now }));
    await deliverOk(signed({ ...older, created: now - 60 }));
    const updates = (await payoutEvents(expert.expertId)).filter((e) => e.type === "PayoutAccountUpdated");
    expect(updates.map((e) => e.data.payoutsEnabled)).toEqual([true]);
    const { rows } = await api.ctx.db.query("SELECT payouts_enabled FROM payout_experts WHERE expert_id = $1", [expert.expertId]);
    expect(rows).toEqual([{ payouts_enabled: true }]);
  });

  it("an account no expert connected is acknowledged and recorded nowhere", async () => {
    const stranger = stripeId("acct");
    await deliverOk(signed(accountUpdated(stranger, { payouts_enabled: true })));
    const { rows } = await api.ctx.db.query("SELECT 1 FROM payout_experts WHERE account_id = $1", [stranger]);
    expect(rows).toEqual([]);
  });
});

describe("transfer.reversed", () => {
  it("records the reversal of a refunded share on the expert's stream, once", async () => {
    const expert = await connected();
    const { bookingId, transferId } = await paidTo(expert);
    const reversalKey = reversalKeyOf(bookingId, 5_000);
    const reversal = {
      ...stripeFixture("transfer_reversal"),
      id: stripeId("trr"),
      amount: 4_250,
      transfer: transferId,
      metadata: { reversalKey, bookingId },
    };
    const transfer = { ...stripeFixture("transfer"), id: transferId, amount: 8_500, amount_reversed: 4_250, destination: expert.accountId };
    const event = signed(
      stripeFixtureEvent("transfer.reversed", { ...transfer, reversals: { object: "list", data: [reversal], has_more: false } }),
    );
    await deliverOk(event);
    const reversed = (await payoutEvents(expert.expertId)).filter((e) => e.type === "TransferReversed");
    expect(reversed).toEqual([
      {
        type: "TransferReversed",
        data: {
          expertId: expert.expertId,
          reversalKey,
          bookingId,
          transferId,
          reversalId: reversal.id,
          amountCents: 4_250,
          currency: "USD",
        },
      },
    ]);
    await deliverOk(event);
    expect((await payoutEvents(expert.expertId)).filter((e) => e.type === "TransferReversed")).toHaveLength(1);
  });
});

describe("payout.paid and payout.failed", () => {
  /** A payout of the expert's available money that Stripe took (its id known). */
  async function sentPayout(expert: Expert) {
    await paidTo(expert);
    const payoutKey = `payout-${randomUUID()}`;
    await send({ type: "RequestPayout", expertId: expert.expertId, actor: SYSTEM, payoutKey, currency: "USD", by: "schedule" });
    const payoutId = stripeId("po");
    await send({ type: "RecordPayoutSent", expertId: expert.expertId, actor: SYSTEM, payoutKey, payoutId });
    const payout = {
      ...stripeFixture("payout"),
      id: payoutId,
      amount: 8_500,
      automatic: false,
      metadata: { payoutKey, expertId: expert.expertId },
    };
    return { payoutKey, payoutId, payout };
  }

  it("payout.paid records the payout paid, once", async () => {
    const expert = await connected();
    const { payoutKey, payoutId, payout } = await sentPayout(expert);
    const event = signed(stripeFixtureEvent("payout.paid", { ...payout, status: "paid" }, { account: expert.accountId }));
    await deliverOk(event);
    await deliverOk(event);
    const paid = (await payoutEvents(expert.expertId)).filter((e) => e.type === "PayoutPaid");
    expect(paid).toEqual([{ type: "PayoutPaid", data: { expertId: expert.expertId, payoutKey, payoutId } }]);
    const { rows } = await api.ctx.db.query("SELECT status FROM payout_payouts WHERE payout_key = $1", [payoutKey]);
    expect(rows).toEqual([{ status: "paid" }]);
  });

  it("payout.failed records the failure with Stripe's reason, and the money is available again", async () => {
    const expert = await connected();
    const { payoutKey, payout } = await sentPayout(expert);
    const failed = { ...payout, status: "failed", failure_code: "account_closed", failure_message: "The bank account has been closed." };
    await deliverOk(signed(stripeFixtureEvent("payout.failed", failed, { account: expert.accountId })));
    const events = (await payoutEvents(expert.expertId)).filter((e) => e.type === "PayoutFailed");
    expect(events).toEqual([
      {
        type: "PayoutFailed",
        data: {
          expertId: expert.expertId,
          payoutKey,
          reason: "Stripe could not pay out: account closed: The bank account has been closed.",
        },
      },
    ]);
    // Available again: the next payout may take the whole share.
    await send({
      type: "RequestPayout",
      expertId: expert.expertId,
      actor: SYSTEM,
      payoutKey: `payout-${randomUUID()}`,
      currency: "USD",
      by: "schedule",
    });
    const requested = (await payoutEvents(expert.expertId)).filter((e) => e.type === "PayoutRequested");
    expect(requested.map((e) => e.data.amountCents)).toEqual([8_500, 8_500]);
  });

  it("payout.failed after payout.paid (the bank returned it): recorded, and the money can be paid out again", async () => {
    const expert = await connected();
    const { payoutKey, payout } = await sentPayout(expert);
    await deliverOk(signed(stripeFixtureEvent("payout.paid", { ...payout, status: "paid" }, { account: expert.accountId })));
    const failed = { ...payout, status: "failed", failure_code: "account_closed", failure_message: "The bank account has been closed." };
    await deliverOk(signed(stripeFixtureEvent("payout.failed", failed, { account: expert.accountId }), CONNECT_SECRET));
    const ended = (await payoutEvents(expert.expertId)).filter((e) => e.type === "PayoutPaid" || e.type === "PayoutFailed");
    expect(ended.map((e) => [e.type, e.data.afterPaid])).toEqual([
      ["PayoutPaid", undefined],
      ["PayoutFailed", true],
    ]);
    const { rows } = await api.ctx.db.query("SELECT status FROM payout_payouts WHERE payout_key = $1", [payoutKey]);
    expect(rows).toEqual([{ status: "failed" }]);
    const again = `payout-${randomUUID()}`;
    await send({ type: "RequestPayout", expertId: expert.expertId, actor: SYSTEM, payoutKey: again, currency: "USD", by: "schedule" });
    const requested = (await payoutEvents(expert.expertId)).filter((e) => e.type === "PayoutRequested");
    expect(requested.map((e) => e.data.amountCents)).toEqual([8_500, 8_500]);
  });

  it("a payout the product never asked for (Stripe's example payout as it is) records nothing", async () => {
    const expert = await connected();
    await paidTo(expert);
    const before = await payoutEvents(expert.expertId);
    await deliverOk(signed(stripeFixtureEvent("payout.paid", stripeFixture("payout"), { account: expert.accountId })));
    expect(await payoutEvents(expert.expertId)).toEqual(before);
  });
});

it("an event type payouts do not listen to is acknowledged and ignored as before (Stripe's example event as it is)", async () => {
  await deliverOk(signed(stripeFixture("event")));
});

describe("the payout reactor through Stripe", () => {
  it("transfers a released share and pays it out from the expert's account; payout.paid then records it paid", async () => {
    const expert = await api.user("expert");
    expect((await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert })).statusCode).toBe(201);
    const accountId = (await api.call("GET", "/api/v1/experts/me/payout-account", { user: expert })).json().account_id as string;
    await deliverOk(signed(accountUpdated(accountId, { payouts_enabled: true, details_submitted: true })));
    const bookingId = `bk-${randomUUID()}`;
    const completedAt = new Date(Date.now() - 30 * DAY).toISOString();
    const earning = { bookingId, currency: "EUR" as const, paidCents: 15_000, refundedCents: 0, feeBasisPoints: 1500, completedAt };
    await send({ type: "ReleaseEarning", expertId: expert.id, actor: SYSTEM, earning });
    const reactor = new PayoutReactor(
      { log: api.ctx.store, db: api.ctx.db, payouts: api.ctx.payouts, provider, clock: () => new Date().toISOString() },
      { warn: () => undefined },
    );

    await reactor.runOnce();
    const transfers = stripe.requests.filter((q) => q.path === "/v1/transfers" && q.form.destination === accountId);
    expect(transfers).toEqual([
      expect.objectContaining({
        idempotencyKey: transferKeyOf(bookingId),
        stripeAccount: null,
        form: expect.objectContaining({ amount: "12750", currency: "eur", transfer_group: bookingId }),
      }),
    ]);
    const sent = (await payoutEvents(expert.id)).find((e) => e.type === "TransferSent");
    expect(sent?.data).toMatchObject({ bookingId, amountCents: 12_750, currency: "EUR", transferId: expect.stringMatching(/^tr_fixture/) });

    const asked = await api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "EUR" } });
    expect(asked.statusCode, asked.body).toBe(201);
    await reactor.runOnce();
    const payouts = stripe.requests.filter((q) => q.path === "/v1/payouts" && q.stripeAccount === accountId);
    expect(payouts).toEqual([
      expect.objectContaining({
        idempotencyKey: asked.json().payout_key,
        form: expect.objectContaining({ amount: "12750", currency: "eur" }),
      }),
    ]);
    const payoutId = (await payoutEvents(expert.id)).find((e) => e.type === "PayoutSent")?.data.payoutId as string;
    expect(payoutId).toMatch(/^po_fixture/);

    // Stripe's word that it arrived, on the expert's connected account.
    const paid = { ...stripeFixture("payout"), id: payoutId, amount: 12_750, currency: "eur", status: "paid", automatic: false };
    await deliverOk(signed(stripeFixtureEvent("payout.paid", paid, { account: accountId })));
    const list = (await api.call("GET", "/api/v1/experts/me/payouts", { user: expert })).json();
    expect(list.payouts).toEqual([expect.objectContaining({ payout_id: payoutId, amount_cents: 12_750, currency: "EUR", status: "paid" })]);
  });
});
