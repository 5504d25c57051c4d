import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLEARING_PERIOD_DAYS, payoutStream, reversalKeyOf, transferKeyOf } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { PayoutReactor, type PayoutReactorOptions } from "../src/payouts/reactor.ts";
import { releaseEarnings } from "../src/payouts/release-sweeper.ts";
import { INSUFFICIENT_PLATFORM_BALANCE, ACCOUNT_DISABLED, type TestPayoutProvider } from "../src/payouts/test-payout-provider.ts";
import { expertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Experts get paid (issue 29.2-29.4) with the test provider: a payout account connected in the
// test onboarding; a completed session's share pending through the clearing period, then
// released, transferred once (retried when it fails, never doubled), reversed in part by a later
// refund, and paid out exactly once; an admin's hold stops transfers and payouts.

const DAY = 86_400_000;
const PRICE = 15_000;
const SHARE = 12_750; // 15 % of 150.00 kept by the platform
let now = Date.parse("2030-03-04T08:00:00.000Z");
const clock = () => new Date(now).toISOString();
let api: TestApi;
let provider: TestPayoutProvider;
let admin: TestUser;
let creator: TestUser;

beforeAll(async () => {
  api = await startTestApi({ clock });
  provider = api.ctx.payoutProvider as TestPayoutProvider;
  admin = await api.user("admin");
  creator = await api.user("creator");
});
afterAll(async () => api.close());

const reactor = (options: PayoutReactorOptions = {}) =>
  new PayoutReactor(
    { log: api.ctx.store, db: api.ctx.db, payouts: api.ctx.payouts, provider, clock },
    { warn: () => undefined, firstRetryMs: 60_000, ...options },
  );
const release = () => releaseEarnings({ db: api.ctx.db, payouts: api.ctx.payouts, clock });

/** A fresh expert (their own calendar and payouts stream), the session booked a day from now. */
async function newExpert() {
  const expert = await api.user("expert");
  return { expert, calendar: await expertCalendar(api, expert) };
}

/** A paid booking the expert accepted, its session held and completed; the clock ends just after it. */
async function completedBooking(e: Awaited<ReturnType<typeof newExpert>>, priceCents = PRICE) {
  const start = new Date(now + DAY);
  start.setUTCHours(10, 0, 0, 0);
  const bookingId = await e.calendar.confirmedBooking(creator, start.toISOString(), priceCents);
  now = start.getTime() + 61 * 60_000;
  await e.calendar.run({ type: "CompleteBooking", expertId: e.expert.id, bookingId, actor: { userId: e.expert.id, role: "expert" } });
  return { bookingId, completedAt: now };
}

async function connectAccount(expert: TestUser, complete = true) {
  const created = await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert });
  expect(created.statusCode, created.body).toBe(201);
  const finished = await api.call("POST", "/api/v1/experts/me/payout-account/test-onboarding", { user: expert, body: { complete } });
  expect(finished.statusCode, finished.body).toBe(200);
  return finished.json();
}

/** Completed, cleared and released: the clock moves past the clearing period. */
async function releasedBooking(e: Awaited<ReturnType<typeof newExpert>>, priceCents = PRICE) {
  const b = await completedBooking(e, priceCents);
  await reactor().runOnce();
  now = b.completedAt + CLEARING_PERIOD_DAYS * DAY;
  expect(await release()).toBeGreaterThanOrEqual(1);
  return b;
}

const balanceOf = async (expert: TestUser) => {
  const r = await api.call("GET", "/api/v1/experts/me/balance", { user: expert });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().balances as {
    currency: string;
    pending_cents: number;
    available_cents: number;
    in_transit_cents: number;
    paid_out_cents: number;
  }[];
};
const testTransfers = async (bookingId: string) =>
  (await api.ctx.db.query<{ amount_cents: string }>("SELECT amount_cents FROM test_transfers WHERE booking_id = $1", [bookingId])).rows.map(
    (r) => Number(r.amount_cents),
  );
const payoutEvents = async (expertId: string, type: string) =>
  (await api.ctx.store.readStream(payoutStream(expertId))).events.filter((e) => e.type === type);
const transferRow = async (bookingId: string) =>
  (
    await api.ctx.db.query<{ transfer_status: string; transfer_attempts: number; last_error: string | null; next_attempt_at: Date }>(
      "SELECT transfer_status, transfer_attempts, last_error, next_attempt_at FROM payout_bookings WHERE booking_id = $1",
      [bookingId],
    )
  ).rows[0]!;

