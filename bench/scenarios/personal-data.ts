import { randomUUID } from "node:crypto";
import pg from "pg";
import { calendarDecider, calendarStream } from "@booking/engine";
import {
  BookingPartyBook,
  CommandHandler,
  PostgresEventStore,
  PostgresKeyRing,
  SealedEventStore,
  masterKeyFromSecret,
  type EventStore,
  type NewEvent,
} from "@booking/event-store";
import { allProjections, migrateReadModels, rebuildProjections } from "@booking/projections";
import { createTestDatabase } from "@booking/testkit";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { interleave, type Contender } from "../lib/interleave.ts";
import { midnightUtc, requestBooking, seedExperts } from "../lib/seed.ts";
import { now, ratio, round, say, type LatencySummary } from "../lib/stats.ts";

// What sealing personal data costs (issue 33.1): each figure measured twice in the same run on the same server, once
// on a store that seals personal fields (SealedEventStore over the Postgres store, data keys in `data_keys`, as every
// process but the relay runs) and once on the Postgres store alone, in interleaved slices so a change in the machine's
// load shifts both alike. Every operation carries personal fields: booking commands (a request, then its three prep
// answers, whose owner is found through the request), appends of MessageSent (senders whose keys are known) and of
// UserRegistered (a new person each, so a new data key each), and a replay of the synthetic workload (names, bios,
// prep answers, notes, reviews) rebuilding every read model.

export const SEALING_BOUND = 0.85;

export type SealingRow = {
  what: string;
  unit: string;
  plain: number;
  sealed: number;
  /** sealed / plain: 1 costs nothing, 0.85 is 15 % slower. */
  ratio: number;
  met: boolean;
  latency?: { plain: LatencySummary; sealed: LatencySummary };
};

export type PersonalDataFigure = { bound: string; rows: SealingRow[] };

type Options = { rounds: number; sliceSeconds: number; warmupSeconds: number; replayEvents: number; replayRounds: number };
type Opened = { store: EventStore; url: string; keys: PostgresKeyRing | null; close: () => Promise<void> };

const SECRET = "bench-data-key-secret-long-enough-for-hkdf-0123456789";

/** A database of its own with the Postgres store, sealing (as the product runs) or not. */
async function openStore(serverUrl: string, name: string, sealed: boolean): Promise<Opened> {
  const db = await createTestDatabase(serverUrl, `bench_pd_${name}`);
  const stored = await PostgresEventStore.connect(db.url, { poolSize: 10 });
  const keys = sealed ? await PostgresKeyRing.connect(db.url, masterKeyFromSecret(SECRET), { keysCommitBeforeTheirEvents: true }) : null;
  const store = keys ? new SealedEventStore(stored, keys, new BookingPartyBook({ log: stored })) : stored;
  return {
    store,
    url: db.url,
    keys,
    close: async () => {
      await store.close();
      await keys?.close();
      await db.drop();
    },
  };
}

const label = (sealed: boolean) => (sealed ? "sealed" : "plain");

/** Booking commands through a CommandHandler: each operation is a request and then its prep answers (two commands). */
async function commandsContender(serverUrl: string, sealed: boolean): Promise<{ contender: Contender; close: () => Promise<void> }> {
  const opened = await openStore(serverUrl, `cmd_${label(sealed)}`, sealed);
  const start = midnightUtc(new Date(), 1);
  const at = new Date(start.getTime() - 3_600_000).toISOString();
  const experts = await seedExperts(opened.store, 500, at, { profiles: false, sessions: false });
  const handler = new CommandHandler(opened.store, calendarDecider, { clock: () => at });
  // The creators registered before they book: their data keys exist (a new person's key is the registrations' row).
  for (let c = 0; c < 500; c++) await opened.keys?.keyFor(`c-${c}`, true);
  let i = 0;
  const op = async () => {
    const n = i++;
    const expert = experts[n % experts.length]!;
    const scheduled = new Date(start.getTime() + Math.floor(n / experts.length) * 3_600_000).toISOString();
    const request = requestBooking(expert, `c-${n % 500}`, scheduled, 60);
    const stream = calendarStream(expert.expertId);
    if (!(await handler.handle(stream, request)).ok || request.type !== "RequestBooking") return false;
    const answers = [`Grow past 10k by June (${n})`, "Creators who edit their own videos", "I post too rarely"];
    const prep = { type: "SubmitPrep" as const, expertId: expert.expertId, bookingId: request.bookingId, actor: request.actor, answers };
    return (await handler.handle(stream, prep)).ok;
  };
  return { contender: { name: `commands ${label(sealed)}`, op }, close: opened.close };
}

/** Appends of one event at a time per client, each on a stream of its own with the version it expects. */
async function appendsContender(
  serverUrl: string,
  kind: "messages" | "registrations",
  sealed: boolean,
): Promise<{ contender: Contender; close: () => Promise<void> }> {
  const opened = await openStore(serverUrl, `${kind}_${label(sealed)}`, sealed);
  const run = randomUUID().slice(0, 8);
  const versions = new Map<string, number>();
  // The senders registered before they write: their data keys exist.
  if (kind === "messages") for (let u = 0; u < 100; u++) await opened.keys?.keyFor(`u-${run}-${u}`, true);
  let n = 0;
  const event = (client: number): [string, NewEvent] => {
    const i = n++;
    const metadata = { at: new Date().toISOString() };
    if (kind === "registrations") {
      const userId = `u-${run}-${i}`;
      const data = { userId, email: `person${i}@bench.example`, role: "creator", firstName: `Person${i}`, lastName: "Bench" };
      return [`user-${userId}`, { type: "UserRegistered", data, metadata }];
    }
    const bookingId = `b-${run}-${client}`;
    const by = `u-${run}-${i % 100}`;
    const data = {
      bookingId,
      messageId: randomUUID(),
      seq: i + 1,
      by,
      role: "creator",
      text: `Could we look at my thumbnails first? (${i})`,
    };
    return [`conversation-${bookingId}`, { type: "MessageSent", data, metadata }];
  };
  const op = async (client: number) => {
    const [stream, e] = event(client);
    const r = await opened.store.append(stream, [e], versions.get(stream) ?? "no_stream");
    versions.set(stream, r.nextVersion);
    return true;
  };
  return { contender: { name: `${kind} ${label(sealed)}`, op }, close: opened.close };
}

