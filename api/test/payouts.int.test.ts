import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLEARING_PERIOD_DAYS, transferKeyOf } from "@booking/contracts";
import { ACCOUNT_DISABLED, INSUFFICIENT_PLATFORM_BALANCE } from "../src/payouts/test-payout-provider.ts";
import { DAY, PRICE, SHARE, payoutsTestbed } from "./payouts-testbed.ts";

// Experts get paid (issue 29.2-29.4) with the test provider: a payout account connected in the
// test onboarding; a completed session's share pending through the clearing period, then
// released and transferred once (retried when it fails, never doubled); an admin's hold stops
// transfers and payouts. (Refunds after the transfer and the payouts themselves: payouts-money.int.test.ts.)

const t = payoutsTestbed("2030-03-04T08:00:00.000Z");
const {
  reactor,
  release,
  newExpert,
  completedBooking,
  connectAccount,
  releasedBooking,
  balanceOf,
  testTransfers,
  payoutEvents,
  transferRow,
} = t;
beforeAll(() => t.start());
afterAll(() => t.stop());

describe("payout accounts", () => {
  it("a payout without a connected account is refused with 'Connect your payout account...'; a currency we do not support at the boundary", async () => {
    const { expert } = await newExpert();
    const account = await t.api.call("GET", "/api/v1/experts/me/payout-account", { user: expert });
    expect(account.json()).toMatchObject({ status: "none", provider: "test", account_id: null, held: false, fee_basis_points: 1500 });
    const r = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "USD" } });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ code: "payout_account_required", message: "Connect your payout account before asking for a payout." });
    const yen = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "JPY" } });
    expect(yen.statusCode).toBe(422);
    expect(yen.json().code).toBe("currency_invalid");
    const creatorAsks = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: t.creator, body: { currency: "USD" } });
    expect(creatorAsks.statusCode).toBe(403);
  });

  it("the test onboarding left incomplete keeps payouts refused; completed, it enables them; one account per expert", async () => {
    const { expert } = await newExpert();
    const first = await t.api.call("POST", "/api/v1/experts/me/payout-account", { user: expert });
    expect(first.statusCode).toBe(201);
    expect(first.json().onboarding_url).toContain("/payouts/test-onboarding?account=acct_test_");
    const again = await t.api.call("POST", "/api/v1/experts/me/payout-account", { user: expert });
    expect(again.json().onboarding_url).toBe(first.json().onboarding_url);

    const incomplete = await t.api.call("POST", "/api/v1/experts/me/payout-account/test-onboarding", {
      user: expert,
      body: { complete: false },
    });
    expect(incomplete.json()).toMatchObject({ status: "incomplete", provider: "test" });
    const refused = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "USD" } });
    expect(refused.json().code).toBe("payout_account_incomplete");

    const enabled = await t.api.call("POST", "/api/v1/experts/me/payout-account/test-onboarding", {
      user: expert,
      body: { complete: true },
    });
    expect(enabled.json()).toMatchObject({ status: "enabled", account_id: expect.stringMatching(/^acct_test_/) });
    expect((await t.api.call("GET", "/api/v1/experts/me/payout-account", { user: expert })).json().status).toBe("enabled");
    expect((await t.api.call("POST", "/api/v1/experts/me/payout-account", { user: expert })).json().code).toBe("payout_account_exists");
    const accounts = await t.api.ctx.db.query("SELECT 1 FROM test_payout_accounts WHERE expert_id = $1", [expert.id]);
    expect(accounts.rowCount).toBe(1);
    // Nothing earned yet: connected, but nothing to pay.
    const nothing = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "USD" } });
    expect(nothing.json().code).toBe("payout_nothing_available");
  });
});

describe("release after the clearing period", () => {
  it("a completed booking is pending, not available, until its clearing period is over, then available", async () => {
    const e = await newExpert();
    const { bookingId, completedAt } = await completedBooking(e);
    await reactor().runOnce();
    expect(await balanceOf(e.expert)).toEqual([
      { currency: "USD", pending_cents: SHARE, available_cents: 0, payable_cents: 0, in_transit_cents: 0, paid_out_cents: 0 },
    ]);

    t.time.now = completedAt + CLEARING_PERIOD_DAYS * DAY - 60_000; // a minute early
    expect(await release()).toBe(0);
    expect(await payoutEvents(e.expert.id, "EarningReleased")).toHaveLength(0);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ pending_cents: SHARE, available_cents: 0 });

    t.time.now = completedAt + CLEARING_PERIOD_DAYS * DAY;
    expect(await release()).toBe(1);
    expect(await release()).toBe(0);
    const released = await payoutEvents(e.expert.id, "EarningReleased");
    expect(released.map((r) => r.data)).toEqual([
      expect.objectContaining({ bookingId, paidCents: PRICE, refundedCents: 0, feeBasisPoints: 1500, feeCents: 2250, shareCents: SHARE }),
    ]);
    expect(await balanceOf(e.expert)).toEqual([
      { currency: "USD", pending_cents: 0, available_cents: SHARE, payable_cents: 0, in_transit_cents: 0, paid_out_cents: 0 },
    ]);
  });

  it("an accepted session not yet held is pending too", async () => {
    const e = await newExpert();
    const start = new Date(t.time.now + 2 * DAY);
    start.setUTCHours(12, 0, 0, 0);
    await e.calendar.confirmedBooking(t.creator, start.toISOString(), 10_000);
    await reactor().runOnce();
    expect((await balanceOf(e.expert))[0]).toMatchObject({ currency: "USD", pending_cents: 8_500, available_cents: 0 });
  });
});

