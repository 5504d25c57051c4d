import { loadavg } from "node:os";
import pg from "pg";
import { PostgresEventStore } from "@booking/event-store";
import { InProcessProjector, allProjections, migrateReadModels, rebuildProjections, type Projection } from "@booking/projections";
import { createTestDatabase } from "@booking/testkit";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { benchLag } from "./lag.ts";
import { round, say, summarise } from "../lib/stats.ts";

// What the ledger read model (issue 29.5) costs: the projector-lag and replay figures measured
// twice in the same run, with every read model and with the list minus the ledger (the list is
// data: filtered by name), interleaved A B B A so a drift of the machine's load shifts both alike,
// the lag pooled over every round's events and the replay the median of its rebuilds (one
// rebuild that met a checkpoint moves a mean).
// The difference is printed against 15 % (issue 29's Done-when), a figure, not a test failure.
// The lag's appends are a booking's request with its payment (the payment opens the booking's
// ledger book and posts to it, in the same batch as the request's bookings row the lag watches);
// the replay's synthetic history has payments, refunds and payouts (each posts entries).

export const LEDGER_COST_BOUND_PERCENT = 15;

type Side = { label: "with ledger" | "without ledger"; projections: readonly Projection[] };

export type LedgerSide = { p50Ms: number; p99Ms: number; lost: number; loadAverage: number[] };
export type LedgerCostFigure = {
  readModels: { with: number; without: number };
  lag: {
    ratePerSecond: number;
    seconds: number;
    rounds: number;
    with: LedgerSide;
    without: LedgerSide;
    /** p99 with over p99 without, minus 1, in %; `within`: p99's and p50's differences both at most the bound. */
    p99DifferencePercent: number;
    p50DifferencePercent: number;
    within: boolean;
  };
  replay: {
    events: number;
    rounds: number;
    /** `each`: every rebuild's seconds, in the order run (the median is `seconds`). */
    with: { eventsPerSecond: number; seconds: number; each: number[]; loadAverage: number[] };
    without: { eventsPerSecond: number; seconds: number; each: number[]; loadAverage: number[] };
    /** Rebuild time with over without, minus 1, in %. */
    differencePercent: number;
    within: boolean;
  };
  bound: string;
};

