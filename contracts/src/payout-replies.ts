import { z } from "zod";
import { Currency } from "./money.ts";
import { PayoutProviderName } from "./payouts.ts";

// Bodies and replies of the payout routes (issue 29.2-29.4): the expert's payout account, balance
// and payouts, and the console's payout accounts, transfers and payouts (react-admin lists, `id` on
// each record). Strict objects, like every reply.

const Time = z.string();

/** none: no account connected yet; incomplete: connected, its onboarding not finished; enabled: payouts can be made to it. */
export const PayoutAccountState = z.enum(["none", "incomplete", "enabled"]);
export type PayoutAccountState = z.infer<typeof PayoutAccountState>;

/** GET /experts/me/payout-account (and the test onboarding's answer). */
export const PayoutAccountReply = z.strictObject({
  status: PayoutAccountState,
  /** The provider payouts go through (the configured one until an account is connected). */
  provider: PayoutProviderName,
  account_id: z.string().nullable(),
  held: z.boolean(),
  /** Why an admin holds the payouts (the expert is told); null when they are not held. */
  held_reason: z.string().nullable(),
  /** The platform's fee today, in basis points (each booking keeps the rate it was paid under). */
  fee_basis_points: z.number().int(),
});
export type PayoutAccountReply = z.infer<typeof PayoutAccountReply>;

/** POST /experts/me/payout-account: where the expert finishes connecting the account. */
export const PayoutOnboardingReply = z.strictObject({ onboarding_url: z.string() });
export type PayoutOnboardingReply = z.infer<typeof PayoutOnboardingReply>;

/** POST /experts/me/payout-account/test-onboarding: finish the test provider's onboarding, or leave it incomplete. */
export const TestOnboardingBody = z.strictObject({ complete: z.boolean() });

/** One currency of GET /experts/me/balance. */
export const PayoutBalanceReply = z.strictObject({
  currency: Currency,
  /** The share of paid sessions accepted or completed, not yet released (the clearing period). */
  pending_cents: z.number().int(),
  /** Released, less later refunds, less payouts asked for or paid. */
  available_cents: z.number().int(),
  /**
   * What a payout takes now: the part of it already transferred to the expert's payout account
   * (a released share is transferred by the payout reactor, and until then a payout cannot take it).
   */
  payable_cents: z.number().int(),
  /** Payouts asked for or on their way, not yet arrived. */
  in_transit_cents: z.number().int(),
  paid_out_cents: z.number().int(),
});
export const ExpertBalanceReply = z.strictObject({ balances: z.array(PayoutBalanceReply) });
export type ExpertBalanceReply = z.infer<typeof ExpertBalanceReply>;

export const PayoutStatus = z.enum(["requested", "in_transit", "paid", "failed"]);
export const PayoutBy = z.enum(["expert", "schedule", "admin"]);

/** One payout, as the expert sees it. */
export const PayoutReply = z.strictObject({
  payout_key: z.string(),
  /** The provider's id, once it took the payout. */
  payout_id: z.string().nullable(),
  amount_cents: z.number().int(),
  currency: Currency,
  status: PayoutStatus,
  failure_reason: z.string().nullable(),
  by: PayoutBy,
  requested_at: Time,
  paid_at: Time.nullable(),
});
export type PayoutReply = z.infer<typeof PayoutReply>;
export const ExpertPayoutsReply = z.strictObject({ payouts: z.array(PayoutReply) });
export type ExpertPayoutsReply = z.infer<typeof ExpertPayoutsReply>;

/** POST /experts/me/payouts: a payout in a currency, of `amount_cents` or (absent) everything available. */
export const PayoutRequestBody = z.strictObject({
  currency: Currency,
  amount_cents: z.number().int().positive().max(100_000_000).optional(),
});

/** POST /admin/payout-accounts/{expertId}/hold. */
export const HoldPayoutsBody = z.strictObject({
  reason: z.string({ error: "payouts_hold_reason_required" }).trim().min(1, { error: "payouts_hold_reason_required" }).max(500),
});
export const PayoutExpertParams = z.strictObject({ expertId: z.string().min(1).max(300) });

/** GET /admin/payout-accounts: each expert's payout status (id = the expert's id). */
export const AdminPayoutAccountReply = z.strictObject({
  id: z.string(),
  expert_id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  status: PayoutAccountState,
  provider: PayoutProviderName.nullable(),
  account_id: z.string().nullable(),
  held: z.boolean(),
  held_reason: z.string().nullable(),
  balances: z.array(z.strictObject({ currency: Currency, pending_cents: z.number().int(), available_cents: z.number().int() })),
  updated_at: Time.nullable(),
});
export type AdminPayoutAccountReply = z.infer<typeof AdminPayoutAccountReply>;

/** none: not released (or no share); pending: released, waiting (an account to be enabled, a hold); failed: the last try failed (retried); sent. */
export const TransferState = z.enum(["none", "pending", "failed", "sent"]);

/** GET /admin/transfers: each released booking's share and its transfer (id = the booking's id). */
export const AdminTransferReply = z.strictObject({
  id: z.string(),
  booking_id: z.string(),
  expert_id: z.string(),
  currency: Currency,
  paid_cents: z.number().int(),
  refunded_cents: z.number().int(),
  fee_basis_points: z.number().int().nullable(),
  completed_at: Time.nullable(),
  released_at: Time.nullable(),
  fee_cents: z.number().int().nullable(),
  share_cents: z.number().int().nullable(),
  transfer_key: z.string().nullable(),
  status: TransferState,
  transfer_id: z.string().nullable(),
  transferred_cents: z.number().int(),
  reversed_cents: z.number().int(),
  /** Refunded after the transfer and not yet taken back from the expert's account (a reversal waiting or failing). */
  reversal_owed_cents: z.number().int(),
  /** Why the provider last refused to reverse it; null: no reversal is failing. */
  reversal_error: z.string().nullable(),
  attempts: z.number().int(),
  next_attempt_at: Time.nullable(),
  last_error: z.string().nullable(),
  transferred_at: Time.nullable(),
});
export type AdminTransferReply = z.infer<typeof AdminTransferReply>;

/** GET /admin/payouts: every payout (id = its key), with the provider's id and the last failure. */
export const AdminPayoutReply = z.strictObject({
  id: z.string(),
  payout_key: z.string(),
  expert_id: z.string(),
  amount_cents: z.number().int(),
  currency: Currency,
  by: PayoutBy,
  status: PayoutStatus,
  payout_id: z.string().nullable(),
  failure_reason: z.string().nullable(),
  attempts: z.number().int(),
  next_attempt_at: Time.nullable(),
  last_error: z.string().nullable(),
  requested_at: Time,
  paid_at: Time.nullable(),
  failed_at: Time.nullable(),
});
export type AdminPayoutReply = z.infer<typeof AdminPayoutReply>;
