import { randomUUID } from "node:crypto";
import pg from "pg";
import { currentSchemaVersion } from "@booking/contracts";
import { calendarDecider, calendarStream } from "@booking/engine";
import { CommandHandler, PostgresEventStore } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { profiled } from "../lib/cpuprofile.ts";
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
export async function commandContender(serverUrl: string, name: string, options: Options, open: (url: string) => Promise<PostgresEventStore>, patch?: () => () => void): Promise<Setup> {
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
    const r = await handler.handle(calendarStream(expert.expertId), requestBooking(expert, `c-${n % 500}`, new Date(start.getTime() + hour * 3_600_000).toISOString(), 60));
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

/** Single-row INSERTs (autocommit) of a real BookingRequested event into a table shaped like `events`. */
async function insertContender(serverUrl: string): Promise<Setup> {
  const db: TestDatabase = await createTestDatabase(serverUrl, "bench_ins");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 10 });
  const start = midnightUtc(new Date(), 1);
  const [expert] = await seedExperts(store, 1, at(start), { profiles: false, sessions: false });
  const handler = new CommandHandler(store, calendarDecider, { clock: () => at(start) });
  const r = await handler.handle(calendarStream(expert!.expertId), requestBooking(expert!, "c-1", start.toISOString(), 60), { actor: { userId: "c-1", role: "creator" } });
  if (!r.ok) throw new Error(`baseline booking refused: ${r.refusal.code}`);
  const written = r.value.events[0]!;
  await store.pool.query("CREATE TABLE bench_insert (LIKE events INCLUDING ALL)");
  const payload = JSON.stringify(written.data);
  const metadata = JSON.stringify(written.metadata);
  let version = 0;
  const op = async () => {
    await store.pool.query("INSERT INTO bench_insert (stream_id, version, event_id, type, schema_version, data, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)", [
      "calendar-bench",
      ++version,
      randomUUID(),
      written.type,
      currentSchemaVersion("BookingRequested"),
      payload,
      metadata,
    ]);
    return true;
  };
  return {
    contender: { name: "INSERT", op },
    roundTrips: () => countRoundTrips(async () => void (await op())),
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}

export async function benchCommands(serverUrl: string, options: Options): Promise<CommandsFigure> {
  say(`  setting up: ${options.experts} experts per database`);
  const setups: Setup[] = [await insertContender(serverUrl), await commandContender(serverUrl, "current", options, (url) => PostgresEventStore.connect(url, { poolSize: 10 }))];
  try {
    say(`  ${options.clients} clients, ${options.rounds} interleaved rounds of ${options.sliceSeconds} s per contender`);
    const results = await profiled("booking-commands", () => interleave(setups.map((s) => s.contender), options));
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
      baseline: { what: "single-row INSERT (autocommit) of the same event (data and metadata) into a table like `events`, same clients", perSecond: base.perSecond, latency: base.latency },
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
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  let count = 0;
  proto.query = function (this: unknown, ...a: unknown[]) {
    count++;
    return original.apply(this, a);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return count;
}
