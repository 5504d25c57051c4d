import type {
  AdminPayoutAccountReply,
  AdminPayoutReply,
  AdminTransferReply,
  MoneyTrailEntryReply,
  TrialBalanceLineReply,
} from "@booking/contracts";
import type { Difference } from "../src/reconciliation/difference-record.ts";

// Records of the console's money screens (issue 29), as the API sends them, for the screens' tests.

export const EXPERT = "00000000-0000-4000-8000-0000000000e1";
export const HELD_EXPERT = "00000000-0000-4000-8000-0000000000e2";
export const BOOKING = "00000000-0000-4000-8000-0000000000b1";
const AT = "2026-03-01T10:00:00.000Z";

export const payoutAccounts: AdminPayoutAccountReply[] = [
  {
    id: EXPERT,
    expert_id: EXPERT,
    name: "Erin Expert",
    email: "erin@example.com",
    status: "enabled",
    provider: "test",
    account_id: "acct_1",
    held: false,
    held_reason: null,
    balances: [
      { currency: "USD", pending_cents: 12_750, available_cents: 4_250 },
      { currency: "EUR", pending_cents: 0, available_cents: 8_500 },
    ],
    updated_at: AT,
  },
  {
    id: HELD_EXPERT,
    expert_id: HELD_EXPERT,
    name: "Hal Held",
    email: "hal@example.com",
    status: "incomplete",
    provider: "test",
    account_id: "acct_2",
    held: true,
    held_reason: "Chargeback under review",
    balances: [],
    updated_at: AT,
  },
];

const tb = (account: string, currency: "USD" | "EUR", debit: number, credit: number, kind: "account" | "total" = "account") => ({
  id: `${account}/${currency}`,
  kind,
  account,
  currency,
  debit_cents: debit,
  credit_cents: credit,
  balance_cents: debit - credit,
});

/** USD balances; EUR does not (a corrupted ledger): 90.00 debited, 80.00 credited. */
export const trialBalance: TrialBalanceLineReply[] = [
  tb("platform_cash", "EUR", 9_000, 0),
  tb("bookings_held", "EUR", 0, 8_000),
  tb("total", "EUR", 9_000, 8_000, "total"),
  tb("platform_cash", "USD", 15_000, 0),
  tb("platform_fee_revenue", "USD", 0, 2_250),
  tb(`expert_payable:${EXPERT}`, "USD", 0, 12_750),
  tb("total", "USD", 15_000, 15_000, "total"),
];

export const transfers: AdminTransferReply[] = [
  {
    id: BOOKING,
    booking_id: BOOKING,
    expert_id: EXPERT,
    currency: "USD",
    paid_cents: 15_000,
    refunded_cents: 0,
    fee_basis_points: 1500,
    completed_at: AT,
    released_at: AT,
    fee_cents: 2_250,
    share_cents: 12_750,
    transfer_key: `transfer-${BOOKING}`,
    status: "failed",
    transfer_id: null,
    transferred_cents: 0,
    reversed_cents: 0,
    reversal_owed_cents: 0,
    reversal_error: null,
    attempts: 3,
    next_attempt_at: "2026-03-01T10:05:00.000Z",
    last_error: "Insufficient platform balance",
    transferred_at: null,
  },
  {
    id: "booking-refunded-late",
    booking_id: "booking-refunded-late",
    expert_id: EXPERT,
    currency: "USD",
    paid_cents: 15_000,
    refunded_cents: 5_000,
    fee_basis_points: 1500,
    completed_at: AT,
    released_at: AT,
    fee_cents: 1_500,
    share_cents: 8_500,
    transfer_key: "transfer-booking-refunded-late",
    status: "sent",
    transfer_id: "tr_1",
    transferred_cents: 12_750,
    reversed_cents: 0,
    reversal_owed_cents: 4_250,
    reversal_error: "The expert's account cannot cover the reversal",
    attempts: 1,
    next_attempt_at: null,
    last_error: null,
    transferred_at: AT,
  },
];

export const payouts: AdminPayoutReply[] = [
  {
    id: "payout-1",
    payout_key: "payout-1",
    expert_id: EXPERT,
    amount_cents: 8_500,
    currency: "EUR",
    by: "expert",
    status: "failed",
    payout_id: "po_1",
    failure_reason: "Bank account closed",
    attempts: 1,
    next_attempt_at: null,
    last_error: null,
    requested_at: AT,
    paid_at: null,
    failed_at: AT,
  },
];

export const differences: Difference[] = [
  {
    id: "run-1/1",
    run_id: "run-1",
    run_at: AT,
    n: 1,
    kind: "amount",
    movement: "payment",
    ref: BOOKING,
    currency: "USD",
    ledger_cents: 15_000,
    provider_cents: 14_000,
    what: "Payment: 150.00 in the ledger, 140.00 at the provider",
  },
];

export const moneyTrail: MoneyTrailEntryReply[] = [
  {
    id: "e1/platform_cash",
    event_id: "e1",
    position: "1:1",
    at: AT,
    event_type: "PaymentSucceeded",
    account: "platform_cash",
    currency: "USD",
    debit_cents: 15_000,
    credit_cents: 0,
  },
  {
    id: "e1/bookings_held",
    event_id: "e1",
    position: "1:1",
    at: AT,
    event_type: "PaymentSucceeded",
    account: "bookings_held",
    currency: "USD",
    debit_cents: 0,
    credit_cents: 15_000,
  },
  {
    id: "e2/bookings_held",
    event_id: "e2",
    position: "2:2",
    at: AT,
    event_type: "EarningReleased",
    account: "bookings_held",
    currency: "USD",
    debit_cents: 15_000,
    credit_cents: 0,
  },
  {
    id: "e2/platform_fee_revenue",
    event_id: "e2",
    position: "2:2",
    at: AT,
    event_type: "EarningReleased",
    account: "platform_fee_revenue",
    currency: "USD",
    debit_cents: 0,
    credit_cents: 2_250,
  },
  {
    id: `e2/expert_payable:${EXPERT}`,
    event_id: "e2",
    position: "2:2",
    at: AT,
    event_type: "EarningReleased",
    account: `expert_payable:${EXPERT}`,
    currency: "USD",
    debit_cents: 0,
    credit_cents: 12_750,
  },
];

/** The lists of the money screens by the data provider's resource name. */
export const moneyLists: Record<string, readonly { id: string }[]> = {
  "payout-accounts": payoutAccounts,
  "ledger/trial-balance": trialBalance,
  transfers,
  payouts,
  reconciliation: differences,
  [`bookings/${BOOKING}/money-trail`]: moneyTrail,
};
