import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLATFORM_FEE_REVENUE, expertConnected, expertPayable, type LogPosition } from "@booking/contracts";
import { testDatabases } from "@booking/testkit";
import { allProjections, ledgerTrialBalance, migrateReadModels, readModelDigest, rebuildProjections } from "@booking/projections";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { projectorCaughtUp, sleep, startProcess, waitFor, type Running } from "./processes.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Crash safety of payouts: the process that pays experts (the refunds process, where the payout
// reactor runs) killed with SIGKILL at random points, ten times, while 30 sessions complete and
// clear: each booking's share is released once and transferred once, each expert is paid out
// exactly that share once (by the weekly payout), each movement is recorded once, and the read
// models equal a clean replay of the log.

const BOOKINGS = 30;
const KILLS = 10;
const PRICE = 15_000;
const SHARE = 12_750;
const READY = "payouts: running";
const DAY = 86_400_000;

const databases = testDatabases(testPostgresUrl(), { poolSize: 4 });
// The sessions were held twelve days ago (the test's clock), so the process, on the real clock, finds them cleared.
let now = Date.now() - 12 * DAY;
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ clock: () => new Date(now).toISOString() });
});
afterAll(async () => {
  await api.close();
  await databases.dropAll();
});

type Booked = { calendar: ExpertCalendar; expert: TestUser; bookingId: string };

async function countsBy(sql: string): Promise<Map<string, number[]>> {
  const { rows } = await api.ctx.db.query<{ k: string; cents: string }>(sql);
  const by = new Map<string, number[]>();
  for (const r of rows) by.set(r.k, [...(by.get(r.k) ?? []), Number(r.cents)]);
  return by;
}

