import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLEARING_PERIOD_DAYS, reversalKeyOf } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { apiConfig } from "../src/main/index.ts";
import type { PayoutProvider } from "../src/payouts/index.ts";
import { DAY, SHARE, payoutsTestbed } from "./payouts-testbed.ts";

// Experts get paid (issue 29.3-29.4) with the test provider: a refund after the transfer reverses
// the transfer's share once (after the payout too: the expert then owes it back); a payout pays
// exactly what is available, once, on the expert's request or by the weekly schedule; the console
// lists each expert's payout account.

const apiConfigWith = (env: Record<string, string>) =>
  apiConfig.parse({ DATABASE_URL: "postgres://localhost/x", JWT_SECRET: "a-secret-that-is-long-enough-for-hs256", ...env });
const t = payoutsTestbed("2030-03-04T08:00:00.000Z");
const { reactor, release, refund, newExpert, completedBooking, connectAccount, releasedBooking, balanceOf, testTransfers, payoutEvents } =
  t;
beforeAll(() => t.start());
afterAll(() => t.stop());

describe("a refund after the transfer", () => {
  it("reverses the transfer's share of the refunded part, once", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const { bookingId } = await releasedBooking(e);
    await reactor().runOnce();
    expect(await testTransfers(bookingId)).toEqual([SHARE]);

    await refund(e, bookingId, 5_000, "Half the session had no sound");
    await reactor().runOnce();
    expect(await release()).toBe(1); // the adjustment
    await reactor().runOnce();
    // Kept 100.00, fee 15.00, share 85.00: 127.50 - 85.00 = 42.50 given back.
    const adjusted = await payoutEvents(e.expert.id, "EarningAdjusted");
    expect(adjusted.map((a) => a.data)).toEqual([
      expect.objectContaining({ bookingId, refundedCents: 5_000, feeCents: 750, shareCents: 4_250 }),
    ]);
    for (let n = 0; n < 2; n++) {
      await t.api.ctx.db.query(
        "UPDATE payout_reversals SET status = 'pending', next_attempt_at = now() - interval '1 day' WHERE booking_id = $1",
        [bookingId],
      );
      await reactor().runOnce();
      expect(await release()).toBe(0);
    }
    const reversals = await t.api.ctx.db.query<{ idempotency_key: string; amount_cents: string }>(
      "SELECT r.idempotency_key, r.amount_cents FROM test_transfer_reversals r JOIN test_transfers t ON t.transfer_id = r.transfer_id WHERE t.booking_id = $1",
      [bookingId],
    );
    expect(reversals.rows).toEqual([{ idempotency_key: reversalKeyOf(bookingId, 5_000), amount_cents: "4250" }]);
    expect(await payoutEvents(e.expert.id, "TransferReversed")).toHaveLength(1);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 8_500 });
    const refundDue = (await t.api.ctx.store.readStream(calendarStream(e.expert.id))).events.filter((x) => x.type === "RefundDue");
    expect(refundDue).toHaveLength(1);
  });
});

describe("a reversal the provider refuses", () => {
  it("is recorded on the expert's stream, shown in the console with why, kept from payouts, and made once when it goes through", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const { bookingId } = await releasedBooking(e);
    await reactor().runOnce();
    await refund(e, bookingId, 5_000, "Half the session had no sound");
    await reactor().runOnce();
    await release();
    const reason = "The expert's account cannot cover the reversal";
    const refusing = Object.assign(Object.create(t.provider) as PayoutProvider, {
      reverseTransfer: async () => ({ status: "failed" as const, reason }),
    });
    await reactor({}, refusing).runOnce();
    const failed = await payoutEvents(e.expert.id, "TransferReversalFailed");
    expect(failed.map((f) => f.data)).toEqual([{ expertId: e.expert.id, reversalKey: reversalKeyOf(bookingId, 5_000), bookingId, reason }]);
    const listed = await t.api.call("GET", `/api/v1/admin/transfers?filter=${encodeURIComponent(JSON.stringify({ id: bookingId }))}`, {
      user: t.admin,
    });
    expect(listed.json()).toEqual([expect.objectContaining({ reversed_cents: 0, reversal_owed_cents: 4_250, reversal_error: reason })]);
    // The refunded part is the platform's until it comes back: a payout takes only the shrunk share.
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 8_500, payable_cents: 8_500 });

    await t.api.ctx.db.query("UPDATE payout_reversals SET next_attempt_at = now() - interval '1 day' WHERE booking_id = $1", [bookingId]);
    await reactor().runOnce();
    await reactor().runOnce();
    expect(await payoutEvents(e.expert.id, "TransferReversed")).toHaveLength(1);
    const after = await t.api.call("GET", `/api/v1/admin/transfers?filter=${encodeURIComponent(JSON.stringify({ id: bookingId }))}`, {
      user: t.admin,
    });
    expect(after.json()).toEqual([expect.objectContaining({ reversed_cents: 4_250, reversal_owed_cents: 0, reversal_error: null })]);
  });
});

