import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerEntries } from "@booking/projections";
import { startStripeFixturesServer, stripeFixture, stripeFixtureEvent, type StripeFixturesServer } from "@booking/testkit";
import type { Queryable } from "../src/payments/payments-table.ts";
import { StripePaymentProvider } from "../src/payments/stripe-provider.ts";
import { StripePayoutProvider } from "../src/payouts/stripe-payout-provider.ts";
import { runReconciliation } from "../src/reconciliation/index.ts";
import { heldSession, mustCall, requestedSession, walkMoneyPath } from "./money-path.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { waitFor } from "./processes.ts";

// Reconciliation against Stripe (issue 29.6): the whole money path through the `stripe` client
// pointed at the local server of Stripe's example objects (charge, refund, transfer, reversal,
// payout, each with its balance transaction). The run reads Stripe's balance transactions, the
// platform's and the expert's connected account's, and finds the ledger's five movements there;
// a charge the product knows nothing of is exactly one difference; a payout the bank returned
// differs until its payout.failed is recorded.

const SECRET = "whsec_test_reconciliation";
let now = Date.parse("2030-03-04T08:00:00.000Z");
const clock = () => new Date(now).toISOString();
let stripe: StripeFixturesServer;
let client: Stripe;
let api: TestApi;
let expert: TestUser;
let bookingId: string;
let payoutId: string;
let accountId: string;

const must = (user: TestUser, method: "GET" | "POST", url: string, body?: unknown) => mustCall(api, user, method, url, body);
const deliver = async (event: Record<string, unknown>) => {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(now / 1000) });
  const r = await api.call("POST", "/api/v1/stripe/webhook", {
    body: payload,
    headers: { "content-type": "application/json", "stripe-signature": signature },
  });
  expect(r.statusCode, r.body).toBe(200);
};
const reconciled = () => runReconciliation({ db: api.ctx.db, provider: "stripe", stripe: client, clock }, "admin");

beforeAll(async () => {
  stripe = await startStripeFixturesServer();
  stripe.payoutStatus = "paid";
  client = new Stripe("sk_test_fixtures", { ...stripe.clientOptions, maxNetworkRetries: 0 });
  const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
  const payments = new StripePaymentProvider(lazyDb, { secretKey: "sk_test_fixtures", publishableKey: "pk_test_fixtures", client });
  const payoutProvider = new StripePayoutProvider({ secretKey: "sk_test_fixtures", client });
  api = await startTestApi({ clock, payments, payoutProvider, stripeWebhookSecret: SECRET });
  const session = await requestedSession(api, now);
  ({ expert, bookingId } = session);
  // Paid as Stripe.js would: the intent made through the route, the card charged at Stripe, its webhook.
  const intentMade = await must(session.creator, "POST", "/api/v1/stripe/test-intent", { bookingId });
  const { paymentId } = intentMade.json() as { paymentId: string };
  stripe.charge({ paymentIntent: paymentId, amount: 15_000, currency: "usd" });
  const intent = { ...stripeFixture("payment_intent"), id: paymentId, amount: 15_000, amount_received: 15_000, currency: "usd" };
  await deliver(stripeFixtureEvent("payment_intent.succeeded", { ...intent, metadata: { bookingId, expertId: expert.id } }));
  await heldSession(session, (at) => (now = at));
  await must(expert, "POST", "/api/v1/experts/me/payout-account");
  accountId = (await must(expert, "GET", "/api/v1/experts/me/payout-account")).json().account_id as string;
  // Onboarding finished at Stripe: account.updated says so.
  const account = { ...stripeFixture("account"), id: accountId, payouts_enabled: true, details_submitted: true };
  stripe.updateAccount(accountId, { payouts_enabled: true, details_submitted: true });
  await deliver(stripeFixtureEvent("account.updated", account));

  await walkMoneyPath({ api, session, payments, payoutProvider, clock, advance: (ms) => (now += ms) });
  payoutId = (await payoutRow()).payout_id;
});
afterAll(async () => {
  await api?.close();
  await stripe?.close();
});

const payoutRow = async () =>
  (
    await api.ctx.db.query<{ payout_id: string; payout_key: string }>(
      "SELECT payout_id, payout_key FROM payout_payouts WHERE expert_id = $1",
      [expert.id],
    )
  ).rows[0]!;

describe("reconciliation against Stripe's balance transactions", () => {
  it("a clean run finds the payment, the refund, the transfer, its reversal and the payout, and no difference", async () => {
    const run = await reconciled();
    expect(run).toMatchObject({ provider: "stripe", complete: true, note: null, ledgerCount: 5, providerCount: 5 });
    expect(run.differences).toEqual([]);
    // The platform's balance and the expert's connected account were both listed, sources expanded.
    const listed = stripe.requests.filter((r) => r.path === "/v1/balance_transactions");
    expect(listed.map((r) => r.stripeAccount)).toEqual(expect.arrayContaining([null, accountId]));
  });

  it("a payout the bank returned differs until Stripe's payout.failed is recorded; then none does", async () => {
    stripe.setPayoutStatus(payoutId, "failed");
    const before = await reconciled();
    expect(before.differences).toEqual([
      expect.objectContaining({ kind: "extra", movement: "payout", ref: expert.id, ledgerCents: 8_500 }),
    ]);
    const { payout_key } = await payoutRow();
    const failed = {
      ...stripeFixture("payout"),
      id: payoutId,
      amount: 8_500,
      currency: "usd",
      status: "failed",
      failure_code: "account_closed",
    };
    await deliver(
      stripeFixtureEvent("payout.failed", { ...failed, metadata: { payoutKey: payout_key, expertId: expert.id } }, { account: accountId }),
    );
    await waitFor(
      "the returned payout in the ledger",
      async () => (await ledgerEntries(api.ctx.db)).some((e) => e.event_type === "PayoutFailed"),
      15_000,
    );
    expect((await reconciled()).differences).toEqual([]);
  });

  it("a charge the product knows nothing of is exactly one difference: money at Stripe the ledger does not have", async () => {
    const chargeId = stripe.charge({ paymentIntent: "pi_made_elsewhere", amount: 999, currency: "usd" });
    const run = await reconciled();
    expect(run.differences).toEqual([
      expect.objectContaining({
        kind: "missing",
        movement: "payment",
        ref: `stripe:${chargeId}`,
        ledgerCents: null,
        providerCents: 999,
        currency: "USD",
      }),
    ]);
  });
});
