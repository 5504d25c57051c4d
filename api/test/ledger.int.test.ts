import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ExpertStatementReply,
  MoneyTrailReply,
  TrialBalanceReply,
  earningSplit,
  payoutStream,
  type DomainEvent,
  type MoneyTrailEntryReply,
} from "@booking/contracts";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { RefundReactor } from "../src/refunds/reactor.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { expertCancels, paidBooking, type PaidBooking } from "./paid-booking.ts";

// The ledger through the real routes (issue 29.5): bookings paid with the test card, one
// cancelled and refunded by the refund reactor, one confirmed and completed by its expert and then
// released and transferred (the payouts stream's events, appended as the payouts reactor records
// them): the admin's trial balance is zero per currency, each booking's money trail shows every
// movement, the expert's statement the month's earnings, fee and transfer.

let api: TestApi;
let admin: TestUser;
let now = Date.now();
const clock = () => new Date(now).toISOString();
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
const provider = new TestPaymentProvider(lazyDb);

let completed: PaidBooking;
let refunded: PaidBooking;
const split = earningSplit(15_000, 0, 1500);

/** Ask again until the read models show it (events appended straight to the log have no read-your-writes). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (ok(value) || i > 200) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const get = (url: string, user: TestUser = admin) => api.call("GET", `/api/v1${url}`, { user });
const trailOf = async (b: PaidBooking) => MoneyTrailReply.parse((await get(`/admin/bookings/${b.bookingId}/money-trail`)).json());
const lines = (trail: MoneyTrailEntryReply[]) => trail.map((e) => [e.event_type, e.account, e.currency, e.debit_cents, e.credit_cents]);

beforeAll(async () => {
  api = await startTestApi({ payments: provider, clock });
  admin = await api.user("admin");

  refunded = await paidBooking(api);
  await expertCancels(api, refunded);
  const reactor = new RefundReactor(
    { log: api.ctx.store, db: api.ctx.db, calendar: api.ctx.calendar, provider, clock },
    { warn: () => undefined },
  );
  await reactor.runOnce();

  completed = await paidBooking(api);
  const status = (body: unknown) => api.call("PATCH", `/api/v1/bookings/${completed.bookingId}/status`, { user: completed.expert, body });
  const confirmed = await status({ status: "confirmed" });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  now += 4 * 86_400_000; // the session (3 days ahead, an hour long) is over
  const done = await status({ status: "completed" });
  expect(done.statusCode, done.body).toBe(200);

  const { expertId, bookingId } = completed;
  const payouts: DomainEvent[] = [
    {
      type: "EarningReleased",
      data: { expertId, bookingId, currency: "USD", paidCents: 15_000, refundedCents: 0, feeBasisPoints: 1500, ...split },
    },
    {
      type: "TransferSent",
      data: {
        expertId,
        bookingId,
        currency: "USD",
        amountCents: split.shareCents,
        transferKey: `transfer-${bookingId}`,
        transferId: "tr_1",
      },
    },
  ];
  await api.ctx.store.append(
    payoutStream(expertId),
    payouts.map((e) => ({ type: e.type, data: e.data, metadata: { at: clock() } })),
    "any",
  );
  await eventually(
    () => trailOf(completed),
    (trail) => trail.some((e) => e.event_type === "TransferSent"),
  );
});
afterAll(async () => api.close());

describe("the ledger for admins", () => {
  it("a completed booking's money trail: payment, release (fee and the expert's share) and transfer", async () => {
    const r = await get(`/admin/bookings/${completed.bookingId}/money-trail`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers["content-range"]).toBe("money-trail 0-6/7");
    const payable = `expert_payable:${completed.expertId}`;
    const connected = `expert_connected:${completed.expertId}`;
    expect(lines(MoneyTrailReply.parse(r.json()))).toEqual([
      ["PaymentSucceeded", "platform_cash", "USD", 15_000, 0],
      ["PaymentSucceeded", "bookings_held", "USD", 0, 15_000],
      ["EarningReleased", "bookings_held", "USD", 15_000, 0],
      ["EarningReleased", "platform_fee_revenue", "USD", 0, split.feeCents],
      ["EarningReleased", payable, "USD", 0, split.shareCents],
      ["TransferSent", connected, "USD", split.shareCents, 0],
      ["TransferSent", "platform_cash", "USD", 0, split.shareCents],
    ]);
  });

  it("a cancelled booking's money trail: payment, the refund owed by the cancellation and issued by the reactor", async () => {
    expect(lines(await trailOf(refunded))).toEqual([
      ["PaymentSucceeded", "platform_cash", "USD", 15_000, 0],
      ["PaymentSucceeded", "bookings_held", "USD", 0, 15_000],
      ["Cancelled", "bookings_held", "USD", 15_000, 0],
      ["Cancelled", "refunds_payable", "USD", 0, 15_000],
      ["RefundIssued", "refunds_payable", "USD", 15_000, 0],
      ["RefundIssued", "platform_cash", "USD", 0, 15_000],
    ]);
  });

  it("the trial balance: every account per currency, and the currency's total zero", async () => {
    const r = await get("/admin/ledger/trial-balance");
    expect(r.statusCode, r.body).toBe(200);
    const balance = TrialBalanceReply.parse(r.json());
    expect(r.headers["content-range"]).toBe(`ledger/trial-balance 0-${balance.length - 1}/${balance.length}`);
    const of = (id: string) => balance.find((l) => l.id === id)?.balance_cents;
    expect(of("platform_cash/USD")).toBe(30_000 - 15_000 - split.shareCents);
    expect(of("bookings_held/USD")).toBe(0);
    expect(of("refunds_payable/USD")).toBe(0);
    expect(of("platform_fee_revenue/USD")).toBe(-split.feeCents);
    expect(of(`expert_payable:${completed.expertId}/USD`)).toBe(-split.shareCents);
    expect(of(`expert_connected:${completed.expertId}/USD`)).toBe(split.shareCents);
    expect(balance.filter((l) => l.kind === "total")).toEqual([
      { id: "total/USD", kind: "total", account: "total", currency: "USD", debit_cents: 87_750, credit_cents: 87_750, balance_cents: 0 },
    ]);
    // A page of it, and a currency it has nothing in.
    const first = await api.call("GET", `/api/v1/admin/ledger/trial-balance?range=${encodeURIComponent("[0,1]")}`, { user: admin });
    expect(first.json()).toHaveLength(2);
    expect(first.headers["content-range"]).toBe(`ledger/trial-balance 0-1/${balance.length}`);
    const eur = await api.call("GET", `/api/v1/admin/ledger/trial-balance?filter=${encodeURIComponent('{"currency":"EUR"}')}`, {
      user: admin,
    });
    expect(eur.json()).toEqual([]);
  });

  it("the expert's statement of the month: earnings, fee, transfer, and what the platform owes them at its close", async () => {
    const month = clock().slice(0, 7);
    const r = await get(`/admin/payout-accounts/${completed.expertId}/statement?month=${month}`);
    expect(r.statusCode, r.body).toBe(200);
    expect(ExpertStatementReply.parse(r.json())).toEqual({
      expert_id: completed.expertId,
      month,
      currencies: [
        {
          currency: "USD",
          opening_cents: 0,
          earnings_cents: 15_000,
          fee_cents: split.feeCents,
          refunds_cents: 0,
          transfers_cents: split.shareCents,
          reversals_cents: 0,
          payouts_cents: 0,
          closing_cents: split.shareCents,
        },
      ],
    });
    expect((await get(`/admin/payout-accounts/${completed.expertId}/statement?month=2026-13`)).statusCode).toBe(400);
  });

  it("is for admins only", async () => {
    for (const url of [
      "/admin/ledger/trial-balance",
      `/admin/bookings/${completed.bookingId}/money-trail`,
      `/admin/payout-accounts/${completed.expertId}/statement?month=2026-01`,
    ]) {
      expect((await get(url, completed.expert)).statusCode, url).toBe(403);
      expect((await get(url, completed.creator)).statusCode, url).toBe(403);
    }
  });
});
