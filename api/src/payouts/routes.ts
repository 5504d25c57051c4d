import { randomUUID } from "node:crypto";
import type pg from "pg";
import {
  ExpertBalanceReply,
  ExpertPayoutsReply,
  PLATFORM_FEE_BASIS_POINTS,
  PayoutAccountReply,
  PayoutOnboardingReply,
  PayoutReply,
  PayoutRequestBody,
  TestOnboardingBody,
  payoutStream,
  type Currency,
  type PayoutCommand,
} from "@booking/contracts";
import { payoutBalances, type PayoutState } from "@booking/engine";
import type { PayoutCommands } from "../main/index.ts";
import { actorOf, commandActor, idempotencyKeyOf, refuse, requireExpertAccount, valueOf } from "../http/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import { pendingShares } from "./balances.ts";
import type { PayoutProvider } from "./provider.ts";
import { PAYOUTS_ACTOR, sendPayoutCommand } from "./record-payouts.ts";
import { TestPayoutProvider } from "./test-payout-provider.ts";

// The expert's payouts: their payout account (connected at the provider, finished in its
// onboarding, or the test provider's in-app one), their balance per currency and their payouts.
// "me" is the signed-in expert (an expert's id is their user id). The account and the balance are
// read from the expert's payouts stream itself, so they show a command's effect at once.

export type PayoutRouteDeps = {
  /** The payouts area's tables. */
  db: pg.Pool;
  payouts: PayoutCommands;
  payoutProvider: PayoutProvider;
  projected: Projected;
  /** Where the provider's onboarding sends the expert back to (the web app). */
  publicUrl: string;
};

export function accountReply(state: PayoutState, configured: PayoutProvider["name"]): PayoutAccountReply {
  const account = state.account;
  return {
    status: !account ? "none" : account.payoutsEnabled ? "enabled" : "incomplete",
    provider: account?.provider ?? configured,
    account_id: account?.accountId ?? null,
    held: state.held !== null,
    held_reason: state.held?.reason ?? null,
    fee_basis_points: PLATFORM_FEE_BASIS_POINTS,
  };
}

type PayoutRaw = {
  payout_key: string;
  payout_id: string | null;
  amount_cents: string;
  currency: Currency;
  status: PayoutReply["status"];
  failure_reason: string | null;
  by: PayoutReply["by"];
  requested_at: Date;
  paid_at: Date | null;
};
const payoutColumns = "payout_key, payout_id, amount_cents, currency, status, failure_reason, by, requested_at, paid_at";
const payoutFromPg = (r: PayoutRaw): PayoutReply => ({
  ...r,
  amount_cents: Number(r.amount_cents),
  requested_at: r.requested_at.toISOString(),
  paid_at: r.paid_at?.toISOString() ?? null,
});

