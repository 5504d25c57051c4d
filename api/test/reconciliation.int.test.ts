import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerEntries } from "@booking/projections";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { reconcile, runReconciliation, type Movement } from "../src/reconciliation/index.ts";
import { RefundReactor } from "../src/refunds/reactor.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { expertCancels, paidBooking, type PaidBooking } from "./paid-booking.ts";
import { waitFor } from "./processes.ts";

// Reconciliation (issue 29.6): the ledger's provider-facing movements against the test provider's
// own tables. A clean run finds no difference; a provider row corrupted on purpose shows up as
// exactly one; the console lists the latest run's differences (react-admin) and runs one on demand.

let api: TestApi;
let admin: TestUser;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
const provider = new TestPaymentProvider(lazyDb);

beforeAll(async () => {
  api = await startTestApi({ payments: provider });
  admin = await api.user("admin");
});
afterAll(async () => api.close());

/** Wait until the ledger read model holds an event of this type for the booking. */
async function inLedger(b: PaidBooking, eventType: string): Promise<void> {
  await waitFor(
    `${eventType} in the ledger`,
    async () => (await ledgerEntries(api.ctx.db)).some((e) => e.booking_id === b.bookingId && e.event_type === eventType),
    10_000,
  );
}

async function refunded(b: PaidBooking): Promise<void> {
  await expertCancels(api, b);
  await new RefundReactor({ log: api.ctx.store, db: api.ctx.db, calendar: api.ctx.calendar, provider, clock: api.ctx.clock }, {}).runOnce();
  await inLedger(b, "RefundIssued");
}

async function runNow() {
  const r = await api.call("POST", "/api/v1/admin/reconciliation/run", { user: admin });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
}

describe("reconciliation against the test provider", () => {
  let kept: PaidBooking;
  let refund: PaidBooking;

  beforeAll(async () => {
    kept = await paidBooking(api, 12_000);
    refund = await paidBooking(api, 15_000);
    await refunded(refund);
    await inLedger(kept, "PaymentSucceeded");
  });

  it("a clean run finds no difference, and the console's list of the latest run is empty", async () => {
    const run = await runNow();
    expect(run).toMatchObject({ provider: "test", by: "admin", complete: true, note: null, difference_count: 0, differences: [] });
    // Two payments and a refund compared, at least (the file's other bookings may add more).
    expect(run.ledger_count).toBeGreaterThanOrEqual(3);
    expect(run.provider_count).toBe(run.ledger_count);

    const list = await api.call("GET", "/api/v1/admin/reconciliation", { user: admin });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual([]);
    expect(list.headers["content-range"]).toBe("reconciliation */0");
    expect(list.headers["x-reconciliation-run"]).toBe(run.run_id);
    expect(list.headers["x-reconciliation-differences"]).toBe("0");
  });

  it("a refund the provider reports a cent higher than the ledger shows up as exactly one difference", async () => {
    await api.ctx.db.query("UPDATE test_refunds SET amount_cents = amount_cents + 1 WHERE booking_id = $1", [refund.bookingId]);
    try {
      const run = await runNow();
      expect(run.difference_count).toBe(1);
      expect(run.differences).toEqual([
        expect.objectContaining({
          kind: "amount",
          movement: "refund",
          ref: refund.bookingId,
          currency: "USD",
          ledger_cents: 15_000,
          provider_cents: 15_001,
        }),
      ]);
      expect(run.differences[0].what).toContain("150.00 USD in the ledger, 150.01 USD at the provider");

      const list = await api.call("GET", "/api/v1/admin/reconciliation", { user: admin });
      expect(list.headers["content-range"]).toBe("reconciliation 0-0/1");
      expect(list.json()).toEqual([{ ...run.differences[0], id: `${run.run_id}/1` }]);
    } finally {
      await api.ctx.db.query("UPDATE test_refunds SET amount_cents = amount_cents - 1 WHERE booking_id = $1", [refund.bookingId]);
    }
    expect((await runNow()).difference_count).toBe(0);
  });

  it("a payment the provider does not have is extra in the ledger; a refund only the provider has is missing from it", async () => {
    await api.ctx.db.query("UPDATE payments SET status = 'failed' WHERE booking_id = $1", [kept.bookingId]);
    await api.ctx.db.query(
      "INSERT INTO test_refunds (idempotency_key, refund_id, payment_id, booking_id, amount_cents) VALUES ('stray', 're_stray', $1, $2, 500)",
      [kept.paymentId, kept.bookingId],
    );
    try {
      const run = await runNow();
      expect(run.differences.map((d: { kind: string; movement: string; ref: string }) => [d.kind, d.movement, d.ref])).toEqual([
        ["extra", "payment", kept.bookingId],
        ["missing", "refund", kept.bookingId],
      ]);
      // An earlier run is still there to look at.
      const filtered = await api.call(
        "GET",
        `/api/v1/admin/reconciliation?filter=${encodeURIComponent(JSON.stringify({ kind: "missing" }))}`,
        {
          user: admin,
        },
      );
      expect(filtered.json().map((d: { kind: string }) => d.kind)).toEqual(["missing"]);
    } finally {
      await api.ctx.db.query("UPDATE payments SET status = 'succeeded' WHERE booking_id = $1", [kept.bookingId]);
      await api.ctx.db.query("DELETE FROM test_refunds WHERE idempotency_key = 'stray'");
    }
  });

  it("only an admin lists or runs it", async () => {
    for (const user of [kept.creator, kept.expert]) {
      expect((await api.call("GET", "/api/v1/admin/reconciliation", { user })).statusCode).toBe(403);
      expect((await api.call("POST", "/api/v1/admin/reconciliation/run", { user })).statusCode).toBe(403);
    }
    expect((await api.call("GET", "/api/v1/admin/reconciliation")).statusCode).toBe(401);
  });

  it("Stripe named without its API (no client to list its balance transactions) compares nothing and says so, rather than report a clean run", async () => {
    const run = await runReconciliation({ db: api.ctx.db, provider: "stripe", stripe: null, clock: api.ctx.clock }, "schedule");
    expect(run).toMatchObject({ provider: "stripe", complete: false, differences: [] });
    expect(run.note).toContain("cannot be listed");
  });
});

describe("the compare (reconcile)", () => {
  const m = (kind: Movement["kind"], ref: string, amountCents: number, currency: string | null = "USD"): Movement => ({
    kind,
    ref,
    currency,
    amountCents,
  });

  it("matches movements of one key added up on either side, whatever the provider leaves the currency unsaid", () => {
    expect(reconcile([m("refund", "b1", 500), m("refund", "b1", 700)], [m("refund", "b1", 1200, null)])).toEqual([]);
  });

  it("names each difference: missing, extra, amount, and a currency that differs", () => {
    const ledger = [m("payment", "b1", 1000), m("payment", "b2", 2000), m("transfer", "b1", 850, "EUR")];
    const provider = [m("payment", "b1", 1000), m("payout", "x1", 300), m("transfer", "b1", 850, "GBP")];
    expect(reconcile(ledger, provider).map((d) => [d.kind, d.movement, d.ref, d.ledgerCents, d.providerCents])).toEqual([
      ["extra", "payment", "b2", 2000, null],
      ["amount", "transfer", "b1", 850, 850],
      ["missing", "payout", "x1", null, 300],
    ]);
  });
});
