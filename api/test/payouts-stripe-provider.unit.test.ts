import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reversalKeyOf, transferKeyOf } from "@booking/contracts";
import { startStripeFixturesServer, stripeErrors, stripeFixture, type StripeFixturesServer } from "@booking/testkit";
import { StripePayoutProvider } from "../src/payouts/stripe-payout-provider.ts";

// The Stripe payouts provider against a local server answering with Stripe's own example objects
// (../shared/stripe/fixtures3.json): given a client pointed at it, when a payouts call is made,
// then the request Stripe would get (path, form, Idempotency-Key, Stripe-Account) and the outcome.

let stripe: StripeFixturesServer;
let provider: StripePayoutProvider;
const clientOf = (maxNetworkRetries = 0) => new Stripe("sk_test_fixtures", { ...stripe.clientOptions, maxNetworkRetries });

beforeAll(async () => {
  stripe = await startStripeFixturesServer();
  provider = new StripePayoutProvider({ secretKey: "sk_test_fixtures", client: clientOf() });
});
afterAll(async () => stripe.close());
beforeEach(() => {
  stripe.requests.length = 0;
  stripe.payoutStatus = "in_transit";
});

let n = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
const transferAsk = (bookingId = fresh("bk"), accountId = "acct_1PgafTB7WZ01zgkW") => ({
  transferKey: transferKeyOf(bookingId),
  accountId,
  bookingId,
  expertId: "ex-1",
  amountCents: 12_750,
  currency: "EUR" as const,
});
const last = () => stripe.requests.at(-1)!;

describe("payout accounts", () => {
  it("creates an Express account for the expert under one key per expert, paid out by the product", async () => {
    const expertId = fresh("ex");
    const account = await provider.createAccount({ expertId, email: "ada@example.com" });
    expect(account).toEqual({ accountId: expect.stringMatching(/^acct_/), payoutsEnabled: false, detailsSubmitted: false });
    expect(last()).toMatchObject({
      method: "POST",
      path: "/v1/accounts",
      idempotencyKey: `account-${expertId}`,
      stripeAccount: null,
      form: {
        type: "express",
        email: "ada@example.com",
        "metadata[expertId]": expertId,
        "capabilities[transfers][requested]": "true",
        "settings[payouts][schedule][interval]": "manual",
      },
    });
    // A double click or a retry after a crash: Stripe answers with the first account.
    expect(await provider.createAccount({ expertId, email: "ada@example.com" })).toEqual(account);
    expect(last().replayed).toBe(true);
  });

  it("links to Stripe's hosted onboarding for the account", async () => {
    const { accountId } = await provider.createAccount({ expertId: fresh("ex"), email: "b@example.com" });
    const url = await provider.onboardingUrl({
      accountId,
      returnUrl: "https://app.test/payouts/done",
      refreshUrl: "https://app.test/payouts/again",
    });
    expect(url).toBe(stripeFixture("account_link").url);
    expect(last()).toMatchObject({
      method: "POST",
      path: "/v1/account_links",
      form: {
        account: accountId,
        return_url: "https://app.test/payouts/done",
        refresh_url: "https://app.test/payouts/again",
        type: "account_onboarding",
      },
    });
  });

  it("reads whether Stripe pays the account out and has its details", async () => {
    const { accountId } = await provider.createAccount({ expertId: fresh("ex"), email: "c@example.com" });
    stripe.updateAccount(accountId, { payouts_enabled: true, details_submitted: true });
    expect(await provider.accountStatus(accountId)).toEqual({ accountId, payoutsEnabled: true, detailsSubmitted: true });
    expect(last()).toMatchObject({ method: "GET", path: `/v1/accounts/${accountId}` });
  });
});

