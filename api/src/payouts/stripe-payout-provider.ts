import Stripe from "stripe";
import type {
  PayoutAccountStatus,
  PayoutOutcome,
  PayoutProvider,
  PayoutRequest,
  ReversalOutcome,
  ReversalRequest,
  TransferOutcome,
  TransferRequest,
} from "./provider.ts";

// Stripe Connect (issue 29): each expert has an Express account the platform transfers their share
// to (a transfer per booking, from the platform's balance) and pays out from (a payout on the
// connected account, `Stripe-Account`). Every call that moves money goes under the caller's
// idempotency key, so a retry after a crash or a timeout gets Stripe's first answer back. Stripe's
// refusals (insufficient balance, a disabled account) are `failed` outcomes with a reason; anything
// that leaves the answer unknown (the network, Stripe's 5xx, a rate limit) throws, and the reactor
// asks again under the same key.

type Options = Stripe.RequestOptions;
type StripeAccountFields = { id: string; payouts_enabled: boolean | null; details_submitted: boolean | null };
type StripePayoutFields = { id: string; status: string; failure_code?: string | null; failure_message?: string | null };

/** The Stripe calls payouts make, so tests can hand in a client of their own (or one pointed at a local server). */
export type StripePayoutClient = {
  accounts: {
    create(params: Stripe.AccountCreateParams, options?: Options): Promise<StripeAccountFields>;
    retrieve(id: string, params?: Stripe.AccountRetrieveParams, options?: Options): Promise<StripeAccountFields>;
  };
  accountLinks: { create(params: Stripe.AccountLinkCreateParams, options?: Options): Promise<{ url: string }> };
  transfers: {
    create(params: Stripe.TransferCreateParams, options?: Options): Promise<{ id: string }>;
    createReversal(id: string, params?: Stripe.TransferCreateReversalParams, options?: Options): Promise<{ id: string }>;
  };
  payouts: { create(params: Stripe.PayoutCreateParams, options?: Options): Promise<StripePayoutFields> };
};

export type StripePayoutProviderOptions = {
  secretKey: string;
  /** Defaults to the real client for `secretKey`. */
  client?: StripePayoutClient;
};

export class StripePayoutProvider implements PayoutProvider {
  readonly name = "stripe";
  private readonly client: StripePayoutClient;

  constructor(options: StripePayoutProviderOptions) {
    this.client = options.client ?? new Stripe(options.secretKey);
  }

  async createAccount(input: { expertId: string; email: string; country?: string }): Promise<PayoutAccountStatus> {
    // One key per expert: asking again (a double click, a retry after a crash) answers with the same account.
    const account = await this.client.accounts.create(
      {
        type: "express",
        email: input.email,
        ...(input.country && { country: input.country }),
        metadata: { expertId: input.expertId },
        capabilities: { transfers: { requested: true } },
        // The product pays out (weekly, or when the expert asks): Stripe's own daily schedule would empty the balance first.
        settings: { payouts: { schedule: { interval: "manual" } } },
      },
      { idempotencyKey: `account-${input.expertId}` },
    );
    return accountStatusOf(account);
  }

