import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payoutStream, transferKeyOf } from "@booking/contracts";
import { ledgerEntries } from "@booking/projections";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { paidBooking, run, type PaidBooking } from "./paid-booking.ts";
import { waitFor } from "./processes.ts";
import { pdfText } from "./receipts-pdf-text.ts";

// An expert's monthly statement (issue 29.7), as CSV and PDF, from the ledger: the month's earnings
// per booking (session, date, paid, refunded, fee, share), transfers, reversals, payouts, and per
// currency the totals with the balance owed to the expert at the month's start and end. The
// expert's payouts stream is written here as the payout reactor writes it, at chosen times.

let api: TestApi;
let admin: TestUser;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };

beforeAll(async () => {
  api = await startTestApi({ payments: new TestPaymentProvider(lazyDb) });
  admin = await api.user("admin");
});
afterAll(async () => api.close());

const at = (iso: string) => ({ at: iso });

/** October: the booking's share released (15 % fee) and transferred; November: 100.00 of it paid out. */
async function earnedAndPaidOut(b: PaidBooking, bookingIds: string[] = [b.bookingId]): Promise<string> {
  const expertId = b.expert.id;
  const events = bookingIds.flatMap((bookingId, i) => [
    {
      type: "EarningReleased",
      data: {
        expertId,
        bookingId,
        currency: "USD",
        paidCents: 15_000,
        refundedCents: 0,
        keptCents: 15_000,
        feeBasisPoints: 1500,
        feeCents: 2250,
        shareCents: 12_750,
      },
      metadata: at(`2026-10-1${i}T10:00:00.000Z`),
    },
    {
      type: "TransferSent",
      data: { expertId, transferKey: transferKeyOf(bookingId), bookingId, transferId: `tr_${i}`, amountCents: 12_750, currency: "USD" },
      metadata: at(`2026-10-1${i}T11:00:00.000Z`),
    },
  ]);
  await api.ctx.store.append(
    payoutStream(expertId),
    [
      ...events,
      {
        type: "PayoutRequested",
        data: { expertId, payoutKey: "po-key-1", amountCents: 10_000, currency: "USD", by: "expert" },
        metadata: at("2026-11-02T09:00:00.000Z"),
      },
      { type: "PayoutSent", data: { expertId, payoutKey: "po-key-1", payoutId: "po_1" }, metadata: at("2026-11-02T09:01:00.000Z") },
      { type: "PayoutPaid", data: { expertId, payoutKey: "po-key-1", payoutId: "po_1" }, metadata: at("2026-11-04T09:00:00.000Z") },
    ],
    "no_stream",
  );
  await waitFor(
    "the payout in the ledger",
    async () => (await ledgerEntries(api.ctx.db)).some((e) => e.expert_id === expertId && e.event_type === "PayoutPaid"),
    10_000,
  );
  return expertId;
}

async function csvOf(user: TestUser, url: string): Promise<string[][]> {
  const r = await api.call("GET", url, { user });
  expect(r.statusCode, r.body).toBe(200);
  expect(r.headers["content-type"]).toBe("text/csv; charset=utf-8");
  return r.body
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(","));
}

const totalOf = (rows: string[][], what: string) => rows.find((r) => r[0] === `total ${what}`)?.[10];