export const payoutRoutes: RoutePlugin<PayoutRouteDeps> = async (app, { db, payouts, payoutProvider, projected, publicUrl }) => {
  const stateOf = async (expertId: string) => (await payouts.load(payoutStream(expertId))).state;
  const asExpert = { onRequest: requireExpertAccount };

  app.get("/experts/me/payout-account", { ...asExpert, schema: { response: { 200: PayoutAccountReply } } }, async (request) =>
    accountReply(await stateOf(actorOf(request).userId), payoutProvider.name),
  );

  // An account at the provider (the same one when asked again) and the link to finish connecting it.
  app.post("/experts/me/payout-account", { ...asExpert, schema: { response: { 201: PayoutOnboardingReply } } }, async (request, reply) => {
    const actor = actorOf(request);
    const expertId = actor.userId;
    const known = (await stateOf(expertId)).account;
    if (known?.payoutsEnabled) refuse("payout_account_exists");
    // An unfinished account is finished, never replaced: Stripe forgets the create's idempotency key
    // after 24 hours, so asking again the next day would open the expert a second account.
    const account =
      known && known.provider === payoutProvider.name ? known : await payoutProvider.createAccount({ expertId, email: actor.email });
    if (account !== known) {
      const connect: PayoutCommand = {
        type: "ConnectPayoutAccount",
        expertId,
        actor: commandActor(actor),
        accountId: account.accountId,
        provider: payoutProvider.name,
      };
      await projected(valueOf(await sendPayoutCommand({ db, payouts }, connect, `connect-${account.accountId}`, commandActor(actor))));
    }
    const onboardingUrl = await payoutProvider.onboardingUrl({
      accountId: account.accountId,
      returnUrl: `${publicUrl}/payouts?onboarding=done`,
      refreshUrl: `${publicUrl}/payouts?onboarding=refresh`,
    });
    return reply.status(201).send({ onboarding_url: onboardingUrl });
  });

  // The test provider's onboarding, finished or left incomplete (there is none with Stripe).
  app.post(
    "/experts/me/payout-account/test-onboarding",
    { ...asExpert, schema: { body: TestOnboardingBody, response: { 200: PayoutAccountReply } } },
    async (request) => {
      if (!(payoutProvider instanceof TestPayoutProvider)) return refuse("not_found");
      const expertId = actorOf(request).userId;
      const account = (await stateOf(expertId)).account;
      if (!account) return refuse("payout_account_required");
      const status = await payoutProvider.finishOnboarding(account.accountId, request.body.complete);
      const record: PayoutCommand = { type: "RecordPayoutAccountStatus", expertId, actor: PAYOUTS_ACTOR, ...status };
      await projected(valueOf(await sendPayoutCommand({ db, payouts }, record, undefined)));
      return accountReply(await stateOf(expertId), payoutProvider.name);
    },
  );

  app.get("/experts/me/balance", { ...asExpert, schema: { response: { 200: ExpertBalanceReply } } }, async (request) => {
    const expertId = actorOf(request).userId;
    const state = await stateOf(expertId);
    const pending = (await pendingShares(db, [expertId], new Set(state.earnings.keys()))).get(expertId) ?? new Map<Currency, number>();
    const balances = payoutBalances(state).map((b) => ({
      currency: b.currency,
      pending_cents: pending.get(b.currency) ?? 0,
      available_cents: b.availableCents,
      payable_cents: Math.max(b.payableCents, 0),
      in_transit_cents: b.inTransitCents,
      paid_out_cents: b.paidOutCents,
    }));
    for (const [currency, cents] of pending) {
      if (!balances.some((b) => b.currency === currency))
        balances.push({ currency, pending_cents: cents, available_cents: 0, payable_cents: 0, in_transit_cents: 0, paid_out_cents: 0 });
    }
    return { balances };
  });

  const payoutsOf = async (expertId: string) =>
    (
      await db.query<PayoutRaw>(`SELECT ${payoutColumns} FROM payout_payouts WHERE expert_id = $1 ORDER BY requested_at DESC, payout_key`, [
        expertId,
      ])
    ).rows.map(payoutFromPg);

  app.get("/experts/me/payouts", { ...asExpert, schema: { response: { 200: ExpertPayoutsReply } } }, async (request) => ({
    payouts: await payoutsOf(actorOf(request).userId),
  }));

  // A payout of what is available (or part of it); an Idempotency-Key makes a retried request the same payout.
  app.post(
    "/experts/me/payouts",
    { ...asExpert, schema: { body: PayoutRequestBody, response: { 201: PayoutReply } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const expertId = actor.userId;
      const given = idempotencyKeyOf(request.headers);
      const payoutKey = given ? `payout-${expertId}-${given}` : `payout-${randomUUID()}`;
      const { currency, amount_cents } = request.body;
      const command: PayoutCommand = {
        type: "RequestPayout",
        expertId,
        actor: commandActor(actor),
        payoutKey,
        currency,
        ...(amount_cents !== undefined && { amountCents: amount_cents }),
        by: "expert",
      };
      await projected(valueOf(await sendPayoutCommand({ db, payouts }, command, payoutKey, commandActor(actor))));
      const row = (await db.query<PayoutRaw>(`SELECT ${payoutColumns} FROM payout_payouts WHERE payout_key = $1`, [payoutKey])).rows[0];
      if (!row) return refuse("payout_not_found");
      return reply.status(201).send(payoutFromPg(row));
    },
  );
};
