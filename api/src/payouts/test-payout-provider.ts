import { randomUUID } from "node:crypto";
import type { Currency } from "@booking/contracts";
import type { Queryable } from "../reactors/index.ts";
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

// The network-free payouts provider of the embedded mode and the tests, with Stripe Connect's
// rules where the product can tell: one account per expert, finished (or not) in an onboarding;
// one transfer per idempotency key, refused to an account that cannot be paid or beyond what the
// platform holds; reversals never more than the transfer; payouts never more than the account
// holds, paid at once. Everything is rows in Postgres, so tests count the money that moved.

export const ACCOUNT_DISABLED = "account disabled";
export const INSUFFICIENT_PLATFORM_BALANCE = "insufficient platform balance";
/** Where the web app lets an expert finish (or leave) the test onboarding. */
export const TEST_ONBOARDING_PATH = "/payouts/test-onboarding";

type AccountRaw = { account_id: string; payouts_enabled: boolean; details_submitted: boolean };
const statusOf = (r: AccountRaw): PayoutAccountStatus => ({
  accountId: r.account_id,
  payoutsEnabled: r.payouts_enabled,
  detailsSubmitted: r.details_submitted,
});

export class TestPayoutProvider implements PayoutProvider {
  readonly name = "test";

  constructor(private readonly db: Queryable) {}

  async createAccount(input: { expertId: string; email: string; country?: string }): Promise<PayoutAccountStatus> {
    await this.db.query(
      `INSERT INTO test_payout_accounts (account_id, expert_id, email, country) VALUES ($1, $2, $3, $4) ON CONFLICT (expert_id) DO NOTHING`,
      [`acct_test_${randomUUID().replaceAll("-", "")}`, input.expertId, input.email, input.country ?? null],
    );
    const { rows } = await this.db.query<AccountRaw>(
      "SELECT account_id, payouts_enabled, details_submitted FROM test_payout_accounts WHERE expert_id = $1",
      [input.expertId],
    );
    if (!rows[0]) throw new Error(`test payout account of expert ${input.expertId} vanished`);
    return statusOf(rows[0]);
  }