describe("transfers", () => {
  it("transfers the share to the expert's account once per booking, in lower-case currency, grouped by booking", async () => {
    const ask = transferAsk();
    const outcome = await provider.transfer(ask);
    expect(outcome).toEqual({ status: "sent", transferId: expect.stringMatching(/^tr_/) });
    expect(last()).toMatchObject({
      method: "POST",
      path: "/v1/transfers",
      idempotencyKey: `transfer-${ask.bookingId}`,
      stripeAccount: null,
      form: {
        amount: "12750",
        currency: "eur",
        destination: ask.accountId,
        transfer_group: ask.bookingId,
        "metadata[bookingId]": ask.bookingId,
        "metadata[transferKey]": ask.transferKey,
      },
    });
    // Asked again after a crash: the same transfer, not a second one.
    expect(await provider.transfer(ask)).toEqual(outcome);
    expect(last().replayed).toBe(true);
  });

  it("an insufficient platform balance is a failed transfer with Stripe's reason", async () => {
    stripe.refuseNext({ path: "/v1/transfers", reply: stripeErrors.insufficientFunds() });
    const outcome = await provider.transfer(transferAsk());
    expect(outcome).toEqual({ status: "failed", reason: expect.stringContaining("Stripe refused the transfer: balance insufficient") });
  });

  it("a refused transfer goes through on a later attempt: Stripe replays the refusal under its key, so the next key of the chain is asked", async () => {
    const ask = transferAsk();
    stripe.refuseNext({ path: "/v1/transfers", reply: stripeErrors.insufficientFunds() });
    expect(await provider.transfer(ask)).toMatchObject({ status: "failed" });
    // The platform's balance is topped up; the reactor asks again after its back-off.
    const sent = await provider.transfer(ask);
    expect(sent).toEqual({ status: "sent", transferId: expect.stringMatching(/^tr_/) });
    // Asked again after a crash lost that answer: the same keys, the same answers, the same one transfer.
    expect(await provider.transfer(ask)).toEqual(sent);
    const k = ask.transferKey;
    expect(stripe.requests.map((r) => [r.idempotencyKey, r.status, r.replayed])).toEqual([
      [k, 400, false],
      [k, 400, true],
      [`${k}~2`, 200, false],
      [k, 400, true],
      [`${k}~2`, 200, true],
    ]);
  });

  it("a destination account that cannot take transfers is a failed transfer", async () => {
    stripe.refuseNext({ path: "/v1/transfers", reply: stripeErrors.accountDisabled() });
    expect(await provider.transfer(transferAsk())).toMatchObject({ status: "failed", reason: expect.stringContaining("account invalid") });
  });

  it("a Stripe server error throws (the answer is unknown), after the client's own retry under the same key", async () => {
    const retrying = new StripePayoutProvider({ secretKey: "sk_test_fixtures", client: clientOf(1) });
    stripe.refuseNext({ path: "/v1/transfers", reply: stripeErrors.serverError() });
    const ask = transferAsk();
    await expect(retrying.transfer(ask)).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(stripe.requests.map((r) => [r.status, r.idempotencyKey, r.replayed])).toEqual([
      [500, ask.transferKey, false],
      // Stripe keeps the first answer to a key, a 500 included.
      [500, ask.transferKey, true],
    ]);
  });

  it("Stripe out of reach throws", async () => {
    const closed = await startStripeFixturesServer();
    await closed.close();
    const unreachable = new StripePayoutProvider({
      secretKey: "sk_test_fixtures",
      client: new Stripe("sk_test_fixtures", { ...closed.clientOptions, maxNetworkRetries: 0 }),
    });
    await expect(unreachable.transfer(transferAsk())).rejects.toBeInstanceOf(Stripe.errors.StripeConnectionError);
  });

  it("reverses part of a transfer under the reversal's key, naming it in the reversal's metadata", async () => {
    const ask = transferAsk();
    const sent = await provider.transfer(ask);
    if (sent.status !== "sent") throw new Error("transfer failed");
    const reversalKey = reversalKeyOf(ask.bookingId, 5_000);
    const reversal = { reversalKey, transferId: sent.transferId, bookingId: ask.bookingId, amountCents: 4_250, currency: "EUR" as const };
    const outcome = await provider.reverseTransfer(reversal);
    expect(outcome).toEqual({ status: "reversed", reversalId: expect.stringMatching(/^trr_/) });
    expect(last()).toMatchObject({
      method: "POST",
      path: `/v1/transfers/${sent.transferId}/reversals`,
      idempotencyKey: reversalKey,
      form: { amount: "4250", "metadata[reversalKey]": reversalKey, "metadata[bookingId]": ask.bookingId },
    });
    expect(await provider.reverseTransfer(reversal)).toEqual(outcome);
  });

  it("a reversal Stripe refuses (an unknown transfer) is a failed reversal", async () => {
    const outcome = await provider.reverseTransfer({
      reversalKey: reversalKeyOf("bk-x", 100),
      transferId: "tr_unknown",
      bookingId: "bk-x",
      amountCents: 100,
      currency: "USD",
    });
    expect(outcome).toEqual({ status: "failed", reason: expect.stringContaining("Stripe refused the reversal: resource missing") });
  });
});