  async onboardingUrl(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<string> {
    const link = await this.client.accountLinks.create({
      account: input.accountId,
      refresh_url: input.refreshUrl,
      return_url: input.returnUrl,
      type: "account_onboarding",
    });
    return link.url;
  }

  async accountStatus(accountId: string): Promise<PayoutAccountStatus> {
    return accountStatusOf(await this.client.accounts.retrieve(accountId));
  }

  async transfer(input: TransferRequest): Promise<TransferOutcome> {
    return refusedAs("transfer", input.transferKey, async (idempotencyKey) => {
      const transfer = await this.client.transfers.create(
        {
          amount: input.amountCents,
          currency: input.currency.toLowerCase(),
          destination: input.accountId,
          transfer_group: input.bookingId,
          metadata: { bookingId: input.bookingId, expertId: input.expertId, transferKey: input.transferKey },
        },
        { idempotencyKey },
      );
      return { status: "sent", transferId: transfer.id };
    });
  }

  async reverseTransfer(input: ReversalRequest): Promise<ReversalOutcome> {
    return refusedAs("reversal", input.reversalKey, async (idempotencyKey) => {
      // The key rides along as metadata: transfer.reversed names it, even when a crash lost this answer.
      const reversal = await this.client.transfers.createReversal(
        input.transferId,
        { amount: input.amountCents, metadata: { bookingId: input.bookingId, reversalKey: input.reversalKey } },
        { idempotencyKey },
      );
      return { status: "reversed", reversalId: reversal.id };
    });
  }

  async payout(input: PayoutRequest): Promise<PayoutOutcome> {
    return refusedAs("payout", input.payoutKey, async (idempotencyKey) => {
      // From the expert's connected account to their bank: the call is made as that account.
      const payout = await this.client.payouts.create(
        {
          amount: input.amountCents,
          currency: input.currency.toLowerCase(),
          metadata: { expertId: input.expertId, payoutKey: input.payoutKey },
        },
        { stripeAccount: input.accountId, idempotencyKey },
      );
      if (payout.status === "paid") return { status: "paid", payoutId: payout.id };
      if (payout.status === "failed" || payout.status === "canceled")
        return { status: "failed", reason: stripePayoutFailure(payout.failure_code, payout.failure_message) };
      // pending / in_transit: payout.paid or payout.failed says how it ends.
      return { status: "in_transit", payoutId: payout.id };
    });
  }
}

const accountStatusOf = (account: StripeAccountFields): PayoutAccountStatus => ({
  accountId: account.id,
  payoutsEnabled: account.payouts_enabled === true,
  detailsSubmitted: account.details_submitted === true,
});

/** How many keys of one movement's chain are asked before its refusal stands (beyond a day of retries with back-off). */
export const KEY_CHAIN_LENGTH = 100;

/** The n-th key of a movement's chain: its own key first, then `key~2`, `key~3`, ... */
export const chainedKey = (key: string, n: number) => (n === 1 ? key : `${key}~${n}`);

/**
 * Stripe said no (a card or invalid-request error: insufficient balance, a disabled or missing
 * account): nothing moved, so the outcome is `failed` with Stripe's reason. Every other error leaves
 * the outcome unknown and is thrown for the caller to ask again under the same key.
 *
 * Stripe keeps its first answer to a key for 24 hours, a refusal included, so asking again under
 * the movement's key would be refused again all day even once the balance is there. A refusal
 * Stripe replays (Idempotent-Replayed) moved nothing under that key, so the next key of the chain
 * is asked, always in the same order: a retry after a crash is answered from the same keys, and
 * the movement is made under at most one of them.
 */
async function refusedAs<T>(
  what: "transfer" | "reversal" | "payout",
  key: string,
  ask: (idempotencyKey: string) => Promise<T>,
): Promise<T | { status: "failed"; reason: string }> {
  for (let n = 1; ; n++) {
    try {
      return await ask(chainedKey(key, n));
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      const replayed = (error.headers as Record<string, string> | undefined)?.["idempotent-replayed"] === "true";
      if (replayed && n < KEY_CHAIN_LENGTH) continue;
      return { status: "failed", reason: stripeRefusal(what, error.code, error.message) };
    }
  }
}

/** A refusal in words an operator reads in the console (Stripe's code first, then its message). */
export function stripeRefusal(what: "transfer" | "reversal" | "payout", code: string | undefined, message: string | undefined): string {
  const why = [code?.replace(/_/g, " "), message].filter(Boolean).join(": ");
  return `Stripe refused the ${what}${why ? `: ${why}` : "."}`.slice(0, 500);
}

/** A payout Stripe reports failed (its failure_code and failure_message), as the console shows it. */
export function stripePayoutFailure(code: string | null | undefined, message: string | null | undefined): string {
  const why = [code?.replace(/_/g, " "), message].filter(Boolean).join(": ");
  return `Stripe could not pay out${why ? `: ${why}` : "."}`.slice(0, 500);
}