  async onboardingUrl(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<string> {
    const url = new URL(TEST_ONBOARDING_PATH, input.returnUrl);
    url.searchParams.set("account", input.accountId);
    return url.toString();
  }

  async accountStatus(accountId: string): Promise<PayoutAccountStatus> {
    const { rows } = await this.db.query<AccountRaw>(
      "SELECT account_id, payouts_enabled, details_submitted FROM test_payout_accounts WHERE account_id = $1",
      [accountId],
    );
    if (!rows[0]) throw new Error(`No test payout account ${accountId}`);
    return statusOf(rows[0]);
  }

  /** The test onboarding's end: finished (payouts enabled) or left incomplete. */
  async finishOnboarding(accountId: string, complete: boolean): Promise<PayoutAccountStatus> {
    await this.db.query("UPDATE test_payout_accounts SET payouts_enabled = $2, details_submitted = $2 WHERE account_id = $1", [
      accountId,
      complete,
    ]);
    return this.accountStatus(accountId);
  }

  /** What the platform may still transfer in a currency (null: no limit), as tests set it. */
  async setPlatformBalance(currency: Currency, availableCents: number | null): Promise<void> {
    if (availableCents === null) await this.db.query("DELETE FROM test_platform_balances WHERE currency = $1", [currency]);
    else
      await this.db.query(
        `INSERT INTO test_platform_balances (currency, available_cents) VALUES ($1, $2)
         ON CONFLICT (currency) DO UPDATE SET available_cents = EXCLUDED.available_cents`,
        [currency, availableCents],
      );
  }

  async transfer(input: TransferRequest): Promise<TransferOutcome> {
    const earlier = await this.transferByKey(input.transferKey);
    if (earlier) return { status: "sent", transferId: earlier };
    const account = (
      await this.db.query<{ payouts_enabled: boolean }>("SELECT payouts_enabled FROM test_payout_accounts WHERE account_id = $1", [
        input.accountId,
      ])
    ).rows[0];
    if (!account?.payouts_enabled) return { status: "failed", reason: ACCOUNT_DISABLED };
    // The platform's balance (when a test set one) pays for it, only when the transfer is written.
    const inserted = await this.db.query<{ transfer_id: string }>(
      `WITH sent AS (
         INSERT INTO test_transfers (idempotency_key, transfer_id, account_id, booking_id, expert_id, amount_cents, currency)
         SELECT $1, $2, $3, $4, $5, $6::bigint, $7
         WHERE COALESCE((SELECT available_cents >= $6::bigint FROM test_platform_balances WHERE currency = $7), true)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING transfer_id, amount_cents, currency
       ), spent AS (
         UPDATE test_platform_balances b SET available_cents = b.available_cents - sent.amount_cents FROM sent WHERE b.currency = sent.currency
         RETURNING 1
       )
       SELECT transfer_id FROM sent`,
      [
        input.transferKey,
        `tr_test_${randomUUID().replaceAll("-", "")}`,
        input.accountId,
        input.bookingId,
        input.expertId,
        input.amountCents,
        input.currency,
      ],
    );
    const transferId = inserted.rows[0]?.transfer_id ?? (await this.transferByKey(input.transferKey));
    if (transferId) return { status: "sent", transferId };
    return { status: "failed", reason: INSUFFICIENT_PLATFORM_BALANCE };
  }

  async reverseTransfer(input: ReversalRequest): Promise<ReversalOutcome> {
    const inserted = await this.db.query<{ reversal_id: string }>(
      `INSERT INTO test_transfer_reversals (idempotency_key, reversal_id, transfer_id, amount_cents, currency)
       SELECT $1, $2, t.transfer_id, $4::bigint, t.currency FROM test_transfers t
       WHERE t.transfer_id = $3 AND t.currency = $5
         AND t.amount_cents >= $4::bigint + (SELECT COALESCE(sum(r.amount_cents), 0) FROM test_transfer_reversals r WHERE r.transfer_id = t.transfer_id)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING reversal_id`,
      [input.reversalKey, `trr_test_${randomUUID().replaceAll("-", "")}`, input.transferId, input.amountCents, input.currency],
    );
    const reversalId =
      inserted.rows[0]?.reversal_id ??
      (
        await this.db.query<{ reversal_id: string }>("SELECT reversal_id FROM test_transfer_reversals WHERE idempotency_key = $1", [
          input.reversalKey,
        ])
      ).rows[0]?.reversal_id;
    if (reversalId) return { status: "reversed", reversalId };
    return {
      status: "failed",
      reason:
        `Test transfer ${input.transferId} cannot be reversed ${input.amountCents} in ${input.currency}: ` +
        "no such transfer, or not that much of it is left.",
    };
  }

  /** Paid at once, never more than the account holds in the currency (transfers less reversals less payouts). */
  async payout(input: PayoutRequest): Promise<PayoutOutcome> {
    const inserted = await this.db.query<{ payout_id: string }>(
      `INSERT INTO test_payouts (idempotency_key, payout_id, account_id, expert_id, amount_cents, currency)
       SELECT $1, $2, a.account_id, $4, $5::bigint, $6 FROM test_payout_accounts a
       WHERE a.account_id = $3 AND a.payouts_enabled AND $5::bigint <= ${accountBalanceSql("a.account_id", "$6")}
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING payout_id`,
      [input.payoutKey, `po_test_${randomUUID().replaceAll("-", "")}`, input.accountId, input.expertId, input.amountCents, input.currency],
    );
    const payoutId =
      inserted.rows[0]?.payout_id ??
      (await this.db.query<{ payout_id: string }>("SELECT payout_id FROM test_payouts WHERE idempotency_key = $1", [input.payoutKey]))
        .rows[0]?.payout_id;
    if (payoutId) return { status: "paid", payoutId };
    const status = await this.accountStatus(input.accountId).catch(() => null);
    if (!status?.payoutsEnabled) return { status: "failed", reason: ACCOUNT_DISABLED };
    return { status: "failed", reason: `The account holds less than ${input.amountCents} in ${input.currency}.` };
  }

  /** What the account holds in a currency: transferred, less reversed, less paid out. */
  async accountBalanceCents(accountId: string, currency: Currency): Promise<number> {
    const { rows } = await this.db.query<{ cents: string }>(`SELECT ${accountBalanceSql("$1", "$2")} AS cents`, [accountId, currency]);
    return Number(rows[0]?.cents ?? 0);
  }

  private async transferByKey(key: string): Promise<string | null> {
    const { rows } = await this.db.query<{ transfer_id: string }>("SELECT transfer_id FROM test_transfers WHERE idempotency_key = $1", [
      key,
    ]);
    return rows[0]?.transfer_id ?? null;
  }
}

const accountBalanceSql = (account: string, currency: string) =>
  `(COALESCE((SELECT sum(t.amount_cents) FROM test_transfers t WHERE t.account_id = ${account} AND t.currency = ${currency}), 0)
    - COALESCE((SELECT sum(r.amount_cents) FROM test_transfer_reversals r JOIN test_transfers t ON t.transfer_id = r.transfer_id
                WHERE t.account_id = ${account} AND r.currency = ${currency}), 0)
    - COALESCE((SELECT sum(p.amount_cents) FROM test_payouts p WHERE p.account_id = ${account} AND p.currency = ${currency}), 0))`;
