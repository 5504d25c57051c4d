import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  BookingReply,
  BookingReviewState,
  ExpertBalanceReply,
  ExpertEarningsReply,
  ExpertListItem,
  ExpertPayoutsReply,
  PayoutAccountReply,
  TrialBalanceReply,
} from "@booking/contracts";
import { completeSessionsOver } from "../src/bookings/completion-sweeper.ts";
import { PayoutReactor, releaseEarnings } from "../src/payouts/index.ts";
import { expireHolds } from "../src/bookings/hold-sweeper.ts";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { DEMO_CREATOR, DEMO_PASSWORD, demoExpertEmails, seedDemoData } from "../src/main/seed.ts";
import { startTestApi, stubPayments, type TestApi } from "./harness.ts";

// The marketplace a first `npm start` shows, made by the seed on a fresh API and looked at the way
// people see it: the listing, the demo creator's dashboard, the demo expert's Payments tab and the console.

let api: TestApi;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };

beforeAll(async () => {
  api = await startTestApi({ payments: new TestPaymentProvider(lazyDb) });
  const started = performance.now();
  expect(await seedDemoData(api.app, api.ctx)).toBe(true);
  // A figure, not a verdict (timing goals belong in the bench): 4-22 s on a quiet machine, 39 s at load 18.
  console.info(`demo seed took ${Math.round(performance.now() - started)} ms`);
}, 120_000);
afterAll(async () => api?.close());

async function signIn(email: string): Promise<string> {
  const r = await api.call("POST", "/api/v1/auth/login", { body: { email, password: DEMO_PASSWORD } });
  expect(r.statusCode, r.body).toBe(200);
  return (r.json() as { access_token: string }).access_token;
}

