import { CONSISTENCY_POSITION_HEADER } from "@booking/contracts";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import fastifyJwt from "@fastify/jwt";
import Fastify from "fastify";
import pg from "pg";
import { PostgresEventStore, PostgresKeyRing, masterKeyFromSecret } from "@booking/event-store";
import { InProcessProjector, allProjections, migrateReadModels, readModelDigest, rebuildProjections } from "@booking/projections";
import { TEST_DATA_KEY_SECRET, createTestDatabase, freePort } from "@booking/testkit";
import { bookableHour, since, startBookingLoad, type LoadCall, type LoadReport } from "../../api/test/booking-load.ts";
import { projectorCaughtUp, reactorsCaughtUp, startProcess, waitFor, type Running } from "../../api/test/processes.ts";
import { incomplete, readContinuously } from "../../projections/test/generation-reader.ts";
import { syntheticHistory } from "../../projections/test/workload.ts";
import { sealedEventStore } from "../../api/src/main/event-store.ts";
import type { EventStore } from "@booking/event-store";
import { ALL_WEEK_UTC, seedCreators, seedExperts } from "../lib/seed.ts";
import { round, say, sleep, summarise, type LatencySummary } from "../lib/stats.ts";

// A full blue-green rebuild under load (issue 18): the API as its own process (in-process
// projector, as `npm start` runs it) over a log of 100,000 events, creators booking, paying,
// confirming and cancelling and visitors listing the experts from this process, while
// `npm run replay` (a process of its own) rebuilds every read model into new generations and
// switches readers to them. p99 of GET /experts and POST /bookings during each rebuild, beside
// the same figures in equally long stretches without one, interleaved round by round.

type Phase = {
  seconds: number;
  bookings: number;
  getExperts: LatencySummary & { perSecond: number };
  postBookings: LatencySummary & { perSecond: number };
};

export type RebuildUnderLoadFigure = {
  events: number;
  experts: number;
  bookers: number;
  listers: number;
  rounds: number;
  /** Each rebuild, from the replay's first progress line to its exit (its switch included). */
  rebuildSeconds: number[];
  withoutRebuild: Phase;
  duringRebuild: Phase;
  /** Every request of the run, both phases: any answer but 2xx counts. */
  failedRequests: number;
  firstFailure: string | null;
  /** Reads of `bookings` with its checkpoint, compared with the log up to it: a half-built generation would differ. */
  readsChecked: number;
  incompleteReads: number;
  identicalToCleanReplay: boolean;
  loadAverage: { start: number[]; end: number[] };
};

const API_SECRET = randomBytes(32).toString("hex");

