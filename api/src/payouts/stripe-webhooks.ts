import { z } from "zod";
import type { FastifyBaseLogger } from "fastify";
import { Currency, type PayoutCommand, type Result } from "@booking/contracts";
import type { CommandResult } from "@booking/event-store";
import { Refused } from "../http/index.ts";
import { transferOf } from "./payout-bookings-table.ts";
import { expertOfAccount, payoutOfProviderId } from "./payouts-table.ts";
import { PAYOUTS_ACTOR, sendPayoutCommand, type PayoutRecording } from "./record-payouts.ts";
import { stripePayoutFailure } from "./stripe-payout-provider.ts";

// Stripe's word on payouts (issue 29), once the webhook route has verified its signature: an
// expert's account can now be paid (account.updated), a transfer was reversed (transfer.reversed),
// a payout arrived or failed (payout.paid, payout.failed). Each becomes the payouts command it
// records, under the key the payout reactor records the same fact with, so a fact learnt both from
// Stripe's answer and from its webhook, or delivered twice, is recorded once. What the product
// never asked for (an account, transfer, reversal or payout it does not know) is logged and
// acknowledged, never recorded: reconciliation lists the money it moved.

/** What the webhook needs to know of the product's own payouts (the payouts read model answers). */
export interface PayoutWebhookLookup {
  /** The expert whose payout account this is (PayoutAccountConnected), or null when it is not one of ours. */
  expertOfAccount(accountId: string): Promise<string | null>;
  /** A transfer the product made (TransferSent): to whom, for which booking, in which currency; or null. */
  transferOf(transferId: string): Promise<{ bookingId: string; expertId: string; currency: Currency } | null>;
  /** A payout the provider took (PayoutSent) by the provider's id: its key and whose it is; or null. */
  payoutOfProviderId(payoutId: string): Promise<{ payoutKey: string; expertId: string } | null>;
}

/** A command to record and the idempotency key it is recorded under. */
export type PayoutRecord = { command: PayoutCommand; idempotencyKey: string };
export type PayoutWebhookVerdict = { records: PayoutRecord[]; ignored: { id: string; why: string }[] };

/** A verified event, as far as payouts read it. Connect events name the connected account they happened on. */
export type StripeEventLike = { id: string; type: string; created?: number; account?: string | null; data?: { object?: unknown } };

const providerId = z.string().min(1).max(255);
const metadata = z.record(z.string(), z.string()).nullish();

const WebhookAccount = z.object({ id: providerId, payouts_enabled: z.boolean().nullish(), details_submitted: z.boolean().nullish() });
const WebhookReversal = z.object({
  object: z.literal("transfer_reversal"),
  id: providerId,
  amount: z.number().int().positive(),
  currency: z.string(),
  transfer: z.union([providerId, z.object({ id: providerId })]),
  metadata,
});
/** transfer.reversed carries the transfer; its reversals list holds the reversal (up to its 10 latest). */
const WebhookTransfer = z.object({
  object: z.literal("transfer"),
  id: providerId,
  reversals: z.object({ data: z.array(z.unknown()) }).nullish(),
});
const WebhookPayout = z.object({
  id: providerId,
  amount: z.number().int().positive(),
  currency: z.string(),
  status: z.string(),
  failure_code: z.string().nullish(),
  failure_message: z.string().nullish(),
  metadata,
});

const currencyOf = (stripeCurrency: string): Currency | null => Currency.safeParse(stripeCurrency.toUpperCase()).data ?? null;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The payouts commands a verified Stripe event records, with what was left unrecorded and why;
 * null when the event's type is not one payouts listen to (the caller goes on as before).
 */
export async function payoutRecordsOf(event: StripeEventLike, lookup: PayoutWebhookLookup): Promise<PayoutWebhookVerdict | null> {
  const object = event.data?.object;
  switch (event.type) {
    case "account.updated":
      return accountUpdated(event, object, lookup);
    case "transfer.reversed":
      return transferReversed(object, lookup);
    case "payout.paid":
    case "payout.failed":
      return payoutEnded(event, object, lookup);
    default:
      return null;
  }
}

const ignoring = (id: string, why: string): PayoutWebhookVerdict => ({ records: [], ignored: [{ id, why }] });

async function accountUpdated(event: StripeEventLike, object: unknown, lookup: PayoutWebhookLookup): Promise<PayoutWebhookVerdict> {
  const account = WebhookAccount.safeParse(object);
  if (!account.success) return ignoring(event.id, "account with unexpected fields");
  const { id: accountId, payouts_enabled, details_submitted } = account.data;
  const expertId = await lookup.expertOfAccount(accountId);
  if (!expertId) return ignoring(accountId, "account not connected by an expert");
  const command: PayoutCommand = {
    type: "RecordPayoutAccountStatus",
    expertId,
    actor: PAYOUTS_ACTOR,
    accountId,
    payoutsEnabled: payouts_enabled === true,
    detailsSubmitted: details_submitted === true,
    // Stripe's events arrive in any order: when this one was made orders it among the account's reports.
    ...(typeof event.created === "number" && { reportedAt: new Date(event.created * 1000).toISOString() }),
  };
  // Each report is a fact of its own moment: the event's id, so a redelivery is recorded once.
  return { records: [{ command, idempotencyKey: `account-status-${event.id}` }], ignored: [] };
}

