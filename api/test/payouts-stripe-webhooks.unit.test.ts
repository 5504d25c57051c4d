import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { PayoutCommand, reversalKeyOf, type Currency } from "@booking/contracts";
import { stripeFixture, stripeFixtureEvent } from "@booking/testkit";
import { payoutRecordsOf, type PayoutWebhookLookup } from "../src/payouts/stripe-webhooks.ts";

// Stripe's payouts events, built from Stripe's example `event` with its example account, transfer,
// transfer_reversal and payout as data.object: given what the payouts read model knows, when the
// event comes, then the command it records (and its key), or nothing and why.

const ACCOUNT = String(stripeFixture("account").id); // acct_1PgafTB7WZ01zgkW
const TRANSFER = String(stripeFixture("transfer").id);
const PAYOUT = String(stripeFixture("payout").id);
const EXPERT = "ex-ada";
const BOOKING = "bk-growth-1";
const REVERSAL_KEY = reversalKeyOf(BOOKING, 5_000);
const SYSTEM = { userId: "payouts", role: "system" };

/** What the read model knows: Ada's account, the transfer of her booking, her payout once Stripe took it. */
function knowing(
  o: { accounts?: Record<string, string>; transfers?: Record<string, { bookingId: string; expertId: string; currency: Currency }> } & {
    payouts?: Record<string, { payoutKey: string; expertId: string }>;
  } = {},
): PayoutWebhookLookup {
  const accounts = o.accounts ?? { [ACCOUNT]: EXPERT };
  const transfers = o.transfers ?? { [TRANSFER]: { bookingId: BOOKING, expertId: EXPERT, currency: "USD" } };
  const payouts = o.payouts ?? { [PAYOUT]: { payoutKey: "payout-ada-1", expertId: EXPERT } };
  return {
    expertOfAccount: async (id) => accounts[id] ?? null,
    transferOf: async (id) => transfers[id] ?? null,
    payoutOfProviderId: async (id) => payouts[id] ?? null,
  };
}

/** Stripe's example reversal, asked for by the product (its key in the metadata). */
const reversal = (metadata: Record<string, string> = { reversalKey: REVERSAL_KEY, bookingId: BOOKING }) => ({
  ...stripeFixture("transfer_reversal"),
  amount: 4_250,
  metadata,
});
/** transfer.reversed carries the transfer, its reversals listed in it. */
const reversedTransfer = (...reversals: object[]) => {
  const transfer = stripeFixture("transfer");
  return { ...transfer, amount_reversed: 4_250, reversals: { ...(transfer.reversals as object), data: reversals } };
};
const payout = (fields: Record<string, unknown> = {}) => ({ ...stripeFixture("payout"), ...fields });
const asEvent = (event: Record<string, unknown>) => event as { id: string; type: string; data: { object: unknown } };
const recordsOf = async (type: string, object: Record<string, unknown>, lookup = knowing(), extra: Record<string, unknown> = {}) =>
  payoutRecordsOf(asEvent(stripeFixtureEvent(type, object, extra)), lookup);

describe("account.updated", () => {
  it("records what Stripe says of an expert's account, once per event", async () => {
    const event = stripeFixtureEvent("account.updated", { ...stripeFixture("account"), payouts_enabled: true, details_submitted: true });
    const verdict = await payoutRecordsOf(asEvent(event), knowing());
    expect(verdict).toEqual({
      records: [
        {
          command: {
            type: "RecordPayoutAccountStatus",
            expertId: EXPERT,
            actor: SYSTEM,
            accountId: ACCOUNT,
            payoutsEnabled: true,
            detailsSubmitted: true,
            reportedAt: new Date(Number(event.created) * 1000).toISOString(),
          },
          idempotencyKey: `account-status-${String(event.id)}`,
        },
      ],
      ignored: [],
    });
    expect(PayoutCommand.safeParse(verdict!.records[0]!.command).success).toBe(true);
  });

  it("Stripe's example account as it is (not yet able to be paid) is recorded as incomplete", async () => {
    const verdict = await recordsOf("account.updated", stripeFixture("account"));
    expect(verdict?.records[0]?.command).toMatchObject({ payoutsEnabled: false, detailsSubmitted: false });
  });

  it("an account no expert connected is not recorded", async () => {
    const verdict = await recordsOf("account.updated", stripeFixture("account"), knowing({ accounts: {} }));
    expect(verdict).toEqual({ records: [], ignored: [{ id: ACCOUNT, why: "account not connected by an expert" }] });
  });
});