/** Requests over one keep-alive agent, as a browser would send them. */
function httpCall(port: number, sockets: number): { call: LoadCall; close: () => void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const call: LoadCall = (method, path, o = {}) =>
    new Promise((resolve, reject) => {
      const body = o.body === undefined ? undefined : Buffer.from(JSON.stringify(o.body));
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method,
          path,
          agent,
          headers: {
            ...(body && { "content-type": "application/json", "content-length": String(body.length) }),
            ...(o.token && { authorization: `Bearer ${o.token}` }),
            ...(o.position && { [CONSISTENCY_POSITION_HEADER]: o.position }),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          const position = res.headers[CONSISTENCY_POSITION_HEADER];
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: text, position: typeof position === "string" ? position : null }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { call, close: () => agent.destroy() };
}

function phase(stretches: ReturnType<typeof since>[], seconds: number, bookings: number): Phase {
  const all = (route: string) => stretches.flatMap((s) => s[route]!.latenciesMs);
  const figure = (route: string) => {
    const ms = all(route);
    return { ...summarise(ms), perSecond: round(ms.length / Math.max(seconds, 1e-9)) };
  };
  return { seconds: round(seconds), bookings, getExperts: figure("GET /experts"), postBookings: figure("POST /bookings") };
}

/** Two years on: the synthetic sessions lie ahead, so the completion sweeper leaves them be and the log only grows by the load. */
const LATER_MS = 2 * 365 * 86_400_000;
const later = (instant: unknown) => (typeof instant === "string" ? new Date(Date.parse(instant) + LATER_MS).toISOString() : instant);

/** About `count` events of synthetic experts' histories (projections' workload), their bookings moved into the future. */
async function appendFutureSynthetic(store: EventStore, count: number, startAt: number): Promise<void> {
  for (let n = startAt, written = 0; written < count; n++) {
    for (const { streamId, events } of syntheticHistory(n, n % 1000)) {
      const moved = events.map((e) => {
        const data = e.data as Record<string, unknown>;
        return {
          type: e.type,
          data: "scheduledTime" in data ? { ...data, scheduledTime: later(data.scheduledTime), heldUntil: later(data.heldUntil) } : data,
          metadata: { at: new Date().toISOString() },
        };
      });
      await store.append(streamId, moved, "no_stream");
      written += events.length;
    }
  }
}

const failuresOf = (report: LoadReport) => Object.values(report.routes).reduce((n, r) => n + r.failed, 0);

export async function benchRebuild(
  serverUrl: string,
  options: { events: number; experts: number; creators: number; bookers: number; listers: number; rounds: number; sliceSeconds: number },
): Promise<RebuildUnderLoadFigure> {
  const loadStart = loadavg().map((l) => round(l));
  const database = await createTestDatabase(serverUrl, "bench_rebuild");
  const store = await PostgresEventStore.connect(database.url, { poolSize: 8 });
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  pool.on("error", () => undefined);
  const mediaDir = await mkdtemp(join(tmpdir(), "bench-rebuild-media-"));
  const signer = Fastify({ logger: false });
  let api: Running | null = null;
  let http_: ReturnType<typeof httpCall> | null = null;
  try {
    const at = new Date(Date.now() - 86_400_000).toISOString();
    say(
      `  seeding ${options.experts} bookable experts, ${options.creators} creators and synthetic histories up to ${options.events.toLocaleString("en-US")} events`,
    );
    const experts = await seedExperts(store, options.experts, at, { schedule: ALL_WEEK_UTC });
    const creators = await seedCreators(store, options.creators, at);
    const rest = options.events - (await store.countEvents());
    if (rest > 0) await Promise.all([0, 1, 2, 3].map((w) => appendFutureSynthetic(store, Math.ceil(rest / 4), 1 + w * 1_000_000)));
    const events = await store.countEvents();

    const port = await freePort();
    api = startProcess("api", {
      DATABASE_URL: database.url,
      JWT_SECRET: API_SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      MEDIA_DIR: mediaDir,
      LOG_LEVEL: "warn",
    });
    await waitFor(
      "the API to listen",
      async () => (await fetch(`http://127.0.0.1:${port}/api/v1/healthz`).catch(() => null))?.status === 200,
      120_000,
    );
    say(`  the API's projector catching up with ${events.toLocaleString("en-US")} events`);
    await waitFor("the API's projector to catch up", () => projectorCaughtUp(pool, store), 600_000);
    await waitFor("the API's mail and refund reactors to catch up", () => reactorsCaughtUp(pool, store), 600_000);

    await signer.register(fastifyJwt, { secret: API_SECRET, sign: { algorithm: "HS256", expiresIn: 3600 } });
    await signer.ready();
    const expertTokens = experts.map((e) => ({
      ...e,
      token: signer.jwt.sign({ sub: e.expertId, role: "expert", email: `${e.expertId}@bench.example`, sid: randomUUID() }),
    }));
    const creatorTokens = creators.map((c) => signer.jwt.sign({ sub: c.userId, role: "creator", email: c.email, sid: randomUUID() }));
    const firstHour = Date.now() + 2 * 3_600_000;
    http_ = httpCall(port, options.bookers + options.listers);
    const traffic = startBookingLoad(http_.call, {
      bookers: options.bookers,
      listers: options.listers,
      slots: (k) =>
        k < creatorTokens.length
          ? { expert: expertTokens[k % expertTokens.length]!, scheduledTime: bookableHour(firstHour, Math.floor(k / expertTokens.length)) }
          : null,
      creatorOf: (k) => ({ token: creatorTokens[k]! }),
    });
    const reader = readContinuously(pool, pool, ["bookings"]);

    say(
      `  load: ${options.bookers} creators booking, paying, confirming or cancelling, ${options.listers} visitors listing experts; ${options.rounds} rounds of ${options.sliceSeconds} s without a rebuild, then a full rebuild`,
    );
    await sleep(2_000); // warm-up
    const without: ReturnType<typeof since>[] = [];
    const during: ReturnType<typeof since>[] = [];
    const rebuildSeconds: number[] = [];
    let withoutSeconds = 0;
    let withoutBookings = 0;
    let duringBookings = 0;
    for (let round_ = 0; round_ < options.rounds; round_++) {
      const a = traffic.report();
      await sleep(options.sliceSeconds * 1000);
      const b = traffic.report();
      without.push(since(b, a));
      withoutSeconds += b.seconds - a.seconds;
      withoutBookings += b.bookings - a.bookings;

      say(`  round ${round_ + 1}/${options.rounds}: npm run replay of every read model`);
      const replay = startProcess("replay", { DATABASE_URL: database.url });
      await waitFor(
        "the replay to start rebuilding",
        async () => replay.output().includes("ev/s") || replay.child.exitCode !== null,
        120_000,
      );
      const c = traffic.report();
      const code = await replay.exited;
      const d = traffic.report();
      if (code !== 0) throw new Error(`npm run replay exited ${code}: ${replay.output().slice(-2000)}`);
      during.push(since(d, c));
      rebuildSeconds.push(round(d.seconds - c.seconds));
      duringBookings += d.bookings - c.bookings;
      say(
        `    rebuilt in ${round(d.seconds - c.seconds)} s; ${
          replay
            .output()
            .split("\n")
            .find((l) => l.startsWith("replay: readers switched")) ?? ""
        }`,
      );
    }
    const report = await traffic.stop();
    await waitFor("the projector to catch up after the load", () => projectorCaughtUp(pool, store), 120_000);
    const reads = await reader.stop();
    // Nothing writes once the API has stopped (its sweepers with it): the read models, brought to the head, against a clean replay of the same log.
    api.child.kill("SIGTERM");
    await api.exited;
    // The log as the processes read it: personal fields the API sealed opened with the data keys (issue 33.1;
    // startProcess gives the API the test secret). The seeded events are plain and read as themselves.
    const keys = await PostgresKeyRing.connect(pool, masterKeyFromSecret(TEST_DATA_KEY_SECRET));
    const opened = sealedEventStore(store, keys, null);
    const lastBatches = new InProcessProjector(opened, pool, allProjections, { versions: false });
    while ((await lastBatches.runOnce()) > 0);

    say("  comparing with a clean replay");
    const clean = await createTestDatabase(serverUrl, "bench_rebuild_clean");
    const cleanPool = new pg.Pool({ connectionString: clean.url, max: 4 });
    cleanPool.on("error", () => undefined);
    let identical = false;
    try {
      await migrateReadModels(cleanPool);
      await rebuildProjections(opened, cleanPool, allProjections);
      identical = JSON.stringify(await readModelDigest(pool)) === JSON.stringify(await readModelDigest(cleanPool));
    } finally {
      await keys.close();
      await cleanPool.end();
      await clean.drop();
    }

    const firstFailure = Object.values(report.routes).find((r) => r.firstFailure)?.firstFailure ?? null;
    const figure: RebuildUnderLoadFigure = {
      events,
      experts: options.experts,
      bookers: options.bookers,
      listers: options.listers,
      rounds: options.rounds,
      rebuildSeconds,
      withoutRebuild: phase(without, withoutSeconds, withoutBookings),
      duringRebuild: phase(
        during,
        rebuildSeconds.reduce((s, x) => s + x, 0),
        duringBookings,
      ),
      failedRequests: failuresOf(report),
      firstFailure,
      readsChecked: reads.length,
      incompleteReads: incomplete(reads).length,
      identicalToCleanReplay: identical,
      loadAverage: { start: loadStart, end: loadavg().map((l) => round(l)) },
    };
    const line = (name: string, p: Phase) =>
      say(
        `  ${name}: GET /experts p50 ${p.getExperts.p50Ms} p99 ${p.getExperts.p99Ms} ms (${p.getExperts.perSecond}/s); POST /bookings p50 ${p.postBookings.p50Ms} p99 ${p.postBookings.p99Ms} ms (${p.postBookings.perSecond}/s)`,
      );
    line("without a rebuild", figure.withoutRebuild);
    line("during a rebuild ", figure.duringRebuild);
    say(
      `  failed requests ${figure.failedRequests}; reads checked ${figure.readsChecked}, incomplete ${figure.incompleteReads}; identical to a clean replay: ${identical}; load average ${figure.loadAverage.start.join(" ")} -> ${figure.loadAverage.end.join(" ")}`,
    );
    return figure;
  } finally {
    http_?.close();
    if (api && api.child.exitCode === null) {
      api.child.kill("SIGTERM");
      await api.exited;
    }
    await signer.close();
    await pool.end();
    await store.close();
    await database.drop();
    await rm(mediaDir, { recursive: true, force: true });
  }
}