async function transferReversed(object: unknown, lookup: PayoutWebhookLookup): Promise<PayoutWebhookVerdict> {
  const transfer = WebhookTransfer.safeParse(object);
  // Stripe sends the transfer; a bare reversal is read the same way.
  const reversals = transfer.success ? (transfer.data.reversals?.data ?? []) : [object];
  const verdict: PayoutWebhookVerdict = { records: [], ignored: [] };
  for (const raw of reversals) {
    const parsed = WebhookReversal.safeParse(raw);
    if (!parsed.success) {
      verdict.ignored.push({ id: transfer.success ? transfer.data.id : "?", why: "transfer reversal with unexpected fields" });
      continue;
    }
    const reversal = parsed.data;
    const transferId = typeof reversal.transfer === "string" ? reversal.transfer : reversal.transfer.id;
    const ours = await lookup.transferOf(transferId);
    const reversalKey = reversal.metadata?.reversalKey;
    const why = !ours
      ? "transfer not made by the product"
      : !reversalKey || !new RegExp(`^reversal-${escapeRegExp(ours.bookingId)}-\\d+$`).test(reversalKey)
        ? "reversal not asked for by the product"
        : currencyOf(reversal.currency) !== ours.currency
          ? "reversal in another currency than its transfer"
          : null;
    if (why || !ours || !reversalKey) {
      verdict.ignored.push({ id: reversal.id, why: why ?? "" });
      continue;
    }
    const command: PayoutCommand = {
      type: "RecordTransferReversal",
      expertId: ours.expertId,
      actor: PAYOUTS_ACTOR,
      reversalKey,
      bookingId: ours.bookingId,
      transferId,
      reversalId: reversal.id,
      amountCents: reversal.amount,
      currency: ours.currency,
    };
    verdict.records.push({ command, idempotencyKey: `transfer-reversed-${reversalKey}` });
  }
  return verdict;
}

async function payoutEnded(event: StripeEventLike, object: unknown, lookup: PayoutWebhookLookup): Promise<PayoutWebhookVerdict> {
  const parsed = WebhookPayout.safeParse(object);
  if (!parsed.success) return ignoring(event.id, "payout with unexpected fields");
  const payout = parsed.data;
  let ours = await lookup.payoutOfProviderId(payout.id);
  let sentNow = false;
  if (!ours) {
    // Stripe's answer to payouts.create may have been lost with a crash: the payout then names its
    // key and expert, and the connected account it was made on must be that expert's.
    const payoutKey = payout.metadata?.payoutKey;
    const expertId = payout.metadata?.expertId;
    const accountExpert = event.account ? await lookup.expertOfAccount(event.account) : null;
    if (!payoutKey || !expertId || accountExpert !== expertId) return ignoring(payout.id, "payout not asked for by the product");
    ours = { payoutKey, expertId };
    sentNow = true;
  }
  const on = { expertId: ours.expertId, actor: PAYOUTS_ACTOR, payoutKey: ours.payoutKey };
  const records: PayoutRecord[] = sentNow
    ? [{ command: { type: "RecordPayoutSent", ...on, payoutId: payout.id }, idempotencyKey: `payout-sent-${ours.payoutKey}` }]
    : [];
  if (event.type === "payout.paid") {
    records.push({ command: { type: "RecordPayoutPaid", ...on, payoutId: payout.id }, idempotencyKey: `payout-paid-${ours.payoutKey}` });
  } else {
    const reason = stripePayoutFailure(payout.failure_code, payout.failure_message);
    records.push({ command: { type: "RecordPayoutFailure", ...on, reason }, idempotencyKey: `payout-failed-${ours.payoutKey}` });
  }
  return { records, ignored: [] };
}

export type PayoutWebhookDeps = {
  lookup: PayoutWebhookLookup;
  /** Record one command on the expert's payouts stream under the key (and keep the payouts tables up to date). */
  send: (command: PayoutCommand, idempotencyKey: string) => Promise<Result<CommandResult>>;
};

/**
 * For the Stripe webhook route: records a verified event's payouts commands and says whether the
 * event was one of payouts' (false: not theirs, the route goes on). A lost race answers with an
 * error so that Stripe delivers the event again; any other refusal would be refused again, so it is
 * logged and the event acknowledged.
 */
export function payoutWebhook(deps: PayoutWebhookDeps): (event: StripeEventLike, log: FastifyBaseLogger) => Promise<boolean> {
  return async (event, log) => {
    const verdict = await payoutRecordsOf(event, deps.lookup);
    if (!verdict) return false;
    for (const { id, why } of verdict.ignored) log.warn({ eventId: event.id, id, why }, "Stripe payouts event not recorded");
    for (const { command, idempotencyKey } of verdict.records) {
      const result = await deps.send(command, idempotencyKey);
      if (result.ok) continue;
      if (result.refusal.code === "concurrency_conflict") throw new Refused(result.refusal);
      log.warn({ eventId: event.id, command: command.type, refusal: result.refusal.code }, "Stripe payouts event refused");
    }
    return true;
  };
}

/** The webhook over the payouts area's own tables, recording through the expert's payouts stream (wired in app.ts). */
export const stripePayoutWebhook = (deps: PayoutRecording) =>
  payoutWebhook({
    lookup: {
      expertOfAccount: (accountId) => expertOfAccount(deps.db, accountId),
      transferOf: (transferId) => transferOf(deps.db, transferId),
      payoutOfProviderId: (payoutId) => payoutOfProviderId(deps.db, payoutId),
    },
    send: (command, idempotencyKey) => sendPayoutCommand(deps, command, idempotencyKey),
  });
