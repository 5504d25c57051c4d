import { expect } from "vitest";
import { CLEARING_PERIOD_DAYS, payoutStream } from "@booking/contracts";
import { PayoutReactor, type PayoutReactorOptions } from "../src/payouts/reactor.ts";
import { releaseEarnings } from "../src/payouts/release-sweeper.ts";
import type { PayoutProvider } from "../src/payouts/provider.ts";
import type { TestPayoutProvider } from "../src/payouts/test-payout-provider.ts";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// What the payouts tests share (payouts*.int.test.ts): the API on a clock the test moves, the test
// payouts provider, a reactor and the release sweep on that clock, and the steps of an expert's
// money: a fresh expert, a completed session, a payout account connected in the test onboarding,
// a share released after the clearing period; and what the tests read back.

export const DAY = 86_400_000;
export const PRICE = 15_000;
/** 15 % of 150.00 kept by the platform. */
export const SHARE = 12_750;

export type Expert = { expert: TestUser; calendar: ExpertCalendar };
export type Balance = {
  currency: string;
  pending_cents: number;
  available_cents: number;
  in_transit_cents: number;
  paid_out_cents: number;
};

/** Call `start` in beforeAll and `stop` in afterAll; `time.now` is the API's clock (ms). */
export function payoutsTestbed(startAt: string) {
  const time = { now: Date.parse(startAt) };
  const clock = () => new Date(time.now).toISOString();
  const t = {
    time,
    clock,
    api: undefined as unknown as TestApi,
    provider: undefined as unknown as TestPayoutProvider,
    admin: undefined as unknown as TestUser,
    creator: undefined as unknown as TestUser,
    async start() {
      t.api = await startTestApi({ clock });
      t.provider = t.api.ctx.payoutProvider as TestPayoutProvider;
      t.admin = await t.api.user("admin");
      t.creator = await t.api.user("creator");
    },
    stop: () => t.api.close(),
    /** A payout reactor on the test provider (or `provider`, one that answers otherwise). */
    reactor: (options: PayoutReactorOptions = {}, provider?: PayoutProvider): PayoutReactor =>
      new PayoutReactor(
        { log: t.api.ctx.store, db: t.api.ctx.db, payouts: t.api.ctx.payouts, provider: provider ?? t.provider, clock },
        { warn: () => undefined, firstRetryMs: 60_000, ...options },
      ),
    release: () => releaseEarnings({ db: t.api.ctx.db, payouts: t.api.ctx.payouts, clock }),
    /** A fresh expert (their own calendar and payouts stream). */
    async newExpert(): Promise<Expert> {
      const expert = await t.api.user("expert");
      return { expert, calendar: await expertCalendar(t.api, expert) };
    },
    /** A paid booking the expert accepted, a day from now, its session held and completed; the clock ends just after it. */
    async completedBooking(e: Expert, priceCents = PRICE) {
      const start = new Date(time.now + DAY);
      start.setUTCHours(10, 0, 0, 0);
      const bookingId = await e.calendar.confirmedBooking(t.creator, start.toISOString(), priceCents);
      time.now = start.getTime() + 61 * 60_000;
      await e.calendar.run({ type: "CompleteBooking", expertId: e.expert.id, bookingId, actor: { userId: e.expert.id, role: "expert" } });
      return { bookingId, completedAt: time.now };
    },
    async connectAccount(expert: TestUser, complete = true) {
      const created = await t.api.call("POST", "/api/v1/experts/me/payout-account", { user: expert });
      expect(created.statusCode, created.body).toBe(201);
      const finished = await t.api.call("POST", "/api/v1/experts/me/payout-account/test-onboarding", { user: expert, body: { complete } });
      expect(finished.statusCode, finished.body).toBe(200);
      return finished.json();
    },
    /** An admin refunds part of a booking (the expert's calendar owes it back). */
    refund: (e: Expert, bookingId: string, amountCents: number, reason: string) =>
      e.calendar.run({
        type: "RefundBooking",
        expertId: e.expert.id,
        bookingId,
        actor: { userId: t.admin.id, role: "admin" },
        amountCents,
        reason,
      }),
    /** Completed, cleared and released: the clock moves past the clearing period. */
    async releasedBooking(e: Expert, priceCents = PRICE) {
      const b = await t.completedBooking(e, priceCents);
      await t.reactor().runOnce();
      time.now = b.completedAt + CLEARING_PERIOD_DAYS * DAY;
      expect(await t.release()).toBeGreaterThanOrEqual(1);
      return b;
    },
    async balanceOf(expert: TestUser): Promise<Balance[]> {
      const r = await t.api.call("GET", "/api/v1/experts/me/balance", { user: expert });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().balances;
    },
    testTransfers: async (bookingId: string) =>
      (
        await t.api.ctx.db.query<{ amount_cents: string }>("SELECT amount_cents FROM test_transfers WHERE booking_id = $1", [bookingId])
      ).rows.map((r) => Number(r.amount_cents)),
    payoutEvents: async (expertId: string, type: string) =>
      (await t.api.ctx.store.readStream(payoutStream(expertId))).events.filter((e) => e.type === type),
    transferRow: async (bookingId: string) =>
      (
        await t.api.ctx.db.query<{ transfer_status: string; transfer_attempts: number; last_error: string | null }>(
          "SELECT transfer_status, transfer_attempts, last_error FROM payout_bookings WHERE booking_id = $1",
          [bookingId],
        )
      ).rows[0]!,
  };
  return t;
}