const load = () => loadavg().map((l) => round(l));
const percent = (withLedger: number, without: number) => (without > 0 ? round((withLedger / without - 1) * 100) : Number.NaN);
/** The middle of the rounds' figures: one round that met a checkpoint or a GC pause moves a mean, not a median. */
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export async function benchLedgerCost(
  serverUrl: string,
  options: { lagSeconds: number; lagRounds: number; replayEvents: number; replayRounds: number },
): Promise<LedgerCostFigure> {
  const withLedger: Side = { label: "with ledger", projections: allProjections };
  const without: Side = { label: "without ledger", projections: allProjections.filter((p) => p.name !== "ledger") };
  if (without.projections.length !== allProjections.length - 1) throw new Error("no read model named ledger in allProjections");
  // A B B A ... : each side runs `rounds` times.
  const order = (rounds: number): Side[] =>
    Array.from({ length: rounds }, (_, i) => (i % 2 ? [without, withLedger] : [withLedger, without])).flat();

  // Projector lag, the in-process runner of bench/scenarios/lag.ts with the list given.
  const lagRuns: Record<Side["label"], LedgerSide[]> = { "with ledger": [], "without ledger": [] };
  // Every round's lags pooled per side: the p50 and p99 of all of them (a round's p99 is its 20
  // worst events, which a single checkpoint or GC pause of the machine decides).
  const lagSamples: Record<Side["label"], number[]> = { "with ledger": [], "without ledger": [] };
  for (const side of order(options.lagRounds)) {
    say(`  projector lag, 200 events/s for ${options.lagSeconds} s, ${side.label} (${side.projections.length} read models)`);
    const runner: Parameters<typeof benchLag>[1] = {
      name: `in-process, ${side.label}`,
      start: async (_url, pool, store) => {
        const handle = new InProcessProjector(store, pool, side.projections, {
          onError: (e) => say(`  projector: ${(e as Error).message}`),
        }).start();
        return { stop: () => handle.stop() };
      },
    };
    const f = await benchLag(serverUrl, runner, {
      rate: 200,
      seconds: options.lagSeconds,
      bound: 50,
      paid: true,
      onSamples: (lags) => lagSamples[side.label].push(...lags),
    });
    lagRuns[side.label].push({ p50Ms: f.lag.p50Ms, p99Ms: f.lag.p99Ms, lost: f.lost, loadAverage: load() });
  }
  const lagOf = (label: Side["label"]): LedgerSide => {
    const runs = lagRuns[label];
    const pooled = summarise(lagSamples[label]);
    return {
      p50Ms: round(pooled.p50Ms),
      p99Ms: round(pooled.p99Ms),
      lost: runs.reduce((n, r) => n + r.lost, 0),
      loadAverage: runs[runs.length - 1]!.loadAverage,
    };
  };
  const lagWith = lagOf("with ledger");
  const lagWithout = lagOf("without ledger");
  const p99Diff = percent(lagWith.p99Ms, lagWithout.p99Ms);
  const p50Diff = percent(lagWith.p50Ms, lagWithout.p50Ms);

  // Replay: one log, rebuilt with each list in turn.
  const db = await createTestDatabase(serverUrl, "bench_ledger_replay");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 10 });
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on("error", () => undefined);
  try {
    say(`  appending ${options.replayEvents.toLocaleString("en-US")} synthetic events`);
    const writers = 4;
    await Promise.all(
      Array.from({ length: writers }, (_, w) => appendSynthetic(store, Math.ceil(options.replayEvents / writers), w * 1_000_000)),
    );
    await pool.query("VACUUM ANALYZE events");
    await migrateReadModels(pool);
    const replayRuns: Record<Side["label"], { events: number; seconds: number; loadAverage: number[] }[]> = {
      "with ledger": [],
      "without ledger": [],
    };
    for (const side of order(options.replayRounds)) {
      say(`  rebuilding ${side.projections.length} read models, ${side.label}`);
      const r = await rebuildProjections(store, pool, side.projections);
      replayRuns[side.label].push({ ...r, loadAverage: load() });
    }
    const replayOf = (runs: { events: number; seconds: number; loadAverage: number[] }[]) => {
      const seconds = median(runs.map((r) => r.seconds));
      return {
        eventsPerSecond: round(runs[0]!.events / seconds),
        seconds: round(seconds),
        each: runs.map((r) => round(r.seconds)),
        loadAverage: runs[runs.length - 1]!.loadAverage,
      };
    };
    const replayWith = replayOf(replayRuns["with ledger"]);
    const replayWithout = replayOf(replayRuns["without ledger"]);
    const replayDiff = percent(replayWith.seconds, replayWithout.seconds);
    const figure: LedgerCostFigure = {
      readModels: { with: withLedger.projections.length, without: without.projections.length },
      lag: {
        ratePerSecond: 200,
        seconds: options.lagSeconds,
        rounds: options.lagRounds,
        with: lagWith,
        without: lagWithout,
        p99DifferencePercent: p99Diff,
        p50DifferencePercent: p50Diff,
        // Both: on a loaded machine one of the two percentiles alone can hide (or make) the difference.
        within: p99Diff <= LEDGER_COST_BOUND_PERCENT && p50Diff <= LEDGER_COST_BOUND_PERCENT,
      },
      replay: {
        events: replayRuns["with ledger"][0]!.events,
        rounds: options.replayRounds,
        with: replayWith,
        without: replayWithout,
        differencePercent: replayDiff,
        within: replayDiff <= LEDGER_COST_BOUND_PERCENT,
      },
      bound: `with the ledger at most ${LEDGER_COST_BOUND_PERCENT} % slower than without it`,
    };
    for (const line of ledgerCostLines(figure)) say(`  ${line}`);
    return figure;
  } finally {
    await pool.end();
    await store.close();
    await db.drop();
  }
}

const signed = (n: number) => `${n >= 0 ? "+" : ""}${n} %`;
const verdict = (within: boolean) => (within ? `within ${LEDGER_COST_BOUND_PERCENT} %` : `OVER ${LEDGER_COST_BOUND_PERCENT} %`);

/** The figure as lines: what it measured with and without the ledger, the difference, the verdict and the load average. */
export function ledgerCostLines(f: LedgerCostFigure): string[] {
  const { lag, replay } = f;
  return [
    `ledger cost, projector lag (200 ev/s, ${lag.rounds}x${lag.seconds} s each, all rounds' events): with ${lag.with.p99Ms} ms (p50 ${lag.with.p50Ms}) vs without ${lag.without.p99Ms} ms (p50 ${lag.without.p50Ms}): p99 ${signed(lag.p99DifferencePercent)}, p50 ${signed(lag.p50DifferencePercent)}: ${verdict(lag.within)}; load average ${lag.with.loadAverage.join(" ")}`,
    `ledger cost, replay of ${replay.events.toLocaleString("en-US")} events (${replay.rounds} rebuild${replay.rounds === 1 ? "" : "s"} each, A B B A, median): with ${replay.with.eventsPerSecond} events/s (${replay.with.seconds} s) vs without ${replay.without.eventsPerSecond} events/s (${replay.without.seconds} s): time ${signed(replay.differencePercent)}: ${verdict(replay.within)}; load average ${replay.with.loadAverage.join(" ")}`,
  ];
}