describe("transfers", () => {
  it("the released share is transferred once, whatever is read or asked again", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const { bookingId } = await releasedBooking(e);
    await reactor().runOnce();
    for (let n = 0; n < 4; n++) {
      // The provider's answer lost before it was recorded, and (every other time) the log read again (the checkpoint lost).
      if (n % 2 === 1) await t.api.ctx.db.query("DELETE FROM payout_checkpoints");
      await t.api.ctx.db.query(
        "UPDATE payout_bookings SET transfer_status = 'pending', next_attempt_at = now() - interval '1 day' WHERE booking_id = $1",
        [bookingId],
      );
      await reactor().runOnce();
    }
    expect(await testTransfers(bookingId)).toEqual([SHARE]);
    const sent = await payoutEvents(e.expert.id, "TransferSent");
    expect(sent.map((s) => s.data)).toEqual([
      expect.objectContaining({ bookingId, transferKey: transferKeyOf(bookingId), amountCents: SHARE }),
    ]);
    expect((await transferRow(bookingId)).transfer_status).toBe("sent");
  });

  it("a transfer that fails (insufficient platform balance, account disabled) is retried after its back-off, shown, and never doubled", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const { bookingId } = await releasedBooking(e);
    await t.provider.setPlatformBalance("USD", 0);
    try {
      await reactor().runOnce();
      expect(await transferRow(bookingId)).toMatchObject({
        transfer_status: "failed",
        transfer_attempts: 1,
        last_error: INSUFFICIENT_PLATFORM_BALANCE,
      });
      const failed = await payoutEvents(e.expert.id, "TransferFailed");
      expect(failed.map((f) => f.data)).toEqual([expect.objectContaining({ bookingId, reason: INSUFFICIENT_PLATFORM_BALANCE })]);
      const listed = await t.api.call("GET", `/api/v1/admin/transfers?filter=${encodeURIComponent(JSON.stringify({ id: bookingId }))}`, {
        user: t.admin,
      });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json()).toEqual([
        expect.objectContaining({
          id: bookingId,
          status: "failed",
          attempts: 1,
          last_error: INSUFFICIENT_PLATFORM_BALANCE,
          share_cents: SHARE,
        }),
      ]);
      // Not before its back-off.
      await t.provider.setPlatformBalance("USD", null);
      await reactor().runOnce();
      expect((await transferRow(bookingId)).transfer_attempts).toBe(1);
      expect(await testTransfers(bookingId)).toEqual([]);

      // The account disabled at the provider: the next try fails too, with that reason.
      await t.api.ctx.db.query("UPDATE test_payout_accounts SET payouts_enabled = false WHERE expert_id = $1", [e.expert.id]);
      t.time.now += 61_000;
      await reactor().runOnce();
      expect(await transferRow(bookingId)).toMatchObject({ transfer_status: "failed", transfer_attempts: 2, last_error: ACCOUNT_DISABLED });

      await t.api.ctx.db.query("UPDATE test_payout_accounts SET payouts_enabled = true WHERE expert_id = $1", [e.expert.id]);
      t.time.now += 121_000;
      await reactor().runOnce();
      await reactor().runOnce();
      expect(await transferRow(bookingId)).toMatchObject({ transfer_status: "sent", last_error: null });
      expect(await testTransfers(bookingId)).toEqual([SHARE]);
      expect(await payoutEvents(e.expert.id, "TransferSent")).toHaveLength(1);
    } finally {
      await t.provider.setPlatformBalance("USD", null);
    }
  });
});

describe("an admin's hold", () => {
  it("stops transfers and payouts until resumed; a hold needs a reason; only admins hold", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const hold = (body: unknown, user = t.admin) => t.api.call("POST", `/api/v1/admin/payout-accounts/${e.expert.id}/hold`, { user, body });
    expect((await hold({ reason: "  " })).json().code).toBe("payouts_hold_reason_required");
    expect((await hold({ reason: "Chargebacks" }, e.expert)).statusCode).toBe(403);
    const held = await hold({ reason: "Chargebacks under review" });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toMatchObject({ id: e.expert.id, status: "enabled", held: true, held_reason: "Chargebacks under review" });
    expect((await t.api.call("GET", "/api/v1/experts/me/payout-account", { user: e.expert })).json()).toMatchObject({
      held: true,
      held_reason: "Chargebacks under review",
    });

    const { bookingId } = await releasedBooking(e);
    await reactor().runOnce();
    expect(await testTransfers(bookingId)).toEqual([]);
    expect((await transferRow(bookingId)).transfer_status).toBe("pending");

    const resumed = await t.api.call("POST", `/api/v1/admin/payout-accounts/${e.expert.id}/resume`, { user: t.admin });
    expect(resumed.json()).toMatchObject({ held: false, held_reason: null });
    await reactor().runOnce();
    expect(await testTransfers(bookingId)).toEqual([SHARE]);

    // Held again after the expert asked: the payout waits, and asking again is refused.
    const asked = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(asked.statusCode, asked.body).toBe(201);
    await hold({ reason: "Identity check" });
    await reactor().runOnce();
    expect((await t.api.ctx.db.query("SELECT 1 FROM test_payouts WHERE expert_id = $1", [e.expert.id])).rowCount).toBe(0);
    const refused = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(refused.json().code).toBe("payouts_held");
    await t.api.call("POST", `/api/v1/admin/payout-accounts/${e.expert.id}/resume`, { user: t.admin });
    await reactor().runOnce();
    expect((await t.api.ctx.db.query("SELECT amount_cents FROM test_payouts WHERE expert_id = $1", [e.expert.id])).rows).toEqual([
      { amount_cents: String(SHARE) },
    ]);
  });
});