function row(what: string, unit: string, plain: number, sealed: number, latency?: SealingRow["latency"]): SealingRow {
  const r = ratio(sealed, plain);
  return { what, unit, plain, sealed, ratio: r, met: r >= SEALING_BOUND, ...(latency && { latency }) };
}

/** Rebuild every read model from `events` synthetic events, on a plain and on a sealed log, interleaved. */
async function replayRow(serverUrl: string, events: number, rounds: number): Promise<SealingRow> {
  const logs = [await openStore(serverUrl, "replay_plain", false), await openStore(serverUrl, "replay_sealed", true)];
  const pools = logs.map((l) => {
    const pool = new pg.Pool({ connectionString: l.url, max: 4 });
    pool.on("error", () => undefined);
    return pool;
  });
  try {
    for (const [i, log] of logs.entries()) {
      say(`  appending ${events.toLocaleString("en-US")} synthetic events (${label(i === 1)})`);
      await Promise.all(Array.from({ length: 4 }, (_, w) => appendSynthetic(log.store, Math.ceil(events / 4), w * 1_000_000)));
      await pools[i]!.query("VACUUM ANALYZE events");
      await migrateReadModels(pools[i]!);
    }
    const totals = [0, 0];
    const seconds = [0, 0];
    for (let r = 0; r < rounds; r++) {
      for (const i of [0, 1]) {
        say(`  rebuilding all read models, ${label(i === 1)} (${r + 1}/${rounds})`);
        const t0 = now();
        const result = await rebuildProjections(logs[i]!.store, pools[i]!, allProjections);
        seconds[i]! += (now() - t0) / 1000;
        totals[i]! += result.events;
      }
    }
    const [plain, sealed] = [0, 1].map((i) => round(totals[i]! / seconds[i]!));
    return row(`replay, ${Math.round(totals[0]! / rounds).toLocaleString("en-US")} events, all read models`, "events/s", plain!, sealed!);
  } finally {
    for (const p of pools) await p.end();
    for (const l of logs) await l.close();
  }
}

export async function benchPersonalData(serverUrl: string, options: Options): Promise<PersonalDataFigure> {
  const rows: SealingRow[] = [];
  const slices = { clients: 4, rounds: options.rounds, sliceSeconds: options.sliceSeconds, warmupSeconds: options.warmupSeconds };
  const pairs: [string, string, (sealed: boolean) => Promise<{ contender: Contender; close: () => Promise<void> }>, number, number][] = [
    ["booking commands (request + 3 prep answers), 4 clients", "commands/s", (s) => commandsContender(serverUrl, s), 4, 2],
    ["store appends of MessageSent, 8 clients", "appends/s", (s) => appendsContender(serverUrl, "messages", s), 8, 1],
    [
      "store appends of UserRegistered (a new data key each), 8 clients",
      "appends/s",
      (s) => appendsContender(serverUrl, "registrations", s),
      8,
      1,
    ],
  ];
  for (const [what, unit, make, clients, perOp] of pairs) {
    say(`  ${what}: ${options.rounds} interleaved rounds of ${options.sliceSeconds} s, plain and sealed`);
    const setups = [await make(false), await make(true)];
    try {
      const results = await interleave(
        setups.map((s) => s.contender),
        { ...slices, clients },
      );
      const [plain, sealed] = setups.map((s) => results[s.contender.name]!);
      rows.push(
        row(what, unit, round(plain!.perSecond * perOp), round(sealed!.perSecond * perOp), {
          plain: plain!.latency,
          sealed: sealed!.latency,
        }),
      );
    } finally {
      for (const s of setups) await s.close();
    }
  }
  rows.push(await replayRow(serverUrl, options.replayEvents, options.replayRounds));
  return { bound: `sealed within 15 % of plain (ratio >= ${SEALING_BOUND})`, rows };
}

/** The figure's bounds, as run.ts lists them. */
export const personalDataBounds = (f: PersonalDataFigure) =>
  f.rows.map((r) => ({
    figure: `${r.what}, personal data sealed vs plain (${r.unit})`,
    value: r.sealed,
    baseline: r.plain,
    ratio: r.ratio,
    bound: "within 15 %",
    pass: r.met,
  }));

/** The figure's rows of run.ts's table. */
export const personalDataTableRows = (f: PersonalDataFigure): [string, string, string, string][] =>
  f.rows.map((r) => [
    `sealed: ${r.what}`,
    `${r.sealed} ${r.unit}${r.latency ? `  p50 ${r.latency.sealed.p50Ms} p99 ${r.latency.sealed.p99Ms} ms` : ""}`,
    `plain ${r.plain} ${r.unit}${r.latency ? `  p50 ${r.latency.plain.p50Ms} p99 ${r.latency.plain.p99Ms} ms` : ""}`,
    `${r.ratio} (within 15 %) ${r.met ? "met" : "MISSED"}`,
  ]);
