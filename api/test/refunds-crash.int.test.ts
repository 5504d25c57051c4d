import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogPosition } from "@booking/contracts";
import { testDatabases } from "@booking/testkit";
import { allProjections, migrateReadModels, readModelDigest, rebuildProjections } from "@booking/projections";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { expertCancels, paidBooking, type PaidBooking } from "./paid-booking.ts";
import { projectorCaughtUp, sleep, startProcess, waitFor, type Running } from "./processes.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Crash safety of refunds: the refunds process killed with SIGKILL at random points (ten times)
// while paid bookings are cancelled pays each owed refund exactly once, records it once, and the
// read models equal a clean replay of the log.

const BOOKINGS = 30;
const KILLS = 10;
const READY = "refunds: running";

const databases = testDatabases(testPostgresUrl(), { poolSize: 4 });
let api: TestApi;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };

beforeAll(async () => {
  api = await startTestApi({ payments: new TestPaymentProvider(lazyDb) });
});
afterAll(async () => {
  await api.close();
  await databases.dropAll();
});

describe("the refunds process killed with SIGKILL while refunds are owed", () => {
  it(`${KILLS} kills at random points: one refund per owed refund, one RefundIssued each, read models equal a clean replay`, async () => {
    const bookings: PaidBooking[] = [];
    for (let n = 0; n < BOOKINGS; n++) bookings.push(await paidBooking(api));
    // A short lease: a refund taken by a killed process is due again soon, as after a real crash.
    const env = { DATABASE_URL: api.databaseUrl, REFUNDS_LEASE_MS: "300", REFUNDS_IDLE_MS: "50", REFUNDS_FIRST_RETRY_MS: "50" };
    const start = () => startProcess("refunds", env);

    // Cancellations arrive between kills, so each kill finds refunds owed, being paid, or just recorded.
    const perKill = BOOKINGS / KILLS;
    let running: Running = start();
    let killed = 0;
    let killedWhileOwed = 0;
    while (killed < KILLS) {
      // Owed while the process starts: it pays them as soon as it runs, which is when the kill comes.
      for (const b of bookings.slice(killed * perKill, (killed + 1) * perKill)) await expertCancels(api, b);
      await waitFor("the refunds process to start", async () => running.output().includes(READY), 60_000);
      // Within a few tens of ms the reactor is mid-way through them: the kill lands before, during or after a refund.
      await sleep(Math.random() * 60);
      const owed = Number((await api.ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM refunds WHERE status <> 'issued'")).rows[0]!.n);
      running.child.kill("SIGKILL");
      await running.exited;
      if (owed > 0) killedWhileOwed++;
      killed++;
      running = start();
    }

    const issuedCount = async () =>
      Number((await api.ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM refunds WHERE status = 'issued'")).rows[0]!.n);
    await waitFor("every owed refund to be issued", async () => (await issuedCount()) === BOOKINGS, 120_000);
    await waitFor("the read models to catch up", () => projectorCaughtUp(api.ctx.db, api.ctx.store), 60_000);
    await waitFor("the refunds process to be up", async () => running.output().includes(READY), 60_000);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
    console.log(`[refunds crash] ${killed} kills, ${killedWhileOwed} with refunds still owed`);

    // The money: exactly one refund of the full price per cancelled booking, nothing else.
    const { rows: paidBack } = await api.ctx.db.query<{ booking_id: string; n: string; cents: string }>(
      "SELECT booking_id, count(*) AS n, sum(amount_cents) AS cents FROM test_refunds GROUP BY booking_id",
    );
    expect(paidBack).toHaveLength(BOOKINGS);
    expect(paidBack.every((r) => r.n === "1" && Number(r.cents) === 15_000)).toBe(true);
    // The record: one RefundIssued per owed refund.
    const issued = new Map<string, number>();
    for (let after: LogPosition | null = null; ;) {
      const batch = await api.ctx.store.readAll(after, 1000);
      if (batch.length === 0) break;
      for (const e of batch) {
        if (e.type !== "RefundIssued") continue;
        const key = (e.data as { refundKey: string }).refundKey;
        issued.set(key, (issued.get(key) ?? 0) + 1);
      }
      after = batch.at(-1)!.position;
    }
    expect(issued.size).toBe(BOOKINGS);
    expect([...issued.values()].every((n) => n === 1)).toBe(true);

    const { pool: clean } = await databases.open("refclean");
    await migrateReadModels(clean);
    await rebuildProjections(api.ctx.store, clean, allProjections);
    expect(await readModelDigest(api.ctx.db)).toEqual(await readModelDigest(clean));
  }, 300_000);
});
