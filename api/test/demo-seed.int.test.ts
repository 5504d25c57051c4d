import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BookingReply, BookingReviewState, ExpertEarningsReply, ExpertListItem } from "@booking/contracts";
import { completeSessionsOver } from "../src/bookings/completion-sweeper.ts";
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

  it("leaves nothing for the sweepers to do now, and seeds once: a second start changes nothing", async () => {
    const deps = { db: api.ctx.db, calendar: api.ctx.calendar, clock: api.ctx.clock };
    expect(await completeSessionsOver(deps)).toBe(0);
    expect(await expireHolds(deps)).toBe(0);
    const before = await api.ctx.store.countEvents();
    expect(await seedDemoData(api.app, api.ctx)).toBe(false);
    expect(await api.ctx.store.countEvents()).toBe(before);
  });

  it("makes the history only where the test card pays its bookings and their mail stays in the dev mailbox", () => {
    const testCard = { payments: new TestPaymentProvider(lazyDb), mail: api.ctx.mail };
    expect(demoExpertEmails(testCard)).toHaveLength(5);
    // Stripe (or any provider but the test one) would be asked to charge them; SMTP would mail example.com addresses.
    expect(demoExpertEmails({ ...testCard, payments: stubPayments })).toHaveLength(3);
    expect(demoExpertEmails({ ...testCard, mail: { ...api.ctx.mail, smtpUrl: "smtp://mail.example.com:587" } })).toHaveLength(3);
  });
});
