import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { runReconciliation } from "../src/reconciliation/index.ts";
import { heldSession, mustCall, requestedSession, walkMoneyPath } from "./money-path.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Reconciliation (issue 29.6) over the whole money path with the test providers: a booking paid
// through the payment routes, completed, released after the clearing period, transferred, refunded
// in part (the transfer's share reversed) and paid out. Every provider-facing movement of the ledger
// matches the test providers' tables; a corrupted reversal or payout row is exactly one difference.
// The expert's statement of the month shows the same movements.

let now = Date.parse("2030-03-04T08:00:00.000Z");
const clock = () => new Date(now).toISOString();
let api: TestApi;
let expert: TestUser;
let bookingId: string;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
const payments = new TestPaymentProvider(lazyDb);

const must = (user: TestUser, method: "GET" | "POST", url: string, body?: unknown) => mustCall(api, user, method, url, body);
const reconciled = () => runReconciliation({ db: api.ctx.db, provider: "test", clock }, "admin");

beforeAll(async () => {
  api = await startTestApi({ clock, payments });
  const session = await requestedSession(api, now);
  ({ expert, bookingId } = session);
  // Paid through the payment routes, so the test provider's payments table has it.
  const intent = (await must(session.creator, "POST", "/api/v1/stripe/test-intent", { bookingId })).json() as { clientSecret: string };
  const card = { client_secret: intent.clientSecret, card_number: "4242 4242 4242 4242" };
  await must(session.creator, "POST", "/api/v1/payments/test/confirm", card);
  await heldSession(session, (at) => (now = at));
  await must(expert, "POST", "/api/v1/experts/me/payout-account");
  await must(expert, "POST", "/api/v1/experts/me/payout-account/test-onboarding", { complete: true });
  await walkMoneyPath({ api, session, payments, payoutProvider: api.ctx.payoutProvider, clock, advance: (ms) => (now += ms) });
});
afterAll(async () => api.close());

describe("reconciliation over payments, refunds, transfers, reversals and payouts", () => {
  it("a clean run matches each of the five movements", async () => {
    const providerRows = await api.ctx.db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM test_transfers) + (SELECT count(*) FROM test_transfer_reversals) + (SELECT count(*) FROM test_payouts) AS n`,
    );
    expect(Number(providerRows.rows[0]!.n)).toBe(3);
    const run = await reconciled();
    expect(run.differences).toEqual([]);
    expect(run.ledgerCount).toBe(5);
    expect(run.providerCount).toBe(5);
  });

  for (const [table, movement, ledgerCents] of [
    ["test_transfers", "transfer", 12_750],
    ["test_transfer_reversals", "reversal", 4_250],
    ["test_payouts", "payout", 8_500],
    ["payments", "payment", 15_000],
  ] as const)
    it(`a ${movement} row the provider reports a cent higher is exactly one difference`, async () => {
      await api.ctx.db.query(`UPDATE ${table} SET amount_cents = amount_cents + 1`);
      try {
        const run = await reconciled();
        expect(run.differences).toEqual([
          expect.objectContaining({ kind: "amount", movement, ledgerCents, providerCents: ledgerCents + 1, currency: "USD" }),
        ]);
        expect(run.differences[0]!.ref).toBe(movement === "payout" ? expert.id : bookingId);
      } finally {
        await api.ctx.db.query(`UPDATE ${table} SET amount_cents = amount_cents - 1`);
      }
    });

  it("the expert's statement of the month shows the earning, the transfer, the reversal and the payout, and nothing owed at the end", async () => {
    const r = await api.call("GET", "/api/v1/experts/me/statements/2030-03.csv", { user: expert });
    expect(r.statusCode, r.body).toBe(200);
    const rows = r.body
      .trimEnd()
      .split("\r\n")
      .map((l) => l.split(","));
    const amount = (section: string) => rows.filter((x) => x[0] === section).map((x) => x[10]);
    expect(rows.filter((x) => x[0]!.startsWith("earning")).map((x) => [x[0], x[6], x[7], x[8], x[9]])).toEqual([
      ["earning", "150.00", "50.00", "22.50", "127.50"],
      ["earning adjusted", "150.00", "50.00", "-7.50", "-42.50"],
    ]);
    expect(amount("transfer")).toEqual(["127.50"]);
    expect(amount("reversal")).toEqual(["42.50"]);
    expect(amount("payout")).toEqual(["85.00"]);
    expect(amount("total share")).toEqual(["85.00"]);
    expect(amount("total closing balance")).toEqual(["0.00"]);
  });
});