describe("payout accounts", () => {
  it("a payout without a connected account is refused with 'Connect your payout account...'; a currency we do not support at the boundary", async () => {
    const { expert } = await newExpert();
    const account = await api.call("GET", "/api/v1/experts/me/payout-account", { user: expert });
    expect(account.json()).toMatchObject({ status: "none", provider: "test", account_id: null, held: false, fee_basis_points: 1500 });
    const r = await api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "USD" } });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ code: "payout_account_required", message: "Connect your payout account before asking for a payout." });
    const yen = await api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "JPY" } });
    expect(yen.statusCode).toBe(422);
    expect(yen.json().code).toBe("currency_invalid");
    const creatorAsks = await api.call("POST", "/api/v1/experts/me/payouts", { user: creator, body: { currency: "USD" } });
    expect(creatorAsks.statusCode).toBe(403);
  });

  it("the test onboarding left incomplete keeps payouts refused; completed, it enables them; one account per expert", async () => {
    const { expert } = await newExpert();
    const first = await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert });
    expect(first.statusCode).toBe(201);
    expect(first.json().onboarding_url).toContain("/payouts/test-onboarding?account=acct_test_");
    const again = await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert });
    expect(again.json().onboarding_url).toBe(first.json().onboarding_url);

    const incomplete = await api.call("POST", "/api/v1/experts/me/payout-account/test-onboarding", {
      user: expert,
      body: { complete: false },
    });
    expect(incomplete.json()).toMatchObject({ status: "incomplete", provider: "test" });
    const refused = await api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "USD" } });
    expect(refused.json().code).toBe("payout_account_incomplete");

    const enabled = await api.call("POST", "/api/v1/experts/me/payout-account/test-onboarding", { user: expert, body: { complete: true } });
    expect(enabled.json()).toMatchObject({ status: "enabled", account_id: expect.stringMatching(/^acct_test_/) });
    expect((await api.call("GET", "/api/v1/experts/me/payout-account", { user: expert })).json().status).toBe("enabled");
    expect((await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert })).json().code).toBe("payout_account_exists");
    const accounts = await api.ctx.db.query("SELECT 1 FROM test_payout_accounts WHERE expert_id = $1", [expert.id]);
    expect(accounts.rowCount).toBe(1);
    // Nothing earned yet: connected, but nothing to pay.
    const nothing = await api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "USD" } });
    expect(nothing.json().code).toBe("payout_nothing_available");
  });
});

