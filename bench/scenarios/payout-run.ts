import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import pg from "pg";
import { CLEARING_PERIOD_DAYS, PLATFORM_FEE_BASIS_POINTS, payoutStream } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { PostgresEventStore, migrate, type NewEvent } from "@booking/event-store";
import { createTestDatabase, watchStatements } from "@booking/testkit";
import { commandHandlers } from "../../api/src/main/commands.ts";
import { PayoutReactor, TestPayoutProvider, payoutsMigrations, releaseEarnings } from "../../api/src/payouts/index.ts";
import { inParallel } from "../lib/seed.ts";
import { now, round, say } from "../lib/stats.ts";

// A payout run (issue 29): `bookings` completed, paid bookings whose clearing period is over, on
// experts with a test payout account connected and enabled, then one pass of the payouts area as
// the refunds process runs it (api/src/payouts): the release sweep (ReleaseEarning per booking,
// until none is left), the PayoutReactor's passes until nothing is due (a transfer per booking
// through the test payouts provider), the weekly payout request, and the passes that pay them.
// Seeded straight into the event store (what the commands would have written: BookingRequested,
// PaymentSucceeded, Confirmed, Completed on each expert's calendar; PayoutAccountConnected and
// PayoutAccountUpdated on their payouts stream), and read into the payouts tables by the reactor
// before the clock starts (it follows the log as bookings happen). Every SQL statement any pg
// client sends meanwhile is counted (testkit's watchStatements), one round trip each.

const DAY = 86_400_000;
const NOW = "2030-03-18T12:00:00.000Z";
const PRICE = 15_000;

export type PayoutPhase = { seconds: number; statements: number; done: number };
export type PayoutRunFigure = {
  bookings: number;
  experts: number;
  /** Reading the seeded log into the payouts tables (before the run, not in it). */
  follow: PayoutPhase;
  release: PayoutPhase;
  transfers: PayoutPhase;
  payouts: PayoutPhase;
  total: { seconds: number; statements: number; msPerBooking: number; statementsPerBooking: number };
  /** The provider's own tables after the run: one transfer per booking, one payout per expert, each expert's share paid. */
  check: { transfers: number; payouts: number; paidCents: number; expectedCents: number; ok: boolean };
  loadAverage: number[];
};

