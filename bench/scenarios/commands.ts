import { calendarDecider, calendarStream } from "@booking/engine";
import { CommandHandler, PostgresEventStore } from "@booking/event-store";
import { createTestDatabase, watchStatements } from "@booking/testkit";
import { profiled } from "../lib/cpuprofile.ts";
import { bookingRequested, insertContender } from "../lib/insert-baseline.ts";
import { interleave, type Contender } from "../lib/interleave.ts";
import { midnightUtc, requestBooking, seedExperts } from "../lib/seed.ts";
import { ratio, say, type LatencySummary } from "../lib/stats.ts";

// Booking commands per second through command handling on the Postgres store (1,000 experts,
// 4 concurrent clients of one command-handling process, as in the API), beside single-row INSERT
// transactions of the same event. Each contender has its own database; they run in interleaved
// one-second slices so that a change in machine load shifts them alike.

export type CommandsFigure = {
  experts: number;
  clients: number;
  seconds: number;
  commandsPerSecond: number;
  refused: number;
  latency: LatencySummary;
  /** Statements one command sends (one round trip each). */
  roundTripsPerCommand: number;
  baseline: { what: string; perSecond: number; latency: LatencySummary };
  ratio: number;
  bound: string;
  pass: boolean;
};

type Options = { experts: number; clients: number; rounds: number; sliceSeconds: number; warmupSeconds: number };

type Setup = { contender: Contender; roundTrips: () => Promise<number>; close: () => Promise<void> };

const at = (start: Date) => new Date(start.getTime() - 3_600_000).toISOString();

/** A database with 1,000 experts (schedules) and one handler; each op requests a distinct free hour. */
export async function commandContender(
  serverUrl: string,
  name: string,
  options: Options,
  open: (url: string) => Promise<PostgresEventStore>,
  patch?: () => () => void,
): Promise<Setup> {
  const db = await createTestDatabase(serverUrl, "bench_cmd");
  const store = await open(db.url);
  const start = midnightUtc(new Date(), 1);
  const experts = await seedExperts(store, options.experts, at(start), { profiles: false, sessions: false });
  const handler = new CommandHandler(store, calendarDecider, { clock: () => at(start) });
  let i = 0;
  const op = async () => {
    const n = i++;
    const expert = experts[n % experts.length]!;
    // Hour k of the booking window for this expert: never overlapping another request.
    const hour = Math.floor(n / experts.length);
    const r = await handler.handle(
      calendarStream(expert.expertId),
      requestBooking(expert, `c-${n % 500}`, new Date(start.getTime() + hour * 3_600_000).toISOString(), 60),
    );
    return r.ok;
  };
  let restore: (() => void) | null = null;
  return {
    contender: { name, op, enter: patch && (() => (restore = patch())), leave: () => restore?.() },
    roundTrips: () => countRoundTrips(async () => void (await op())),
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}

/** The INSERT baseline (bench/lib/insert-baseline.ts), with its statements per operation. */
async function insertSetup(serverUrl: string, clients: number): Promise<Setup> {
  const baseline = await insertContender(serverUrl, await bookingRequested(serverUrl), clients);
  return { ...baseline, roundTrips: () => countRoundTrips(async () => void (await baseline.contender.op(0))) };
}

export async function benchCommands(serverUrl: string, options: Options): Promise<CommandsFigure> {
  say(`  setting up: ${options.experts} experts per database`);
  const setups: Setup[] = [
    await insertSetup(serverUrl, options.clients),
    await commandContender(serverUrl, "current", options, (url) => PostgresEventStore.connect(url, { poolSize: 10 })),
  ];
  try {
    say(`  ${options.clients} clients, ${options.rounds} interleaved rounds of ${options.sliceSeconds} s per contender`);
    const results = await profiled("booking-commands", () =>
      interleave(
        setups.map((s) => s.contender),
        options,
      ),
    );
    const trips = new Map<string, number>();
    for (const s of setups) {
      s.contender.enter?.();
      try {
        trips.set(s.contender.name, await s.roundTrips());
      } finally {
        s.contender.leave?.();
      }
    }
    const base = results.INSERT!;
    const cur = results.current!;
    const r = ratio(cur.perSecond, base.perSecond);
    return {
      experts: options.experts,
      clients: options.clients,
      seconds: cur.seconds,
      commandsPerSecond: cur.perSecond,
      refused: cur.refused,
      latency: cur.latency,
      roundTripsPerCommand: trips.get("current")!,
      baseline: {
        what: "single-row INSERT (autocommit) of the same event (data and metadata) into a table like `events`, same clients",
        perSecond: base.perSecond,
        latency: base.latency,
      },
      ratio: r,
      bound: ">= 0.5 of the INSERT rate",
      pass: r >= 0.5,
    };
  } finally {
    for (const s of setups) await s.close();
  }
}

/** How many statements `work` sends to Postgres (each is one round trip), counted on pg.Client. */
async function countRoundTrips(work: () => Promise<void>): Promise<number> {
  let count = 0;
  await watchStatements(() => count++, work);
  return count;
}
