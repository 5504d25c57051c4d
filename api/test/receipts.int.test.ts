import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUser } from "@booking/projections";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { RefundReactor } from "../src/refunds/reactor.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { expertCancels, paidBooking, type PaidBooking } from "./paid-booking.ts";
import { waitFor } from "./processes.ts";
import { pdfText } from "./receipts-pdf-text.ts";

// Receipts (issue 29.7): a creator gets one for each payment and each refund of their booking,
// listed and downloadable as a PDF naming the parties, the session, its date in the reader's zone,
// the amount with its currency and the provider's id. Only the creator and an admin see them.

let api: TestApi;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
const provider = new TestPaymentProvider(lazyDb);

beforeAll(async () => {
  api = await startTestApi({ payments: provider });
});
afterAll(async () => api.close());

type Receipt = { kind: "payment" | "refund"; key: string; amount_cents: number; currency: string; at: string; url: string };

async function receiptsOf(b: PaidBooking, user: TestUser = b.creator): Promise<Receipt[]> {
  const r = await api.call("GET", `/api/v1/bookings/${b.bookingId}/receipts`, { user });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().receipts;
}

async function refunded(b: PaidBooking): Promise<void> {
  await expertCancels(api, b);
  await new RefundReactor({ log: api.ctx.store, db: api.ctx.db, calendar: api.ctx.calendar, provider, clock: api.ctx.clock }, {}).runOnce();
  await waitFor("the refund in the read model", async () => (await receiptsOf(b)).length === 2, 10_000);
}

/** The user sets a time zone on their account (PreferencesSet), and the users read model shows it. */
async function setZone(user: TestUser, timezone: string): Promise<void> {
  await api.ctx.store.append(
    `user-${user.id}`,
    [{ type: "PreferencesSet", data: { userId: user.id, timezone, reminderMails: true }, metadata: { at: api.ctx.clock() } }],
    "any",
  );
  await waitFor("the zone in the read model", async () => (await findUser(api.ctx.db, user.id))?.timezone === timezone, 10_000);
}

describe("receipts of a booking", () => {
  it("lists one receipt per payment and per refund, each with its amount, currency and PDF address", async () => {
    const b = await paidBooking(api, 12_500);
    const [payment] = await receiptsOf(b);
    expect(payment).toMatchObject({ kind: "payment", amount_cents: 12_500, currency: "USD" });
    expect(payment!.url).toBe(`/api/v1/bookings/${b.bookingId}/receipts/${payment!.key}.pdf`);

    await refunded(b);
    const receipts = await receiptsOf(b);
    expect(receipts.map((r) => [r.kind, r.amount_cents, r.currency])).toEqual([
      ["payment", 12_500, "USD"],
      ["refund", 12_500, "USD"],
    ]);
    expect(new Set(receipts.map((r) => r.key)).size).toBe(2);
  });

  it("a receipt's PDF names the platform, the parties, the session, its date, the amount and the provider's ids", async () => {
    const b = await paidBooking(api, 15_000);
    await refunded(b);
    const [payment, refund] = await receiptsOf(b);
    const paid = await api.call("GET", `${payment!.url}?tz=Asia/Tokyo`, { user: b.creator });
    expect(paid.statusCode).toBe(200);
    expect(paid.headers["content-type"]).toBe("application/pdf");
    expect(paid.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfText(paid.rawPayload);
    expect(text).toContain("Expert Sessions");
    expect(text).toContain("Payment receipt");
    expect(text).toContain("$150.00 USD");
    expect(text).toContain(b.paymentId);
    expect(text).toContain("Growth strategy");
    expect(text).toContain("creator Test");
    expect(text).toContain("Expert");
    // The session is at 10:00 UTC: 19:00 in Tokyo, the zone asked for (the test creator has none on file).
    expect(text).toMatch(/19:00 \(Asia\/Tokyo/);
    expect(text).toContain("Times are in Asia/Tokyo, as asked.");

    const back = await api.call("GET", refund!.url, { user: b.creator });
    expect(back.statusCode).toBe(200);
    const refundText = pdfText(back.rawPayload);
    expect(refundText).toContain("Refund receipt");
    const [testRefund] = (
      await api.ctx.db.query<{ refund_id: string }>("SELECT refund_id FROM test_refunds WHERE booking_id = $1", [b.bookingId])
    ).rows;
    expect(refundText).toContain(testRefund!.refund_id);
    // No zone on file and none asked: UTC, said so.
    expect(refundText).toMatch(/10:00 \(UTC\)/);
    expect(refundText).toContain("Times are in UTC");
  });

  it("dates are in the reader's own zone when their account has one, whatever is asked", async () => {
    const b = await paidBooking(api);
    await setZone(b.creator, "America/New_York");
    const [payment] = await receiptsOf(b);
    const text = pdfText((await api.call("GET", `${payment!.url}?tz=Asia/Tokyo`, { user: b.creator })).rawPayload);
    // 10:00 UTC is 05:00 in New York (winter) or 06:00 (summer).
    expect(text).toMatch(/0[56]:00 \(America\/New_York/);
    expect(text).toContain("Times are in America/New_York, the time zone of your account.");
  });

  it("only the booking's creator and an admin see its receipts; the expert and others are told there is no such booking", async () => {
    const b = await paidBooking(api);
    const other = await api.user("creator");
    const admin = await api.user("admin");
    expect((await receiptsOf(b, admin)).length).toBe(1);
    for (const user of [b.expert, other]) {
      expect((await api.call("GET", `/api/v1/bookings/${b.bookingId}/receipts`, { user })).statusCode).toBe(404);
      const [r] = await receiptsOf(b);
      expect((await api.call("GET", r!.url, { user })).statusCode).toBe(404);
    }
    expect((await api.call("GET", `/api/v1/bookings/${b.bookingId}/receipts`)).statusCode).toBe(401);
    expect((await api.call("GET", `/api/v1/bookings/${b.bookingId}/receipts/nope.pdf`, { user: b.creator })).statusCode).toBe(404);
    expect((await api.call("GET", `/api/v1/bookings/${b.bookingId}/receipts/x.exe`, { user: b.creator })).statusCode).toBe(404);
  });
});