describe("release after the clearing period", () => {
  it("a completed booking is pending, not available, until its clearing period is over, then available", async () => {
    const e = await newExpert();
    const { bookingId, completedAt } = await completedBooking(e);
    await reactor().runOnce();
    expect(await balanceOf(e.expert)).toEqual([
      { currency: "USD", pending_cents: SHARE, available_cents: 0, in_transit_cents: 0, paid_out_cents: 0 },
    ]);

    now = completedAt + CLEARING_PERIOD_DAYS * DAY - 60_000; // a minute early
    expect(await release()).toBe(0);
    expect(await payoutEvents(e.expert.id, "EarningReleased")).toHaveLength(0);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ pending_cents: SHARE, available_cents: 0 });

    now = completedAt + CLEARING_PERIOD_DAYS * DAY;
    expect(await release()).toBe(1);
    expect(await release()).toBe(0);
    const released = await payoutEvents(e.expert.id, "EarningReleased");
    expect(released.map((r) => r.data)).toEqual([
      expect.objectContaining({ bookingId, paidCents: PRICE, refundedCents: 0, feeBasisPoints: 1500, feeCents: 2250, shareCents: SHARE }),
    ]);
    expect(await balanceOf(e.expert)).toEqual([
      { currency: "USD", pending_cents: 0, available_cents: SHARE, in_transit_cents: 0, paid_out_cents: 0 },
    ]);
  });

  it("an accepted session not yet held is pending too", async () => {
    const e = await newExpert();
    const start = new Date(now + 2 * DAY);
    start.setUTCHours(12, 0, 0, 0);
    await e.calendar.confirmedBooking(creator, start.toISOString(), 10_000);
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
      if (n % 2 === 1) await api.ctx.db.query("DELETE FROM payout_checkpoints");
      await api.ctx.db.query(
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
    await provider.setPlatformBalance("USD", 0);
    try {
      await reactor().runOnce();
      expect(await transferRow(bookingId)).toMatchObject({
        transfer_status: "failed",
        transfer_attempts: 1,
        last_error: INSUFFICIENT_PLATFORM_BALANCE,
      });
      const failed = await payoutEvents(e.expert.id, "TransferFailed");
      expect(failed.map((f) => f.data)).toEqual([expect.objectContaining({ bookingId, reason: INSUFFICIENT_PLATFORM_BALANCE })]);
      const listed = await api.call("GET", `/api/v1/admin/transfers?filter=${encodeURIComponent(JSON.stringify({ id: bookingId }))}`, {
        user: admin,
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
      await provider.setPlatformBalance("USD", null);
      await reactor().runOnce();
      expect((await transferRow(bookingId)).transfer_attempts).toBe(1);
      expect(await testTransfers(bookingId)).toEqual([]);

      // The account disabled at the provider: the next try fails too, with that reason.
      await api.ctx.db.query("UPDATE test_payout_accounts SET payouts_enabled = false WHERE expert_id = $1", [e.expert.id]);
      now += 61_000;
      await reactor().runOnce();
      expect(await transferRow(bookingId)).toMatchObject({ transfer_status: "failed", transfer_attempts: 2, last_error: ACCOUNT_DISABLED });

      await api.ctx.db.query("UPDATE test_payout_accounts SET payouts_enabled = true WHERE expert_id = $1", [e.expert.id]);
      now += 121_000;
      await reactor().runOnce();
      await reactor().runOnce();
      expect(await transferRow(bookingId)).toMatchObject({ transfer_status: "sent", last_error: null });
      expect(await testTransfers(bookingId)).toEqual([SHARE]);
      expect(await payoutEvents(e.expert.id, "TransferSent")).toHaveLength(1);
    } finally {
      await provider.setPlatformBalance("USD", null);
    }
  });
});

describe("an admin's hold", () => {
  it("stops transfers and payouts until resumed; a hold needs a reason; only admins hold", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const hold = (body: unknown, user = admin) => api.call("POST", `/api/v1/admin/payout-accounts/${e.expert.id}/hold`, { user, body });
    expect((await hold({ reason: "  " })).json().code).toBe("payouts_hold_reason_required");
    expect((await hold({ reason: "Chargebacks" }, e.expert)).statusCode).toBe(403);
    const held = await hold({ reason: "Chargebacks under review" });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toMatchObject({ id: e.expert.id, status: "enabled", held: true, held_reason: "Chargebacks under review" });
    expect((await api.call("GET", "/api/v1/experts/me/payout-account", { user: e.expert })).json()).toMatchObject({
      held: true,
      held_reason: "Chargebacks under review",
    });

    const { bookingId } = await releasedBooking(e);
    await reactor().runOnce();
    expect(await testTransfers(bookingId)).toEqual([]);
    expect((await transferRow(bookingId)).transfer_status).toBe("pending");

    const resumed = await api.call("POST", `/api/v1/admin/payout-accounts/${e.expert.id}/resume`, { user: admin });
    expect(resumed.json()).toMatchObject({ held: false, held_reason: null });
    await reactor().runOnce();
    expect(await testTransfers(bookingId)).toEqual([SHARE]);

    // Held again after the expert asked: the payout waits, and asking again is refused.
    const asked = await api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(asked.statusCode, asked.body).toBe(201);
    await hold({ reason: "Identity check" });
    await reactor().runOnce();
    expect((await api.ctx.db.query("SELECT 1 FROM test_payouts WHERE expert_id = $1", [e.expert.id])).rowCount).toBe(0);
    const refused = await api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(refused.json().code).toBe("payouts_held");
    await api.call("POST", `/api/v1/admin/payout-accounts/${e.expert.id}/resume`, { user: admin });
    await reactor().runOnce();
    expect((await api.ctx.db.query("SELECT amount_cents FROM test_payouts WHERE expert_id = $1", [e.expert.id])).rows).toEqual([
      { amount_cents: String(SHARE) },
    ]);
  });
});