describe("transfer.reversed", () => {
  it("records the reversal the product asked for, from the transfer Stripe sends", async () => {
    const verdict = await recordsOf("transfer.reversed", reversedTransfer(reversal()));
    const reversalId = String(stripeFixture("transfer_reversal").id);
    expect(verdict).toEqual({
      records: [
        {
          command: {
            type: "RecordTransferReversal",
            expertId: EXPERT,
            actor: SYSTEM,
            reversalKey: REVERSAL_KEY,
            bookingId: BOOKING,
            transferId: TRANSFER,
            reversalId,
            amountCents: 4_250,
            currency: "USD",
          },
          idempotencyKey: `transfer-reversed-${REVERSAL_KEY}`,
        },
      ],
      ignored: [],
    });
    expect(PayoutCommand.safeParse(verdict!.records[0]!.command).success).toBe(true);
  });

  it("reads a bare transfer_reversal as data.object the same way", async () => {
    const verdict = await recordsOf("transfer.reversed", reversal());
    expect(verdict?.records.map((r) => r.command)).toEqual([
      expect.objectContaining({ type: "RecordTransferReversal", amountCents: 4_250 }),
    ]);
  });

  it("records each reversal listed; one made outside the product (no key, or another booking's) is not recorded", async () => {
    const second = { ...reversal({ reversalKey: reversalKeyOf(BOOKING, 9_000) }), id: "trr_second", amount: 1_000 };
    const byHand = { ...reversal({}), id: "trr_dashboard" };
    const otherBooking = { ...reversal({ reversalKey: reversalKeyOf("bk-other", 100) }), id: "trr_other" };
    const verdict = await recordsOf("transfer.reversed", reversedTransfer(second, byHand, otherBooking, reversal()));
    expect(verdict?.records.map((r) => r.idempotencyKey)).toEqual([
      `transfer-reversed-${reversalKeyOf(BOOKING, 9_000)}`,
      `transfer-reversed-${REVERSAL_KEY}`,
    ]);
    expect(verdict?.ignored).toEqual([
      { id: "trr_dashboard", why: "reversal not asked for by the product" },
      { id: "trr_other", why: "reversal not asked for by the product" },
    ]);
  });

  it("a transfer the product never made is not recorded", async () => {
    const verdict = await recordsOf("transfer.reversed", reversedTransfer(reversal()), knowing({ transfers: {} }));
    expect(verdict?.records).toEqual([]);
    expect(verdict?.ignored[0]?.why).toBe("transfer not made by the product");
  });

  it("a reversal in another currency than the transfer's is not recorded", async () => {
    const verdict = await recordsOf("transfer.reversed", reversedTransfer({ ...reversal(), currency: "eur" }));
    expect(verdict?.records).toEqual([]);
    expect(verdict?.ignored[0]?.why).toBe("reversal in another currency than its transfer");
  });
});

describe("payout.paid and payout.failed", () => {
  it("payout.paid records the payout paid under its key", async () => {
    const verdict = await recordsOf("payout.paid", payout({ status: "paid" }), knowing(), { account: ACCOUNT });
    expect(verdict).toEqual({
      records: [
        {
          command: { type: "RecordPayoutPaid", expertId: EXPERT, actor: SYSTEM, payoutKey: "payout-ada-1", payoutId: PAYOUT },
          idempotencyKey: "payout-paid-payout-ada-1",
        },
      ],
      ignored: [],
    });
  });

  it("payout.failed records the failure with Stripe's reason (the money is available again)", async () => {
    const failed = payout({ status: "failed", failure_code: "account_closed", failure_message: "The bank account has been closed." });
    const verdict = await recordsOf("payout.failed", failed);
    expect(verdict?.records).toEqual([
      {
        command: {
          type: "RecordPayoutFailure",
          expertId: EXPERT,
          actor: SYSTEM,
          payoutKey: "payout-ada-1",
          reason: "Stripe could not pay out: account closed: The bank account has been closed.",
        },
        idempotencyKey: "payout-failed-payout-ada-1",
      },
    ]);
    expect(PayoutCommand.safeParse(verdict!.records[0]!.command).success).toBe(true);
  });

  it("a payout whose answer a crash lost is known by its metadata on the expert's own account: sent, then paid", async () => {
    const lost = payout({ id: "po_lost", status: "paid", metadata: { payoutKey: "payout-ada-2", expertId: EXPERT } });
    const verdict = await recordsOf("payout.paid", lost, knowing(), { account: ACCOUNT });
    expect(verdict?.records).toEqual([
      {
        command: { type: "RecordPayoutSent", expertId: EXPERT, actor: SYSTEM, payoutKey: "payout-ada-2", payoutId: "po_lost" },
        idempotencyKey: "payout-sent-payout-ada-2",
      },
      {
        command: { type: "RecordPayoutPaid", expertId: EXPERT, actor: SYSTEM, payoutKey: "payout-ada-2", payoutId: "po_lost" },
        idempotencyKey: "payout-paid-payout-ada-2",
      },
    ]);
  });

  it("metadata naming an expert other than the account's, or no account, is not believed", async () => {
    const claimed = payout({ id: "po_claimed", metadata: { payoutKey: "payout-bob-1", expertId: "ex-bob" } });
    expect((await recordsOf("payout.paid", claimed, knowing(), { account: ACCOUNT }))?.records).toEqual([]);
    expect((await recordsOf("payout.paid", claimed))?.records).toEqual([]);
  });

  it("Stripe's own automatic payout of the account (unknown id, no key) is not recorded", async () => {
    const automatic = payout({ id: "po_automatic" });
    const verdict = await recordsOf("payout.paid", automatic, knowing(), { account: ACCOUNT });
    expect(verdict).toEqual({ records: [], ignored: [{ id: "po_automatic", why: "payout not asked for by the product" }] });
  });
});

describe("other events", () => {
  it("are not payouts' (the route goes on as before)", async () => {
    expect(await recordsOf("plan.created", stripeFixture("plan"))).toBeNull();
    expect(await recordsOf("transfer.created", stripeFixture("transfer"))).toBeNull();
  });

  it("a signed body of the right type but the wrong shape records nothing", async () => {
    expect((await recordsOf("account.updated", { id: 42 }))?.records).toEqual([]);
    expect((await recordsOf("payout.paid", { id: PAYOUT }))?.records).toEqual([]);
    expect(
      (await recordsOf("transfer.reversed", { object: "transfer", id: TRANSFER, reversals: { data: [{ id: "x" }] } }))?.records,
    ).toEqual([]);
  });

  it("an event as Stripe signs it and the library verifies it maps the same", async () => {
    const secret = "whsec_unit";
    const payload = JSON.stringify(stripeFixtureEvent("payout.paid", payout({ status: "paid" })));
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    const event = Stripe.webhooks.constructEvent(payload, header, secret);
    expect((await payoutRecordsOf(event, knowing()))?.records[0]?.command.type).toBe("RecordPayoutPaid");
  });
});