async function eventsOfType(types: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let after: LogPosition | null = null; ;) {
    const batch = await api.ctx.store.readAll(after, 1000);
    if (batch.length === 0) break;
    for (const e of batch) {
      if (!types.includes(e.type)) continue;
      const d = e.data as { bookingId?: string; payoutKey?: string };
      const key = `${e.type}:${d.bookingId ?? d.payoutKey}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    after = batch.at(-1)!.position;
  }
  return counts;
}

describe("the payout reactor killed with SIGKILL while sessions complete and clear", () => {
  it(`${KILLS} kills at random points: one transfer per booking, each expert paid their share once, read models equal a clean replay`, async () => {
    const creator = await api.user("creator");
    const slot = new Date(now + DAY);
    slot.setUTCHours(10, 0, 0, 0);
    const booked: Booked[] = [];
    for (let n = 0; n < BOOKINGS; n++) {
      const expert = await api.user("expert");
      const connected = await api.call("POST", "/api/v1/experts/me/payout-account", { user: expert });
      expect(connected.statusCode, connected.body).toBe(201);
      const enabled = await api.call("POST", "/api/v1/experts/me/payout-account/test-onboarding", {
        user: expert,
        body: { complete: true },
      });
      expect(enabled.json().status).toBe("enabled");
      const calendar = await expertCalendar(api, expert);
      booked.push({ calendar, expert, bookingId: await calendar.confirmedBooking(creator, slot.toISOString(), PRICE) });
    }
    now = slot.getTime() + 61 * 60_000;

    // A short lease: a movement taken by a killed process is due again soon, as after a real crash.
    const env = {
      DATABASE_URL: api.databaseUrl,
      PAYOUTS_LEASE_MS: "300",
      PAYOUTS_IDLE_MS: "50",
      PAYOUTS_FIRST_RETRY_MS: "50",
      PAYOUTS_SWEEP_MS: "50",
      // The weekly payout whatever day the test runs (once per ISO week all the same).
      PAYOUTS_WEEKDAY: "0",
    };
    const start = () => startProcess("refunds", env);
    const perKill = BOOKINGS / KILLS;
    let running: Running = start();
    let killed = 0;
    let killedMidWay = 0;
    // At each kill: how many shares were released, transferred and paid out (the kill fell somewhere along that way).
    const stages: string[] = [];
    const stageOfMoney = async () => {
      const { rows } = await api.ctx.db.query<{ released: string; transferred: string; paid: string }>(
        `SELECT (SELECT count(*) FROM payout_bookings WHERE released_at IS NOT NULL) AS released,
                (SELECT count(*) FROM test_transfers) AS transferred, (SELECT count(*) FROM test_payouts) AS paid`,
      );
      return [Number(rows[0]!.released), Number(rows[0]!.transferred), Number(rows[0]!.paid)];
    };
    while (killed < KILLS) {
      // Sessions complete while the process starts: it releases, transfers and pays them as soon as it runs, which is when the kill comes.
      for (const b of booked.slice(killed * perKill, (killed + 1) * perKill)) {
        await b.calendar.run({
          type: "CompleteBooking",
          expertId: b.expert.id,
          bookingId: b.bookingId,
          actor: { userId: "sweeper", role: "system" },
        });
      }
      await waitFor("the payout reactor to start", async () => running.output().includes(READY), 180_000);
      // The kill lands just after a random step of this round began (a release, a transfer or a payout), whatever the machine's speed.
      const before = await stageOfMoney();
      const step = Math.floor(Math.random() * 3);
      await waitFor("a step of this round", async () => (await stageOfMoney())[step]! > before[step]!, 30_000).catch(() => undefined);
      await sleep(Math.random() * 40);
      running.child.kill("SIGKILL");
      await running.exited;
      const stage = await stageOfMoney();
      stages.push(stage.join("/"));
      if (stage[0]! > stage[1]! || stage[1]! > stage[2]! || stage[2]! < (killed + 1) * perKill) killedMidWay++;
      killed++;
      running = start();
    }

    const paidCount = async () => Number((await api.ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM test_payouts")).rows[0]!.n);
    const recordedPaid = async () =>
      Number((await api.ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM payout_payouts WHERE status = 'paid'")).rows[0]!.n);
    // Paid at the provider and recorded paid (a process killed in between leaves the record to the next one).
    await waitFor("every expert to be paid", async () => (await paidCount()) >= BOOKINGS && (await recordedPaid()) >= BOOKINGS, 300_000);
    await waitFor("the payout reactor to be up", async () => running.output().includes(READY), 180_000);
    // Whatever else it would still do (it should find nothing), given time to do it.
    await sleep(1000);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
    await waitFor("the read models to catch up", () => projectorCaughtUp(api.ctx.db, api.ctx.store), 60_000);
    console.log(
      `[payouts crash] ${killed} kills, ${killedMidWay} with money on its way (released/transferred/paid at each: ${stages.join(", ")})`,
    );

    // The money: one transfer of the share per booking, one payout of it per expert, nothing else.
    const transfers = await countsBy("SELECT booking_id AS k, amount_cents AS cents FROM test_transfers");
    expect(transfers.size).toBe(BOOKINGS);
    for (const b of booked) expect(transfers.get(b.bookingId)).toEqual([SHARE]);
    const payouts = await countsBy("SELECT expert_id AS k, amount_cents AS cents FROM test_payouts");
    expect(payouts.size).toBe(BOOKINGS);
    for (const b of booked) expect(payouts.get(b.expert.id)).toEqual([SHARE]);
    expect((await api.ctx.db.query("SELECT 1 FROM test_transfer_reversals")).rowCount).toBe(0);

    // The record: each release, transfer and payout once in the log.
    const events = await eventsOfType(["EarningReleased", "TransferSent", "PayoutRequested", "PayoutPaid"]);
    expect([...events.values()].every((n) => n === 1)).toBe(true);
    const of = (type: string) => [...events.keys()].filter((k) => k.startsWith(`${type}:`)).length;
    expect([of("EarningReleased"), of("TransferSent"), of("PayoutRequested"), of("PayoutPaid")]).toEqual([
      BOOKINGS,
      BOOKINGS,
      BOOKINGS,
      BOOKINGS,
    ]);
    for (const b of booked) {
      const balance = (await api.call("GET", "/api/v1/experts/me/balance", { user: b.expert })).json().balances;
      expect(balance).toEqual([
        { currency: "USD", pending_cents: 0, available_cents: 0, payable_cents: 0, in_transit_cents: 0, paid_out_cents: SHARE },
      ]);
    }

    // The ledger: balanced, the fees the platform's, nothing left owed to or held for any expert.
    const trial = await ledgerTrialBalance(api.ctx.db);
    expect(trial.filter((l) => l.kind === "total").map((l) => [l.currency, l.balance_cents])).toEqual([["USD", 0]]);
    const balance = (account: string) => trial.find((l) => l.kind === "account" && l.account === account)?.balance_cents ?? 0;
    expect(balance(PLATFORM_FEE_REVENUE)).toBe(-BOOKINGS * (PRICE - SHARE));
    for (const b of booked) expect([balance(expertPayable(b.expert.id)), balance(expertConnected(b.expert.id))]).toEqual([0, 0]);

    const { pool: clean } = await databases.open("payclean");
    await migrateReadModels(clean);
    await rebuildProjections(api.ctx.store, clean, allProjections);
    expect(await readModelDigest(api.ctx.db)).toEqual(await readModelDigest(clean));
  }, 1_200_000);
});