describe("a refund after the transfer", () => {
  it("reverses the transfer's share of the refunded part, once", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const { bookingId } = await releasedBooking(e);
    await reactor().runOnce();
    expect(await testTransfers(bookingId)).toEqual([SHARE]);

    await e.calendar.run({
      type: "RefundBooking",
      expertId: e.expert.id,
      bookingId,
      actor: { userId: admin.id, role: "admin" },
      amountCents: 5_000,
      reason: "Half the session had no sound",
    });
    await reactor().runOnce();
    expect(await release()).toBe(1); // the adjustment
    await reactor().runOnce();
    // Kept 100.00, fee 15.00, share 85.00: 127.50 - 85.00 = 42.50 given back.
    const adjusted = await payoutEvents(e.expert.id, "EarningAdjusted");
    expect(adjusted.map((a) => a.data)).toEqual([
      expect.objectContaining({ bookingId, refundedCents: 5_000, feeCents: 750, shareCents: 4_250 }),
    ]);
    for (let n = 0; n < 2; n++) {
      await api.ctx.db.query(
        "UPDATE payout_reversals SET status = 'pending', next_attempt_at = now() - interval '1 day' WHERE booking_id = $1",
        [bookingId],
      );
      await reactor().runOnce();
      expect(await release()).toBe(0);
    }
    const reversals = await api.ctx.db.query<{ idempotency_key: string; amount_cents: string }>(
      "SELECT r.idempotency_key, r.amount_cents FROM test_transfer_reversals r JOIN test_transfers t ON t.transfer_id = r.transfer_id WHERE t.booking_id = $1",
      [bookingId],
    );
    expect(reversals.rows).toEqual([{ idempotency_key: reversalKeyOf(bookingId, 5_000), amount_cents: "4250" }]);
    expect(await payoutEvents(e.expert.id, "TransferReversed")).toHaveLength(1);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 8_500 });
    const refundDue = (await api.ctx.store.readStream(calendarStream(e.expert.id))).events.filter((x) => x.type === "RefundDue");
    expect(refundDue).toHaveLength(1);
  });
});

describe("a refund after the payout", () => {
  it("still reverses the share: the expert owes it back, and their next payout waits until their money covers it", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const { bookingId } = await releasedBooking(e);
    await reactor().runOnce();
    const asked = await api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(asked.statusCode, asked.body).toBe(201);
    await reactor().runOnce();
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 0, paid_out_cents: SHARE });

    await e.calendar.run({
      type: "RefundBooking",
      expertId: e.expert.id,
      bookingId,
      actor: { userId: admin.id, role: "admin" },
      amountCents: 5_000,
      reason: "Late by twenty minutes",
    });
    await reactor().runOnce();
    await release();
    await reactor().runOnce();
    expect(await payoutEvents(e.expert.id, "TransferReversed")).toHaveLength(1);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: -4_250, paid_out_cents: SHARE });
    const refused = await api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(refused.json().code).toBe("payout_nothing_available");

    // The next session's share pays back what is owed first; the weekly payout pays the rest.
    await releasedBooking(e);
    await reactor().runOnce();
    await reactor().requestWeeklyPayouts();
    await reactor().runOnce();
    const paid = await api.ctx.db.query<{ amount_cents: string }>(
      "SELECT amount_cents FROM test_payouts WHERE expert_id = $1 ORDER BY created_at",
      [e.expert.id],
    );
    expect(paid.rows.map((r) => Number(r.amount_cents))).toEqual([SHARE, SHARE - 4_250]);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 0, paid_out_cents: 2 * SHARE - 4_250 });
  });
});