describe("what a payout may take", () => {
  it("is what has reached the payout account: a released share counts once its transfer is sent", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    await releasedBooking(e);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: SHARE, payable_cents: 0 });
    const early = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(early.json().code).toBe("payout_nothing_available");
    await reactor().runOnce(); // the transfer
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: SHARE, payable_cents: SHARE });
  });
});

describe("a refund after the payout", () => {
  it("still reverses the share: the expert owes it back, and their next payout waits until their money covers it", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    const { bookingId } = await releasedBooking(e);
    await reactor().runOnce();
    const asked = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(asked.statusCode, asked.body).toBe(201);
    await reactor().runOnce();
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 0, paid_out_cents: SHARE });

    await refund(e, bookingId, 5_000, "Late by twenty minutes");
    await reactor().runOnce();
    await release();
    await reactor().runOnce();
    expect(await payoutEvents(e.expert.id, "TransferReversed")).toHaveLength(1);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: -4_250, paid_out_cents: SHARE });
    const refused = await t.api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body: { currency: "USD" } });
    expect(refused.json().code).toBe("payout_nothing_available");

    // The next session's share pays back what is owed first; the weekly payout pays the rest.
    await releasedBooking(e);
    await reactor().runOnce();
    await reactor().requestWeeklyPayouts();
    await reactor().runOnce();
    const paid = await t.api.ctx.db.query<{ amount_cents: string }>(
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
      t.api.call("POST", "/api/v1/experts/me/payouts", { user: e.expert, body, ...(key && { headers: { "idempotency-key": key } }) });
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
    await t.api.ctx.db.query(
      "UPDATE payout_payouts SET status = 'requested', next_attempt_at = now() - interval '1 day' WHERE expert_id = $1",
      [e.expert.id],
    );
    await reactor().runOnce();
    const paid = await t.api.ctx.db.query("SELECT amount_cents FROM test_payouts WHERE expert_id = $1", [e.expert.id]);
    expect(paid.rows).toEqual([{ amount_cents: String(SHARE) }]);
    expect(await payoutEvents(e.expert.id, "PayoutPaid")).toHaveLength(1);
    const list = await t.api.call("GET", "/api/v1/experts/me/payouts", { user: e.expert });
    expect(list.json().payouts).toEqual([
      expect.objectContaining({
        payout_key: first.json().payout_key,
        amount_cents: SHARE,
        status: "paid",
        payout_id: expect.stringMatching(/^po_test_/),
      }),
    ]);
    expect(await balanceOf(e.expert)).toEqual([
      { currency: "USD", pending_cents: 0, available_cents: 0, payable_cents: 0, in_transit_cents: 0, paid_out_cents: SHARE },
    ]);
    expect((await ask({ currency: "USD" })).json().code).toBe("payout_nothing_available");

    const listed = await t.api.call(
      "GET",
      `/api/v1/admin/payouts?filter=${encodeURIComponent(JSON.stringify({ expert_id: e.expert.id }))}`,
      {
        user: t.admin,
      },
    );
    expect(listed.json()).toEqual([expect.objectContaining({ id: first.json().payout_key, status: "paid", amount_cents: SHARE })]);
    expect(listed.headers["content-range"]).toBe("payouts 0-0/1");
  });

  it("the weekly payout pays everything available, once a week", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    t.time.now = Date.parse("2031-01-06T08:00:00.000Z"); // a Monday
    const a = await completedBooking(e); // Tuesday
    const b = await completedBooking(e, 10_000); // Wednesday
    await reactor().runOnce();
    const weekly = async () => {
      await reactor().requestWeeklyPayouts();
      await reactor().runOnce();
      const { rows } = await t.api.ctx.db.query<{ amount_cents: string; idempotency_key: string }>(
        "SELECT amount_cents, idempotency_key FROM test_payouts WHERE expert_id = $1 ORDER BY created_at",
        [e.expert.id],
      );
      return rows.map((r) => [Number(r.amount_cents), r.idempotency_key.replace(e.expert.id, "x")]);
    };
    t.time.now = a.completedAt + CLEARING_PERIOD_DAYS * DAY;
    await release();
    await reactor().runOnce();
    expect(await weekly()).toEqual([[SHARE, "weekly-x-USD-2031-W03"]]);
    // The second booking cleared the next day, the same week: it waits for the next week's payout.
    t.time.now = b.completedAt + CLEARING_PERIOD_DAYS * DAY;
    await release();
    await reactor().runOnce();
    expect(await weekly()).toEqual([[SHARE, "weekly-x-USD-2031-W03"]]);
    expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: 8_500, paid_out_cents: SHARE });
    t.time.now += 7 * DAY;
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
    const paidOut = async () => (await t.api.ctx.db.query("SELECT 1 FROM test_payouts WHERE expert_id = $1", [e.expert.id])).rowCount;
    const nextWeekday = (isoDay: number) => {
      const d = new Date(t.time.now + DAY);
      while ((d.getUTCDay() || 7) !== isoDay) d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(9, 0, 0, 0);
      return d.getTime();
    };
    t.time.now = nextWeekday(2); // a Tuesday
    const run = reactor({ sweepEveryMs: 20, idleMs: 20 }).start();
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect(await paidOut()).toBe(0);
      t.time.now = nextWeekday(1);
      const deadline = Date.now() + 15_000;
      while ((await paidOut()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await paidOut()).toBe(1);
    } finally {
      await run.stop();
    }
  });

  it("with PAYOUTS_WEEKDAY=none the running reactor releases what cleared but asks for no weekly payout, even on a Monday", async () => {
    expect(apiConfigWith({ PAYOUTS_WEEKDAY: "none" }).PAYOUTS_WEEKDAY).toBeNull();
    expect(apiConfigWith({}).PAYOUTS_WEEKDAY).toBe(1);
    const e = await newExpert();
    await connectAccount(e.expert);
    const { completedAt } = await completedBooking(e);
    await reactor().runOnce();
    const monday = new Date(completedAt + CLEARING_PERIOD_DAYS * DAY);
    while (monday.getUTCDay() !== 1) monday.setUTCDate(monday.getUTCDate() + 1);
    t.time.now = monday.getTime();
    const run = reactor({
      sweepEveryMs: 20,
      idleMs: 20,
      payoutWeekday: apiConfigWith({ PAYOUTS_WEEKDAY: "none" }).PAYOUTS_WEEKDAY,
    }).start();
    try {
      const deadline = Date.now() + 15_000;
      while ((await balanceOf(e.expert))[0]?.available_cents !== SHARE && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect((await balanceOf(e.expert))[0]).toMatchObject({ available_cents: SHARE });
      await new Promise((r) => setTimeout(r, 300)); // fifteen sweeps more
      expect((await t.api.ctx.db.query("SELECT 1 FROM test_payouts WHERE expert_id = $1", [e.expert.id])).rowCount).toBe(0);
    } finally {
      await run.stop();
    }
  });

  it("the console lists each expert's payout account with pending and available money", async () => {
    const e = await newExpert();
    await connectAccount(e.expert);
    await completedBooking(e);
    await reactor().runOnce();
    const r = await t.api.call("GET", `/api/v1/admin/payout-accounts?filter=${encodeURIComponent(JSON.stringify({ id: e.expert.id }))}`, {
      user: t.admin,
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
    expect((await t.api.call("GET", "/api/v1/admin/payout-accounts", { user: e.expert })).statusCode).toBe(403);
  });
});