export async function benchPayoutRun(serverUrl: string, options: { bookings: number; perExpert: number }): Promise<PayoutRunFigure> {
  const db = await createTestDatabase(serverUrl, "bench_payouts");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 8 });
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on("error", () => undefined);
  const clock = () => NOW;
  try {
    await migrate(pool, "payouts_migrations", payoutsMigrations);
    const provider = new TestPayoutProvider(pool);
    const experts = Array.from({ length: Math.ceil(options.bookings / options.perExpert) }, (_, i) => `po${i}-${randomUUID().slice(0, 8)}`);
    const completedAt = Date.parse(NOW) - (CLEARING_PERIOD_DAYS + 3) * DAY;
    const iso = (ms: number) => new Date(ms).toISOString();
    say(`  seeding ${options.bookings.toLocaleString("en-US")} completed bookings on ${experts.length.toLocaleString("en-US")} experts`);
    let seeded = 0;
    await inParallel(experts, 8, async (expertId, i) => {
      const account = await provider.createAccount({ expertId, email: `payee${i}@bench.example` });
      await provider.finishOnboarding(account.accountId, true);
      await store.append(
        payoutStream(expertId),
        [
          {
            type: "PayoutAccountConnected",
            data: { expertId, accountId: account.accountId, provider: "test" },
            metadata: { at: iso(completedAt - 20 * DAY) },
          },
          {
            type: "PayoutAccountUpdated",
            data: { expertId, accountId: account.accountId, payoutsEnabled: true, detailsSubmitted: true },
            metadata: { at: iso(completedAt - 20 * DAY) },
          },
        ],
        "no_stream",
      );
      const events: NewEvent[] = [];
      const count = Math.min(options.perExpert, options.bookings - seeded);
      seeded += count;
      for (let k = 0; k < count; k++) {
        const bookingId = `pb-${expertId}-${k}`;
        const end = completedAt + k * 60 * 60_000;
        const requested = { at: iso(end - 8 * DAY) };
        events.push(
          {
            type: "BookingRequested",
            data: {
              bookingId,
              expertId,
              expertUserId: expertId,
              creatorId: `pc-${i}`,
              sessionId: `ps-${expertId}`,
              sessionTitle: "Payout bench",
              lengthMinutes: 60,
              priceCents: PRICE,
              prepQuestions: ["Why?"],
              scheduledTime: iso(end - 60 * 60_000),
              heldUntil: iso(end - 8 * DAY + 15 * 60_000),
              currency: "USD",
            },
            metadata: requested,
          },
          {
            type: "PaymentSucceeded",
            data: {
              bookingId,
              paymentId: `pi-${bookingId}`,
              amountCents: PRICE,
              provider: "test",
              currency: "USD",
              feeBasisPoints: PLATFORM_FEE_BASIS_POINTS,
            },
            metadata: requested,
          },
          { type: "Confirmed", data: { bookingId, by: "expert" }, metadata: requested },
          { type: "Completed", data: { bookingId }, metadata: { at: iso(end) } },
        );
      }
      await store.append(calendarStream(expertId), events, "no_stream");
    });

    const payouts = commandHandlers(store, clock).payouts;
    const reactor = new PayoutReactor({ log: store, db: pool, payouts, provider, clock }, { warn: (l) => say(`  ${l}`) });
    const phase = async (work: () => Promise<number>): Promise<PayoutPhase> => {
      let statements = 0;
      const t0 = now();
      const done = await watchStatements(
        () => statements++,
        () => work(),
      );
      return { seconds: round((now() - t0) / 1000), statements, done };
    };
    /** The reactor's passes (follow the log, move what is due) until a pass moves nothing. */
    const passes = async () => {
      let moved = 0;
      for (let r = await reactor.runOnce(); r.moved > 0; r = await reactor.runOnce()) moved += r.moved;
      return moved;
    };
    const follow = await phase(async () => (await reactor.runOnce()).read);
    say(`  the reactor read ${follow.done.toLocaleString("en-US")} events into the payouts tables in ${follow.seconds} s`);
    const release = await phase(async () => {
      let released = 0;
      for (let n = await releaseEarnings({ db: pool, payouts, clock }); n > 0; n = await releaseEarnings({ db: pool, payouts, clock }))
        released += n;
      return released;
    });
    const transfers = await phase(passes);
    const paid = await phase(async () => {
      await reactor.requestWeeklyPayouts();
      return passes();
    });
    const seconds = release.seconds + transfers.seconds + paid.seconds;
    const statements = release.statements + transfers.statements + paid.statements;

    const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);
    const share = PRICE - Math.round((PRICE * PLATFORM_FEE_BASIS_POINTS) / 10_000);
    const check = {
      transfers: await count("SELECT count(*) AS n FROM test_transfers"),
      payouts: await count("SELECT count(*) AS n FROM test_payouts"),
      paidCents: await count("SELECT COALESCE(sum(amount_cents), 0) AS n FROM test_payouts"),
      expectedCents: options.bookings * share,
      ok: false,
    };
    check.ok = check.transfers === options.bookings && check.payouts === experts.length && check.paidCents === check.expectedCents;
    const figure: PayoutRunFigure = {
      bookings: options.bookings,
      experts: experts.length,
      follow,
      release,
      transfers,
      payouts: paid,
      total: {
        seconds: round(seconds),
        statements,
        msPerBooking: round((seconds * 1000) / options.bookings),
        statementsPerBooking: round(statements / options.bookings),
      },
      check,
      loadAverage: loadavg().map((l) => round(l)),
    };
    for (const line of payoutRunLines(figure)) say(`  ${line}`);
    return figure;
  } finally {
    await pool.end();
    await store.close();
    await db.drop();
  }
}

export function payoutRunLines(f: PayoutRunFigure): string[] {
  const per = (p: PayoutPhase, n: number) =>
    `${p.seconds} s, ${p.statements.toLocaleString("en-US")} statements (${round(p.statements / Math.max(n, 1))} each`;
  return [
    `payout run, ${f.bookings.toLocaleString("en-US")} released bookings on ${f.experts.toLocaleString("en-US")} experts: ${f.total.seconds} s, ${f.total.statements.toLocaleString("en-US")} statements; per booking ${f.total.msPerBooking} ms, ${f.total.statementsPerBooking} statements; load average ${f.loadAverage.join(" ")}`,
    `  release ${f.release.done}: ${per(f.release, f.release.done)}); transfers ${f.transfers.done}: ${per(f.transfers, f.transfers.done)}); payouts ${f.payouts.done}: ${per(f.payouts, f.payouts.done)})`,
    `  before the run, the reactor read the seeded log into its tables: ${f.follow.done.toLocaleString("en-US")} events, ${per(f.follow, f.bookings)} per booking); provider's tables: ${f.check.transfers} transfers, ${f.check.payouts} payouts, ${f.check.paidCents} of ${f.check.expectedCents} cents paid ${f.check.ok ? "ok" : "MISMATCH"}`,
  ];
}