describe("payouts", () => {
  it("a payout request pays exactly the available amount, once; the minimum and the available amount bound what is asked", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    await releasedBooking(e);
    await reactor().runOnce();
    const ask = (body: unknown, key?: string) =>
      api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body, ...(key && { headers: { "idempotency-key": key } }) });
    expect((await ask({ currency: "USD", amount_cents: 100 })).json()).toMatchObject({
      code: "payout_below_minimum",
      message: "A payout must be at least 20.00 USD.",
    });
    expect((await ask({ currency: "USD", amount_cents: SHARE + 1 })).json().code).toBe("payout_exceeds_available");
    expect((await ask({ currency: "EUR" })).json().code).toBe("payout_nothing_available");

    const first = await ask({ currency: "USD" }, "withdraw-1");
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ amount_cents: SHARE, currency: "USD", status: "requested", by: "expert", payout_id: null });
    const again = await ask({ currency: "USD" }, "withdraw-1");
    expect(again.json().payout_key).toBe(first.json().payout_key);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 0, in_transit_cents: SHARE });

    await reactor().runOnce();
    await api.ctx.db.query(
      "UPDATE payout_payouts SET status = 'requested', next_attempt_at = now() - interval '1 day' WHERE expert_id = $1",
      [e.expert.id],
    );
    await reactor().runOnce();
    const paid = await api.ctx.db.query("SELECT amount_cents FROM test_payouts WHERE expert_id = $1", [e.expert.id]);
    expect(paid.rows).toEqual([{ amount_cents: String(SHARE) }]);
    expect(await payoutEvents(e.expert.id, "PayoutPaid")).toHaveLength(1);
    const list = await api.call("GET", "/api/v1/experts/me/payouts", { user: e.expert });
    expect(list.json().payouts).toEqual([
      expect.objectContaining({
        payout_key: first.json().payout_key,
        amount_cents: SHARE,
        status: "paid",
        payout_id: expect.stringMatching(/^po_test_/),
      }),
    ]);
    expect(await balanceOf(e.expert)).toEqual([
      { currency: "USD", pending_cents: 0, available_cents: 0, in_transit_cents: 0, paid_out_cents: SHARE },
    ]);
    expect((await ask({ currency: "USD" })).json().code).toBe("payout_nothing_available");

    const listed = await api.call("GET", `/api/v1/admin/payouts?filter=${encodeURIComponent(JSON.stringify({ expert_id: e.expert.id }))}`, {
      user: admin,
    });
    expect(listed.json()).toEqual([expect.objectContaining({ id: first.json().payout_key, status: "paid", amount_cents: SHARE })]);
    expect(listed.headers["content-range"]).toBe("payouts 0-0/1");
  });

  it("the weekly payout pays everything available, once a week", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    now = Date.parse("2031-01-06T08:00:00.000Z"); // a Monday
    const a = await completedBooking(e); // Tuesday
    const b = await completedBooking(e, 10_000); // Wednesday
    await reactor().runOnce();
    const weekly = async () => {
      await reactor().requestWeeklyPayouts();
      await reactor().runOnce();
      const { rows } = await api.ctx.db.query<{ amount_cents: string; idempotency_key: string }>(
        "SELECT amount_cents, idempotency_key FROM test_payouts WHERE expert_id = $1 ORDER BY created_at",
        [e.expert.id],
      );
      return rows.map((r) => [Number(r.amount_cents), r.idempotency_key.replace(e.expert.id, "x")]);
    };
    now = a.completedAt + CLEARING_PERIOD_DAYS * DAY;
    await release();
    await reactor().runOnce();
    expect(await weekly()).toEqual([[SHARE, "weekly-x-USD-2031-W03"]]);
    // The second booking cleared the next day, the same week: it waits for the next week's payout.
    now = b.completedAt + CLEARING_PERIOD_DAYS * DAY;
    await release();
    await reactor().runOnce();
    expect(await weekly()).toEqual([[SHARE, "weekly-x-USD-2031-W03"]]);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 8_500, paid_out_cents: SHARE });
    now += 7 * DAY;
    expect(await weekly()).toEqual([
      [SHARE, "weekly-x-USD-2031-W03"],
      [8_500, "weekly-x-USD-2031-W04"],
    ]);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 0, paid_out_cents: SHARE + 8_500 });
  });

  it("the running reactor asks for the weekly payouts on the payout weekday only (Monday by default)", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    await releasedBooking(e);
    await reactor().runOnce();
    const paidOut = async () => (await api.ctx.db.query("SELECT 1 FROM test_payouts WHERE expert_id = $1", [e.expert.id])).rowCount;
    const nextWeekday = (isoDay: number) => {
      const d = new Date(now + DAY);
      while ((d.getUTCDay() || 7) !== isoDay) d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(9, 0, 0, 0);
      return d.getTime();
    };
    now = nextWeekday(2); // a Tuesday
    const run = reactor({ sweepEveryMs: 20, idleMs: 20 }).start();
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect(await paidOut()).toBe(0);
      now = nextWeekday(1);
      const deadline = Date.now() + 15_000;
      while ((await paidOut()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await paidOut()).toBe(1);
    } finally {
      await run.stop();
    }
  });

  it("the console lists each expert's payout account with pending and available money", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    await completedBooking(e);
    await reactor().runOnce();
    const r = await api.call("GET", `/api/v1/admin/payout-accounts?filter=${encodeURIComponent(JSON.stringify({ id: e.expert.id }))}`, {
      user: admin,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual([
      expect.objectContaining({
        id: e.expert.id,
        status: "enabled",
        provider: "test",
        held: false,
        balances: [{ currency: "USD", pending_cents: SHARE, available_cents: 0 }],
      }),
    ]);
    expect((await api.call("GET", "/api/v1/admin/payout-accounts", { user: e.expert })).statusCode).toBe(403);
  });
});