describe("an expert's monthly statement", () => {
  it("as CSV: October's earning and transfer, then November's payout, with the balance owed carried from one month to the next", async () => {
    const b = await paidBooking(api, 15_000);
    const expertId = await earnedAndPaidOut(b);
    const october = await csvOf(b.expert, "/api/v1/experts/me/statements/2026-10.csv");
    expect(october[0]).toEqual([
      "section",
      "date",
      "booking",
      "session",
      "session_date",
      "currency",
      "paid",
      "refunded",
      "fee",
      "share",
      "amount",
    ]);
    const earning = october.find((r) => r[0] === "earning")!;
    expect(earning).toEqual([
      "earning",
      "2026-10-10T10:00:00.000Z",
      b.bookingId,
      "Growth strategy",
      expect.any(String),
      "USD",
      "150.00",
      "0.00",
      "22.50",
      "127.50",
      "",
    ]);
    expect(october.find((r) => r[0] === "transfer")).toEqual([
      "transfer",
      "2026-10-10T11:00:00.000Z",
      b.bookingId,
      "",
      "",
      "USD",
      "",
      "",
      "",
      "",
      "127.50",
    ]);
    expect(october.some((r) => r[0] === "payout")).toBe(false);
    expect(totalOf(october, "opening balance")).toBe("0.00");
    expect(totalOf(october, "earnings")).toBe("150.00");
    expect(totalOf(october, "fee")).toBe("22.50");
    expect(totalOf(october, "share")).toBe("127.50");
    expect(totalOf(october, "transfers")).toBe("127.50");
    expect(totalOf(october, "closing balance")).toBe("127.50");

    const november = await csvOf(b.expert, "/api/v1/experts/me/statements/2026-11.csv");
    expect(november.some((r) => r[0] === "earning")).toBe(false);
    expect(november.find((r) => r[0] === "payout")).toEqual([
      "payout",
      "2026-11-04T09:00:00.000Z",
      "",
      "",
      "",
      "USD",
      "",
      "",
      "",
      "",
      "100.00",
    ]);
    expect(totalOf(november, "opening balance")).toBe("127.50");
    expect(totalOf(november, "payouts")).toBe("100.00");
    expect(totalOf(november, "closing balance")).toBe("27.50");

    // An admin downloads the same statement for the expert.
    const byAdmin = await api.call("GET", `/api/v1/admin/payout-accounts/${expertId}/statements/2026-11.csv`, { user: admin });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.body).toBe((await api.call("GET", "/api/v1/experts/me/statements/2026-11.csv", { user: b.expert })).body);
  });

  it("lists every month from the first money on the expert's payouts stream to this one, quiet months included", async () => {
    const b = await paidBooking(api, 15_000);
    const months = async () => {
      const r = await api.call("GET", "/api/v1/experts/me/statements", { user: b.expert });
      expect(r.statusCode, r.body).toBe(200);
      return r.json<{ months: string[] }>().months;
    };
    // Paid, not yet released: the money is the platform's, the expert has no statement yet.
    expect(await months()).toEqual([]);
    await earnedAndPaidOut(b);
    const listed = await months();
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect(listed[0]).toBe(thisMonth);
    expect(listed.slice(-2)).toEqual(["2026-11", "2026-10"]);
    // Newest first, one a month, none missing.
    const expected: string[] = [];
    for (let d = new Date(`${thisMonth}-01T00:00:00.000Z`); d.toISOString().slice(0, 7) >= "2026-10"; d.setUTCMonth(d.getUTCMonth() - 1))
      expected.push(d.toISOString().slice(0, 7));
    expect(listed).toEqual(expected);
  });

  it("as PDF: the month, the expert, each earning and the totals per currency", async () => {
    const b = await paidBooking(api, 15_000);
    await earnedAndPaidOut(b);
    const r = await api.call("GET", "/api/v1/experts/me/statements/2026-10.pdf", { user: b.expert });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe("application/pdf");
    expect(r.headers["content-disposition"]).toBe('attachment; filename="statement-2026-10.pdf"');
    const text = pdfText(r.rawPayload);
    expect(text).toContain("Expert Sessions");
    expect(text).toContain("Statement for October 2026");
    expect(text).toContain("expert Test");
    expect(text).toContain("Growth strategy");
    expect(text).toContain("$127.50 USD");
    expect(text).toContain("Totals in USD");
    expect(text).toContain("$22.50 USD");
  });

  it("a session title that starts like a formula opens in a spreadsheet as text", async () => {
    const b = await paidBooking(api, 15_000);
    // Another booking of the same expert, its session named like a formula (the bookings read model has its title).
    const calendarId = `ex-${randomUUID()}`;
    const formulaBooking = `bk-${randomUUID()}`;
    const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    await run(api, calendarId, {
      type: "SetSchedule",
      expertId: calendarId,
      actor: { userId: b.expert.id, role: "expert" },
      schedule: {
        timezone: "UTC",
        slots: (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
          weekday,
          start_local: "09:00",
          end_local: "17:00",
        })),
      },
    });
    await run(api, calendarId, {
      type: "RequestBooking",
      expertId: calendarId,
      bookingId: formulaBooking,
      actor: { userId: b.creator.id, role: "creator" },
      scheduledTime: `${day}T10:00:00.000Z`,
      session: {
        sessionId: `s-${randomUUID()}`,
        expertId: calendarId,
        title: '=HYPERLINK("http://evil")',
        lengthMinutes: 60,
        priceCents: 15_000,
        published: true,
        prepQuestions: ["Goal?", "Now?", "Blocker?"],
      },
      expertUserId: b.expert.id,
      expertVetting: "approved",
      creatorAcceptedTerms: true,
      creatorBookings: [],
      holdMinutes: 15,
    });
    await earnedAndPaidOut(b, [b.bookingId, formulaBooking]);
    const r = await api.call("GET", "/api/v1/experts/me/statements/2026-10.csv", { user: b.expert });
    expect(r.body).toContain(`,"'=HYPERLINK(""http://evil"")",`);
    expect(r.body).not.toMatch(/,=HYPERLINK/);
  });

  it("only the expert (their own) and an admin get one; a month that is not one is refused", async () => {
    const b = await paidBooking(api);
    expect((await api.call("GET", "/api/v1/experts/me/statements/2026-10.csv", { user: b.creator })).statusCode).toBe(403);
    expect(
      (await api.call("GET", `/api/v1/admin/payout-accounts/${b.expert.id}/statements/2026-10.csv`, { user: b.expert })).statusCode,
    ).toBe(403);
    expect((await api.call("GET", "/api/v1/experts/me/statements/2026-10.csv")).statusCode).toBe(401);
    for (const file of ["2026-13.csv", "2026-10.xls", "october.pdf"])
      expect((await api.call("GET", `/api/v1/experts/me/statements/${file}`, { user: b.expert })).statusCode, file).toBe(400);
    // A month without money: headers and nothing else, not an error.
    const empty = await csvOf(b.expert, "/api/v1/experts/me/statements/2020-01.csv");
    expect(empty).toHaveLength(1);
  });
});
