import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { PostgresEventStore } from "@booking/event-store";
import {
  bookEntries,
  InProcessProjector,
  bookingMoneyTrail,
  expertStatement,
  ledgerEntries,
  ledgerProjection,
  ledgerTrialBalance,
  migrateReadModels,
  rebuildProjection,
  type LedgerBookRow,
} from "../src/index.ts";
import { foldRows, givenAt } from "./read-model-spec.ts";
import { B1_GIVEN_BACK, X1, moneyStory } from "./ledger-events.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// The ledger on Postgres: the money events appended to a real log, projected by the live runner,
// then rebuilt from the log twice: the same books each time, and the same as the rule folds them
// in memory. A booking's money trail in the log's order, the trial balance zero per currency.

let storeDb: TestDatabase;
let readDb: TestDatabase;
let store: PostgresEventStore;
let pool: pg.Pool;

const books = async () => (await pool.query("SELECT to_jsonb(t) AS row FROM ledger_books t ORDER BY book_id")).rows.map((r) => r.row);

beforeAll(async () => {
  storeDb = await createTestDatabase(testPostgresUrl(), "store");
  store = await PostgresEventStore.connect(storeDb.url);
  // Each event appended on its own, at the time the spec gives it, so the log's order is the story's.
  const versions = new Map<string, number>();
  for (const [i, { stream, event }] of moneyStory.entries()) {
    const version = versions.get(stream);
    await store.append(stream, [{ type: event.type, data: event.data, metadata: { at: givenAt(i) } }], version ?? "no_stream");
    versions.set(stream, (version ?? 0) + 1);
  }
  readDb = await createTestDatabase(testPostgresUrl(), "rm");
  pool = new pg.Pool({ connectionString: readDb.url, max: 4 });
  pool.on("error", () => undefined);
  await migrateReadModels(pool);
  const projector = new InProcessProjector(store, pool, [ledgerProjection]);
  while ((await projector.runOnce()) > 0);
});

afterAll(async () => {
  await pool?.end();
  await store?.close();
  for (const db of [readDb, storeDb]) await db?.drop();
});

describe("the ledger read model on Postgres", () => {
  it("replayed from the log twice, the books are identical each time and to the live runner's", async () => {
    const live = await books();
    expect(live.length).toBe(6);
    await rebuildProjection(store, pool, ledgerProjection);
    const first = await books();
    await rebuildProjection(store, pool, ledgerProjection);
    expect(first).toEqual(live);
    expect(await books()).toEqual(live);
  });

  it("a rebuilt generation has the planner's statistics of the column its queries filter on, not of the long ids", async () => {
    await rebuildProjection(store, pool, ledgerProjection);
    // The switch renames the filled generation to the live table's name.
    const { rows } = await pool.query<{ attname: string }>(
      "SELECT attname FROM pg_stats WHERE tablename = 'ledger_books' ORDER BY attname",
    );
    expect(rows.map((r) => r.attname)).toEqual(["expert_id"]);
  });

  it("the books are the rule's, folded in memory", async () => {
    // The log gives its own event ids and positions; the rest of each book is the rule's.
    const shape = (b: LedgerBookRow) => [
      b.book_id,
      b.expert_id,
      b.booking_id,
      b.currency,
      b.requested_cents,
      bookEntries(b).map((e) => e.account),
    ];
    const folded = (foldRows(ledgerProjection, moneyStory) as LedgerBookRow[]).map(shape);
    expect(((await books()) as LedgerBookRow[]).map(shape)).toEqual(folded);
  });

  it("a booking's money trail: payment, release, transfer, the refund after it (adjusted, reversed) and its issue, in the log's order", async () => {
    const trail = await bookingMoneyTrail(pool, "b1");
    expect(trail.map((e) => [e.event_type, e.account, e.currency, e.debit_cents, e.credit_cents])).toEqual([
      ["PaymentSucceeded", "platform_cash", "EUR", 15_000, 0],
      ["PaymentSucceeded", "bookings_held", "EUR", 0, 15_000],
      ["EarningReleased", "bookings_held", "EUR", 15_000, 0],
      ["EarningReleased", "platform_fee_revenue", "EUR", 0, 2_250],
      ["EarningReleased", `expert_payable:${X1}`, "EUR", 0, 12_750],
      ["TransferSent", `expert_connected:${X1}`, "EUR", 12_750, 0],
      ["TransferSent", "platform_cash", "EUR", 0, 12_750],
      ["RefundDue", "bookings_held", "EUR", 5_000, 0],
      ["RefundDue", "refunds_payable", "EUR", 0, 5_000],
      ["EarningAdjusted", "platform_fee_revenue", "EUR", B1_GIVEN_BACK.feeCents, 0],
      ["EarningAdjusted", `expert_payable:${X1}`, "EUR", B1_GIVEN_BACK.shareCents, 0],
      ["EarningAdjusted", "bookings_held", "EUR", 0, 5_000],
      ["TransferReversed", "platform_cash", "EUR", B1_GIVEN_BACK.shareCents, 0],
      ["TransferReversed", `expert_connected:${X1}`, "EUR", 0, B1_GIVEN_BACK.shareCents],
      ["RefundIssued", "refunds_payable", "EUR", 5_000, 0],
      ["RefundIssued", "platform_cash", "EUR", 0, 5_000],
    ]);
    expect(new Set(trail.map((e) => e.id)).size).toBe(trail.length);
  });

  it("the trial balance is zero in every currency, each account's sums kept in its own currency", async () => {
    const balance = await ledgerTrialBalance(pool);
    const totals = balance.filter((l) => l.kind === "total");
    expect(totals.map((t) => [t.currency, t.balance_cents])).toEqual([
      ["EUR", 0],
      ["GBP", 0],
      ["USD", 0],
    ]);
    expect(balance.find((l) => l.id === "platform_cash/EUR")).toMatchObject({
      balance_cents: 15_000 - 12_750 + B1_GIVEN_BACK.shareCents - 5_000,
    });
    expect(balance.find((l) => l.id === "refunds_payable/USD")).toMatchObject({
      debit_cents: 9_900,
      credit_cents: 9_900,
      balance_cents: 0,
    });
    const entries = await ledgerEntries(pool);
    expect(totals.reduce((n, t) => n + t.debit_cents, 0)).toBe(entries.reduce((n, e) => n + e.debit_cents, 0));
  });

  it("an expert's statement of the month", async () => {
    const statement = await expertStatement(pool, X1, "2030-01");
    expect(statement.currencies).toEqual([
      expect.objectContaining({ currency: "EUR", opening_cents: 0, earnings_cents: 15_000, payouts_cents: 8_500, closing_cents: 0 }),
    ]);
    expect((await expertStatement(pool, X1, "2030-02")).currencies[0]).toMatchObject({ opening_cents: 0, earnings_cents: 0 });
  });
});