describe("payouts", () => {
  const payoutAsk = (accountId = "acct_1PgafTB7WZ01zgkW") => ({
    payoutKey: fresh("payout"),
    accountId,
    expertId: "ex-1",
    amountCents: 20_000,
    currency: "GBP" as const,
  });

  it("pays out from the expert's connected account under the payout's key: in transit until Stripe says", async () => {
    const ask = payoutAsk();
    const outcome = await provider.payout(ask);
    expect(outcome).toEqual({ status: "in_transit", payoutId: expect.stringMatching(/^po_/) });
    expect(last()).toMatchObject({
      method: "POST",
      path: "/v1/payouts",
      idempotencyKey: ask.payoutKey,
      stripeAccount: ask.accountId,
      form: { amount: "20000", currency: "gbp", "metadata[payoutKey]": ask.payoutKey, "metadata[expertId]": "ex-1" },
    });
    expect(await provider.payout(ask)).toEqual(outcome);
  });

  it("a payout Stripe answers as paid is paid", async () => {
    stripe.payoutStatus = "paid";
    expect(await provider.payout(payoutAsk())).toEqual({ status: "paid", payoutId: expect.stringMatching(/^po_/) });
  });

  it("a payout Stripe refuses (not enough on the connected account) is a failed payout", async () => {
    stripe.refuseNext({ path: "/v1/payouts", reply: stripeErrors.insufficientFunds() });
    expect(await provider.payout(payoutAsk())).toEqual({
      status: "failed",
      reason: expect.stringContaining("Stripe refused the payout: balance insufficient"),
    });
  });

  it("a server error on a payout throws", async () => {
    stripe.refuseNext({ path: "/v1/payouts", reply: stripeErrors.serverError() });
    await expect(provider.payout(payoutAsk())).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
  });
});

describe("the fixture server's balance transactions (for reconciliation)", () => {
  it("lists each transfer and reversal on the platform's balance, each payout on the connected account's", async () => {
    const client = clientOf();
    const { accountId } = await provider.createAccount({ expertId: fresh("ex"), email: "d@example.com" });
    const ask = transferAsk(fresh("bk"), accountId);
    const sent = await provider.transfer(ask);
    if (sent.status !== "sent") throw new Error("transfer failed");
    await provider.reverseTransfer({
      reversalKey: reversalKeyOf(ask.bookingId, 1),
      transferId: sent.transferId,
      bookingId: ask.bookingId,
      amountCents: 750,
      currency: "EUR",
    });
    const payout = await provider.payout({ payoutKey: fresh("payout"), accountId, expertId: "ex-1", amountCents: 12_000, currency: "EUR" });
    const platform = (await client.balanceTransactions.list()).data.filter(
      (t) => t.source === sent.transferId || t.type === "transfer_refund",
    );
    expect(platform.slice(0, 2).map((t) => [t.type, t.amount, t.currency])).toEqual([
      ["transfer_refund", 750, "eur"],
      ["transfer", -12_750, "eur"],
    ]);
    const connected = await client.balanceTransactions.list({}, { stripeAccount: accountId });
    expect(connected.data.map((t) => [t.type, t.amount, t.source])).toEqual([
      ["payout", -12_000, payout.status === "failed" ? null : payout.payoutId],
    ]);
  });
});
