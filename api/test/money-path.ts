import { expect } from "vitest";
import { CLEARING_PERIOD_DAYS } from "@booking/contracts";
import { ledgerEntries } from "@booking/projections";
import type { RefundProvider } from "../src/payments/index.ts";
import type { PayoutProvider } from "../src/payouts/index.ts";
import { PayoutReactor } from "../src/payouts/reactor.ts";
import { releaseEarnings } from "../src/payouts/release-sweeper.ts";
import { RefundReactor } from "../src/refunds/reactor.ts";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import type { TestApi, TestUser } from "./harness.ts";
import { waitFor } from "./processes.ts";

// The money path the reconciliation suites walk (issue 29.6), whichever provider moves the money:
// a paid booking, completed, released after the clearing period and transferred (127.50 of
// 150.00), refunded 50.00 (the transfer's 42.50 share reversed), and the 85.00 left paid out on
// the expert's request; it ends once the ledger holds all five provider-facing movements.

export const DAY = 86_400_000;

/** A call that must succeed (any 2xx), answered for further checks. */
export async function mustCall(api: TestApi, user: TestUser, method: "GET" | "POST", url: string, body?: unknown) {
  const r = await api.call(method, url, { user, ...(body !== undefined && { body }) });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
  return r;
}

export type RequestedSession = {
  admin: TestUser;
  expert: TestUser;
  creator: TestUser;
  calendar: ExpertCalendar;
  bookingId: string;
  start: Date;
};

/** An admin, and a creator's request (not yet paid) for a 60-minute session at 10:00 UTC the day after `now`, on a new expert's calendar. */
export async function requestedSession(api: TestApi, now: number): Promise<RequestedSession> {
  const admin = await api.user("admin");
  const expert = await api.user("expert");
  const creator = await api.user("creator");
  const start = new Date(now + DAY);
  start.setUTCHours(10, 0, 0, 0);
  const calendar = await expertCalendar(api, expert);
  return { admin, expert, creator, calendar, start, bookingId: await calendar.unpaidRequest(creator, start.toISOString()) };
}

/** The expert accepts the paid request and holds the session: `moveClockTo` takes the suite's clock past its end. */
export async function heldSession(s: RequestedSession, moveClockTo: (ms: number) => void): Promise<void> {
  const on = { expertId: s.expert.id, bookingId: s.bookingId, actor: { userId: s.expert.id, role: "expert" as const } };
  await s.calendar.run({ type: "ConfirmBooking", ...on });
  moveClockTo(s.start.getTime() + 61 * 60_000);
  await s.calendar.run({ type: "CompleteBooking", ...on });
}

export type MoneyPath = {
  api: TestApi;
  session: RequestedSession;
  payments: RefundProvider;
  payoutProvider: PayoutProvider;
  clock: () => string;
  /** Moves the suite's clock on. */
  advance: (ms: number) => void;
};

/** From a booking paid and completed, with the expert's payout account enabled, to its money paid out. */
export async function walkMoneyPath(m: MoneyPath): Promise<void> {
  const { api, clock } = m;
  const { admin, calendar, bookingId, expert } = m.session;
  const payouts = () =>
    new PayoutReactor(
      { log: api.ctx.store, db: api.ctx.db, payouts: api.ctx.payouts, provider: m.payoutProvider, clock },
      { warn: () => undefined },
    ).runOnce();
  const refunds = () =>
    new RefundReactor(
      { log: api.ctx.store, db: api.ctx.db, calendar: api.ctx.calendar, provider: m.payments, clock },
      { warn: () => undefined },
    ).runOnce();
  const release = () => releaseEarnings({ db: api.ctx.db, payouts: api.ctx.payouts, clock });
  await payouts();
  m.advance(CLEARING_PERIOD_DAYS * DAY);
  expect(await release()).toBe(1);
  await payouts(); // transferred: 127.50
  const refund = { amountCents: 5_000, reason: "Half the session had no sound" };
  await calendar.run({ type: "RefundBooking", expertId: expert.id, bookingId, actor: { userId: admin.id, role: "admin" }, ...refund });
  await refunds(); // 50.00 back to the creator
  await payouts();
  expect(await release()).toBe(1); // the adjustment
  await payouts(); // 42.50 of the transfer reversed
  const payout = await api.call("POST", "/api/v1/experts/me/payouts", { user: expert, body: { currency: "USD" } }); // the 85.00 left
  expect(payout.json()).toMatchObject({ amount_cents: 8_500 });
  await payouts();
  await payouts();
  await waitFor(
    "every movement in the ledger",
    async () => {
      const types = new Set((await ledgerEntries(api.ctx.db)).map((e) => e.event_type));
      return ["PaymentSucceeded", "RefundIssued", "TransferSent", "TransferReversed", "PayoutPaid"].every((t) => types.has(t));
    },
    15_000,
  );
}
