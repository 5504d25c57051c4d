import type { Currency, PayoutProviderName } from "@booking/contracts";

// The payouts port (issue 29): how money reaches an expert. Stripe Connect (Express accounts,
// transfers from the platform's balance, payouts from the connected account) in production; a
// network-free test provider with the same rules where Stripe cannot be reached. Every call that
// moves money takes an idempotency key derived from the booking or the payout, so asking again
// after a crash answers with the first result and never moves the money twice.

/** The account an expert is paid through, as the provider knows it. */
export type PayoutAccountStatus = { accountId: string; payoutsEnabled: boolean; detailsSubmitted: boolean };

export type TransferRequest = {
  /** transferKeyOf(bookingId): one transfer per booking, ever. */
  transferKey: string;
  accountId: string;
  bookingId: string;
  expertId: string;
  amountCents: number;
  currency: Currency;
};
export type TransferOutcome = { status: "sent"; transferId: string } | { status: "failed"; reason: string };

export type ReversalRequest = {
  /** reversalKeyOf(bookingId, refundedCents): one reversal per refund total reached. */
  reversalKey: string;
  transferId: string;
  bookingId: string;
  amountCents: number;
  currency: Currency;
};
export type ReversalOutcome = { status: "reversed"; reversalId: string } | { status: "failed"; reason: string };

export type PayoutRequest = { payoutKey: string; accountId: string; expertId: string; amountCents: number; currency: Currency };
/** `paid`: it arrived at once (the test provider); `in_transit`: the provider says later (payout.paid / payout.failed). */
export type PayoutOutcome =
  { status: "paid"; payoutId: string } | { status: "in_transit"; payoutId: string } | { status: "failed"; reason: string };

export interface PayoutProvider {
  readonly name: PayoutProviderName;
  /** A new account for the expert at the provider; asking again for one expert answers with the same account. */
  createAccount(input: { expertId: string; email: string; country?: string }): Promise<PayoutAccountStatus>;
  /** Where the expert finishes connecting the account (Stripe's hosted onboarding, or the web app's test onboarding). */
  onboardingUrl(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<string>;
  accountStatus(accountId: string): Promise<PayoutAccountStatus>;
  /** Throws when the provider could not be asked (retried); a refusal is a `failed` outcome. */
  transfer(input: TransferRequest): Promise<TransferOutcome>;
  reverseTransfer(input: ReversalRequest): Promise<ReversalOutcome>;
  payout(input: PayoutRequest): Promise<PayoutOutcome>;
}
