import { expect } from "vitest";
import { CLEARING_PERIOD_DAYS } from "@booking/contracts";
import { ledgerEntries } from "@booking/projections";
import type { RefundProvider } from "../src/payments/index.ts";
import type { PayoutProvider } from "../src/payouts/index.ts";
import { PayoutReactor } from "../src/payouts/reactor.ts";
import { releaseEarnings } from "../src/payouts/release-sweeper.ts";
import { RefundReactor } from "../src/refunds/reactor.ts";
import type { ExpertCalendar } from "./calendar-bookings.ts";
import type { TestApi, TestUser } from "./harness.ts";
import { waitFor } from "./processes.ts";

// The money path the reconciliation suites walk (issue 29.6), whichever provider moves the money:
// a paid booking, completed, released after the clearing period and transferred (127.50 of
// 150.00), refunded 50.00 (the transfer's 42.50 share reversed), and the 85.00 left paid out on
// the expert's request; it ends once the ledger holds all five provider-facing movements.

export const DAY = 86_400_000;

export type MoneyPath = {
  api: TestApi;
  admin: TestUser;
  calendar: ExpertCalendar;
  bookingId: string;
  payments: RefundProvider;
  payoutProvider: PayoutProvider;
  clock: () => string;
  /** Moves the suite's clock on. */
  advance: (ms: number) => void;
};

/** From a booking paid and completed, with the expert's payout account enabled, to its money paid out. */
export async function walkMoneyPath(m: MoneyPath): Promise<void> {
  const { api, clock, bookingId } = m;
  const expert = m.calendar.expert;
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
  const admin = { userId: m.admin.id, role: "admin" as const };
  const refund = { amountCents: 5_000, reason: "Half the session had no sound" };
  await m.calendar.run({ type: "RefundBooking", expertId: expert.id, bookingId, actor: admin, ...refund });
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