async function get<T>(url: string, token?: string): Promise<T> {
  const r = await api.call("GET", `/api/v1${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
  return r.json() as T;
}

describe("the demo marketplace of a first start", () => {
  it("lists five verified experts, each with a photo, a rating from several reviews and sessions of several prices and lengths", async () => {
    const experts = await get<ExpertListItem[]>("/experts");
    expect(experts).toHaveLength(5);
    for (const e of experts) {
      expect(e.verified, e.name).toBe(true);
      expect(e.rating, e.name).toBeGreaterThanOrEqual(4);
      expect(e.review_count, e.name).toBeGreaterThanOrEqual(2);
      expect(e.image, e.name).not.toBeNull();
      const photo = await api.call("GET", e.image!);
      expect(photo.statusCode).toBe(200);
      expect(photo.headers["content-type"]).toBe("image/jpeg");
    }
    const sessions = (
      await Promise.all(experts.map((e) => get<{ price: number; length_minutes: number }[]>(`/experts/${e.id}/sessions`)))
    ).flat();
    expect(new Set(sessions.map((s) => s.length_minutes)).size).toBeGreaterThanOrEqual(3);
    expect(Math.min(...sessions.map((s) => s.price))).toBeLessThanOrEqual(75);
    expect(Math.max(...sessions.map((s) => s.price))).toBeGreaterThanOrEqual(250);
    // A profile shows its reviews with the reviewer's first name and last initial, and an expert's public reply.
    const profiles = await Promise.all(experts.map((e) => get<{ reviews: { review: string; reply?: unknown }[] }>(`/experts/${e.slug}`)));
    expect(profiles.every((p) => p.reviews.length >= 2)).toBe(true);
  });

  it("has an application waiting in the console's queue and one with changes requested; neither expert is listed", async () => {
    const admin = (await api.user("admin")).token;
    const queue = await get<{ first_name: string; status: string }[]>("/admin/applications", admin);
    expect(queue.map((a) => [a.first_name, a.status])).toEqual([["Quinn", "submitted"]]);
    const changes = await get<{ first_name: string; status: string; reason: string }[]>(
      `/admin/applications?filter=${encodeURIComponent('{"status":"changes_requested"}')}`,
      admin,
    );
    expect(changes).toMatchObject([{ first_name: "Rafa", status: "changes_requested", reason: expect.stringContaining("recent stream") }]);
    const listed = (await get<ExpertListItem[]>("/experts")).map((e) => e.name);
    expect(listed.some((n) => n.startsWith("Quinn") || n.startsWith("Rafa"))).toBe(false);
  });

  it("gives the demo creator completed sessions with notes and reviews, bookings confirmed, pending and proposed, and a refunded cancellation", async () => {
    const token = await signIn(DEMO_CREATOR.email);
    const bookings = await get<BookingReply[]>("/bookings/creator/me", token);
    const now = Date.now();
    const completed = bookings.filter((b) => b.status === "completed");
    expect(completed.length).toBeGreaterThanOrEqual(2);
    expect(completed.every((b) => b.has_notes && Date.parse(b.scheduled_time) < now)).toBe(true);
    const reviews = await Promise.all(completed.map((b) => get<BookingReviewState>(`/bookings/${b.id}/review`, token)));
    expect(reviews.filter((r) => r.review !== null).length).toBeGreaterThanOrEqual(1);
    // One is left to review, so the form can be tried.
    expect(reviews.some((r) => r.review === null)).toBe(true);

    const upcoming = bookings.filter((b) => Date.parse(b.scheduled_time) > now);
    for (const status of ["confirmed", "pending", "time_proposed"] as const) {
      const b = upcoming.find((x) => x.status === status);
      expect(b, status).toBeDefined();
      // Paid, so no hold lapses.
      expect(b!.paid, status).toBe(true);
    }
    const cancelled = bookings.find((b) => b.status === "cancelled");
    expect(cancelled).toBeDefined();
    expect(cancelled!.paid_cents).toBeGreaterThan(0);
    expect(cancelled).toMatchObject({ refund_state: "refunded", refunded_cents: cancelled!.paid_cents, payment_state: "refunded" });
  });

  it("shows the demo expert's earnings on the Payments tab, and the console's reviews and refunds", async () => {
    const ava = await signIn("ava@example.com");
    const earnings = await get<ExpertEarningsReply>("/experts/me/earnings", ava);
    expect(earnings.totals.sessions).toBeGreaterThanOrEqual(3);
    expect(earnings.totals.net_cents).toBeGreaterThan(0);
    expect(earnings.months.length).toBeGreaterThanOrEqual(1);

    const admin = await api.user("admin");
    const reviews = await get<{ rating: number; reply_text: string | null }[]>("/admin/reviews", admin.token);
    expect(reviews.length).toBeGreaterThanOrEqual(10);
    expect(reviews.some((r) => r.reply_text !== null)).toBe(true);
    const refunds = await get<{ status: string }[]>("/admin/refunds", admin.token);
    expect(refunds.map((r) => r.status)).toContain("issued");
    // The test provider's own table agrees with what the log says was paid and refunded.
    const { rows } = await api.ctx.db.query<{ unpaid: number; refunds: number }>(
      `SELECT (SELECT count(*) FROM bookings b WHERE b.paid_cents > 0
                 AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = b.booking_id AND p.status = 'succeeded'))::int AS unpaid,
              (SELECT count(*) FROM test_refunds)::int AS refunds`,
    );
    expect(rows[0]).toEqual({ unpaid: 0, refunds: 1 });
  });

  it("leaves nothing for the sweepers or the payout reactor to do now, and seeds once: a second start changes nothing", async () => {
    const deps = { db: api.ctx.db, calendar: api.ctx.calendar, clock: api.ctx.clock };
    expect(await completeSessionsOver(deps)).toBe(0);
    expect(await expireHolds(deps)).toBe(0);
    // What the running process's payout reactor would find: the log read, nothing to release, transfer or pay out.
    const { ctx } = api;
    const payoutDeps = { log: ctx.store, db: ctx.db, payouts: ctx.payouts, provider: ctx.payoutProvider, clock: ctx.clock };
    const reactor = new PayoutReactor(payoutDeps, { warn: (line) => expect.fail(line) });
    expect((await reactor.runOnce()).moved).toBe(0);
    expect(await releaseEarnings(payoutDeps)).toBe(0);
    expect(await reactor.requestWeeklyPayouts()).toBe(0);

    const moneyMoved = () =>
      ctx.db.query("SELECT (SELECT count(*) FROM test_transfers)::int AS transfers, (SELECT count(*) FROM test_payouts)::int AS payouts");
    const [before, moved] = [await ctx.store.countEvents(), (await moneyMoved()).rows[0]];
    expect(await seedDemoData(api.app, api.ctx)).toBe(false);
    expect(await ctx.store.countEvents()).toBe(before);
    expect((await moneyMoved()).rows[0]).toEqual(moved);
  });

  it("shows the experts' money: released, transferred and paid out weekly, pending in its clearing period, per currency", async () => {
    // The payout reactor of a running process reads the log up to now (the bookings made after the past, too).
    const { ctx } = api;
    const payoutDeps = { log: ctx.store, db: ctx.db, payouts: ctx.payouts, provider: ctx.payoutProvider, clock: ctx.clock };
    await new PayoutReactor(payoutDeps, { warn: (line) => expect.fail(line) }).runOnce();
    const moneyOf = async (email: string) => {
      const token = await signIn(email);
      const account = await get<PayoutAccountReply>("/experts/me/payout-account", token);
      const { balances } = await get<ExpertBalanceReply>("/experts/me/balance", token);
      const { payouts } = await get<ExpertPayoutsReply>("/experts/me/payouts", token);
      return { account, balances: new Map(balances.map((b) => [b.currency, b])), payouts };
    };

    // Ava: connected, paid every week since; her latest session and a confirmed one to come are pending.
    const ava = await moneyOf("ava@example.com");
    expect(ava.account).toMatchObject({ status: "enabled", provider: "test", held: false });
    const avaUsd = ava.balances.get("USD")!;
    // Four sessions cleared ($150, $60, $150, $150 less the 15 % fee); a $60 one completed days ago and a $150 one confirmed.
    expect(avaUsd.paid_out_cents + avaUsd.available_cents + avaUsd.in_transit_cents).toBe(43_350);
    expect(avaUsd.paid_out_cents).toBeGreaterThan(0);
    expect(avaUsd.pending_cents).toBe(17_850);
    expect(ava.payouts.length).toBeGreaterThanOrEqual(1);
    expect(ava.payouts.every((p) => p.status === "paid" && p.by === "schedule" && p.payout_id !== null)).toBe(true);

    // Sofia: paid once, then held by an admin with a reason: a session's share waits, available; the latest is pending.
    const sofia = await moneyOf("sofia@example.com");
    expect(sofia.account).toMatchObject({ status: "enabled", held: true });
    expect(sofia.account.held_reason).toMatch(/bank account/);
    expect(sofia.balances.get("USD")).toEqual({
      currency: "USD",
      pending_cents: 21_250,
      available_cents: 21_250,
      // Held: her share is not transferred to her account either, so no payout could take it.
      payable_cents: 0,
      in_transit_cents: 0,
      paid_out_cents: 21_250,
    });
    expect(sofia.payouts.map((p) => [p.status, p.amount_cents])).toEqual([["paid", 21_250]]);

    // Marcus: his workshop is priced in pounds, paid out apart from his dollars.
    const marcus = await moneyOf("marcus@example.com");
    expect([...marcus.balances.keys()]).toEqual(["USD", "GBP"]);
    expect(marcus.balances.get("GBP")).toMatchObject({ pending_cents: 0, available_cents: 0, paid_out_cents: 25_500 });
    expect(marcus.payouts.filter((p) => p.currency === "GBP").map((p) => p.amount_cents)).toEqual([25_500]);

    // Jordan left the onboarding incomplete: released money waits for the account, never paid out.
    const jordan = await moneyOf("jordan@example.com");
    expect(jordan.account.status).toBe("incomplete");
    expect(jordan.balances.get("USD")!.available_cents).toBeGreaterThan(0);
    expect(jordan.balances.get("USD")!.paid_out_cents).toBe(0);
    expect(jordan.payouts).toEqual([]);

    // The ledger balances in each currency, and the test provider moved what the log says.
    const admin = await api.user("admin");
    const trial = await get<TrialBalanceReply>("/admin/ledger/trial-balance", admin.token);
    const totals = trial.filter((l) => l.kind === "total");
    expect(Object.fromEntries(totals.map((t) => [t.currency, t.balance_cents]))).toEqual({ USD: 0, GBP: 0 });
    const { rows } = await ctx.db.query<{ untransferred: number; unpaid: number }>(
      `SELECT (SELECT count(*) FROM payout_bookings b WHERE b.transfer_status = 'sent'
                 AND NOT EXISTS (SELECT 1 FROM test_transfers t
                                 WHERE t.transfer_id = b.transfer_id AND t.amount_cents = b.transferred_cents))::int AS untransferred,
              (SELECT count(*) FROM payout_payouts p WHERE p.status = 'paid'
                 AND NOT EXISTS (SELECT 1 FROM test_payouts t WHERE t.payout_id = p.payout_id AND t.amount_cents = p.amount_cents))::int AS unpaid`,
    );
    expect(rows[0]).toEqual({ untransferred: 0, unpaid: 0 });
  });

  it("makes the history only where the test card pays its bookings and their mail stays in the dev mailbox", () => {
    const testCard = { payments: new TestPaymentProvider(lazyDb), mail: api.ctx.mail };
    expect(demoExpertEmails(testCard)).toHaveLength(5);
    // Stripe (or any provider but the test one) would be asked to charge them; SMTP would mail example.com addresses.
    expect(demoExpertEmails({ ...testCard, payments: stubPayments })).toHaveLength(3);
    expect(demoExpertEmails({ ...testCard, mail: { ...api.ctx.mail, smtpUrl: "smtp://mail.example.com:587" } })).toHaveLength(3);
  });
});
