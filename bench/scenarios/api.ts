import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import pg from "pg";
import { MAX_UNPAID_HOLDS_PER_CREATOR } from "@booking/contracts";
import { PostgresEventStore } from "@booking/event-store";
import { createTestDatabase, freePort, watchStatements, type SentStatement } from "@booking/testkit";
import { apiConfig } from "../../api/src/main/config.ts";
import type { ReplyCacheStats } from "../../api/src/http/reply-cache.ts";
import { runApi } from "../../api/src/main/server.ts";
import { projectorCaughtUp, reactorsCaughtUp, waitFor } from "../../api/test/processes.ts";
import { loadFromChild, type LoadRequest, type LoadResult } from "../lib/loadgen.ts";
import { WORKING_HOURS_UTC, seedCreators, seedExperts, workingHour } from "../lib/seed.ts";
import { ratio, say } from "../lib/stats.ts";

// The API under load: the real server (runApi: the in-process projector, the booking feed and
// the hold sweeper all running, as `npm start` runs it) on 1,000 experts, beside a bare Fastify
// route served by the same process. The load generator is a separate process.

export type RouteFigure = LoadResult & { ratioToBare: number };

export type QueryPlan = { sql: string; calls: number; executionMs: number | null; seqScans: string[]; plan: string };

export type ApiFigure = {
  experts: number;
  connections: number;
  rounds: number;
  sliceSeconds: number;
  bare: LoadResult;
  /** As a browser asks for it (Accept-Encoding: gzip, deflate, br): the reply comes gzipped. */
  getExperts: RouteFigure & { bound: string; pass: boolean };
  /** The same without Accept-Encoding: about 100 KB of JSON per reply. */
  getExpertsUncompressed: RouteFigure;
  getAvailability: RouteFigure;
  /** The same route for experts with three connected calendars of 500 busy times each (issue 32), beside getAvailability. */
  getAvailabilityConnected: RouteFigure & { experts: number; calendars: number; busyEach: number };
  /** The same route while bookings are made for other experts: one POST /bookings to every 9 GETs, the two measured together. */
  availabilityWhileBooking: RouteFigure;
  postBookings: RouteFigure & {
    /** Statements of one booking on an expert whose calendar the API holds in memory (the steady state), and of the first on an expert it has not seen. */
    statements: number;
    statementsColdCalendar: number;
    goals: { requestsPerSecond: number; p99Ms: number; statements: number };
    pass: { requestsPerSecond: boolean; p99: boolean; statements: boolean };
  };
  /** The /experts body served from memory (as a string) by the bare server: about the most a cached listing can reach. */
  bareServingExpertsBody: LoadResult & { ratioToBare: number };
  /** The API's cache of the /experts reply over the whole run (warm-up and the capture below included). */
  listingsCache: ReplyCacheStats;
  /** The statements each route sends (one round trip each), with EXPLAIN ANALYZE of every read. */
  queries: Record<string, { perRequest: number; plans: QueryPlan[] }>;
};

/** Issue 19's goals for POST /bookings (10 connections). */
export const BOOKING_GOALS = { requestsPerSecond: 1_500, p99Ms: 20, statements: 4 };

/** Issue 32's bench: experts with this many connected calendars, each this many busy times in the window. */
const CONNECTED = { experts: 100, calendars: 3, busyEach: 500 };

/** Bookings 0 to MIXED_FROM - 1 go to the POST /bookings phase, the rest to availability while booking. */
const MIXED_FROM = 20_000;

type Captured = SentStatement;

/** Marks the handling of a request that carries `x-bench-capture`, so its statements can be told from the background loops'. */
const capturing = new AsyncLocalStorage<true>();

function markCapturedRequests(server: Server): void {
  const handlers = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const run = () => handlers.forEach((h) => h.call(server, req, res));
    if (req.headers["x-bench-capture"]) capturing.run(true, run);
    else run();
  });
}

/** The statements sent while handling requests marked by `markCapturedRequests`, captured on pg.Client. */
async function capture(work: () => Promise<void>): Promise<Captured[]> {
  const seen: Captured[] = [];
  await watchStatements((sent) => capturing.getStore() && seen.push(sent), work);
  return seen;
}

async function explain(db: pg.Pool, statements: Captured[]): Promise<QueryPlan[]> {
  const byText = new Map<string, { c: Captured; calls: number }>();
  for (const c of statements) {
    const key = c.text.replace(/\s+/g, " ").trim();
    const e = byText.get(key);
    if (e) e.calls++;
    else byText.set(key, { c, calls: 1 });
  }
  const plans: QueryPlan[] = [];
  for (const [sql, { c, calls }] of byText) {
    const read =
      /^\s*(SELECT|WITH)\b/i.test(c.text) &&
      !/\bFOR UPDATE\b|pg_notify|pg_advisory|\b(INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/i.test(c.text);
    if (!read) {
      plans.push({
        sql: sql.slice(0, 160),
        calls,
        executionMs: null,
        seqScans: [],
        plan: "(a write or a transaction statement: not explained)",
      });
      continue;
    }
    try {
      const { rows } = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${c.text}`, c.values);
      const lines = rows.map((r) => r["QUERY PLAN"]);
      const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(lines.join("\n"))?.[1] ?? Number.NaN);
      plans.push({
        sql: sql.slice(0, 160),
        calls,
        executionMs,
        seqScans: lines.filter((l) => /Seq Scan/.test(l)).map((l) => l.trim().replace(/\s+\(cost.*$/, "")),
        plan: lines.slice(0, 12).join("\n"),
      });
    } catch (e) {
      plans.push({ sql: sql.slice(0, 160), calls, executionMs: null, seqScans: [], plan: `EXPLAIN failed: ${(e as Error).message}` });
    }
  }
  return plans;
}

export async function benchApi(
  serverUrl: string,
  options: { experts: number; creators: number; connections: number; rounds: number; sliceSeconds: number; warmupSeconds: number },
): Promise<ApiFigure> {
  const database = await createTestDatabase(serverUrl, "bench_api");
  const mediaDir = await mkdtemp(join(tmpdir(), "bench-media-"));
  const seedStore = await PostgresEventStore.connect(database.url);
  const start = new Date(Date.now() + 2 * 3_600_000);
  const at = new Date(Date.now() - 86_400_000).toISOString();
  say(`  seeding ${options.experts} experts (profile, published session, schedule) and ${options.creators} creators`);
  const experts = await seedExperts(seedStore, options.experts, at, { schedule: WORKING_HOURS_UTC });
  const creators = await seedCreators(seedStore, options.creators, at);
  say(`  seeding ${CONNECTED.experts} experts with ${CONNECTED.calendars} connected calendars of ${CONNECTED.busyEach} busy times each`);
  const connected = await seedExperts(seedStore, CONNECTED.experts, at, {
    schedule: WORKING_HOURS_UTC,
    connectedCalendars: { calendars: CONNECTED.calendars, busyEach: CONNECTED.busyEach, from: Date.now() },
  });
  await seedStore.close();

  const config = apiConfig.parse({
    DATABASE_URL: database.url,
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    JWT_SECRET: randomBytes(32).toString("hex"),
    MEDIA_DIR: mediaDir,
  });
  const api = await runApi(config);
  const bare = Fastify({ logger: false });
  let expertsBody = "[]";
  bare.get("/bare", async () => ({ ok: true }));
  bare.get("/bare-experts", async (_request, reply) => reply.type("application/json; charset=utf-8").send(expertsBody));
  const barePort = await freePort();
  await bare.listen({ port: barePort, host: "127.0.0.1" });
  const checkPool = new pg.Pool({ connectionString: database.url, max: 2 });
  checkPool.on("error", () => undefined);
  try {
    await waitFor("the API's projector to catch up with the seed", () => projectorCaughtUp(checkPool, api.ctx.store), 300_000);
    // And its mail and refund reactors: reading the seed's 11,000 sign-ups is not booking traffic.
    await waitFor(
      "the API's mail and refund reactors to catch up with the seed",
      () => reactorsCaughtUp(checkPool, api.ctx.store),
      300_000,
    );
    const apiPort = Number(new URL(api.url).port);
    const base = `http://127.0.0.1:${apiPort}/api/v1`;
    const listing = await fetch(`${base}/experts`);
    expertsBody = await listing.text();
    say(
      `  GET /experts answers ${listing.status} with ${(JSON.parse(expertsBody) as unknown[]).length} experts, ${expertsBody.length} bytes`,
    );

    const tokens = creators.map((c) => api.app.jwt.sign({ sub: c.userId, role: "creator", email: c.email, sid: randomUUID() }));
    const availabilityOf = (e: { sessionId: string }): LoadRequest => ({
      method: "GET",
      path: `/api/v1/sessions/${e.sessionId}/availability`,
    });
    const availability = experts.map(availabilityOf);
    // Distinct hours: booking k goes to expert k mod 1,000, at working hour floor(k / 1,000) from two hours from now.
    // A creator keeps at most MAX_UNPAID_HOLDS_PER_CREATOR unpaid holds, never two at one hour: creator
    // (k mod 1,000) + 1,000 × floor(hour / 3) books one expert's column for three consecutive hours.
    const hours = Array.from({ length: Math.ceil(30_000 / experts.length) }, (_, n) => workingHour(start, n).toISOString());
    const creatorOf = (k: number) =>
      (k % experts.length) + experts.length * Math.floor(Math.floor(k / experts.length) / MAX_UNPAID_HOLDS_PER_CREATOR);
    const bookings: LoadRequest[] = Array.from({ length: 30_000 }, (_, k) => ({
      method: "POST",
      path: "/api/v1/bookings",
      headers: { authorization: `Bearer ${tokens[creatorOf(k) % tokens.length]}` },
      body: JSON.stringify({ session_id: experts[k % experts.length]!.sessionId, scheduled_time: hours[Math.floor(k / experts.length)] }),
    }));
    const post = (b: LoadRequest, headers: Record<string, string> = {}) =>
      fetch(`${base}/bookings`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers, ...b.headers },
        body: b.body,
      });
    const probe = await post(bookings[bookings.length - 1]!);
    if (probe.status !== 201) throw new Error(`POST /bookings probe answered ${probe.status}: ${await probe.text()}`);
    // Captured below: a booking on an expert the API has not seen (its calendar read from the log),
    // and one on an expert after a first booking there (the calendar in memory, as under load).
    const cold = bookings.length - 3;
    const warm = bookings.length - 2;
    const warmup = warm - experts.length;
    const warming = await post(bookings[warmup]!);
    if (warming.status !== 201) throw new Error(`POST /bookings warm-up answered ${warming.status}: ${await warming.text()}`);

    // The statements each route sends, and their plans (on the seeded data).
    const queries: ApiFigure["queries"] = {};
    markCapturedRequests(api.app.server);
    const mark = { "x-bench-capture": "1" };
    const routes: [string, () => Promise<Response>][] = [
      // The first after the probe's booking moved the read models (a miss), then one served from the cache.
      ["GET /experts", () => fetch(`${base}/experts`, { headers: mark })],
      ["GET /experts, again", () => fetch(`${base}/experts`, { headers: mark })],
      ["GET /sessions/{id}/availability", () => fetch(`${base}/sessions/${experts[1]!.sessionId}/availability`, { headers: mark })],
      ["POST /bookings", () => post(bookings[warm]!, mark)],
      ["POST /bookings, first on an expert", () => post(bookings[cold]!, mark)],
    ];
    for (const [name, call] of routes) {
      const statements = await capture(async () => {
        const answer = await call();
        if (answer.status >= 300) throw new Error(`${name} answered ${answer.status}: ${await answer.text()}`);
        await answer.text();
        // The append's NOTIFY leaves just after the reply: it is one of the request's statements.
        await new Promise((r) => setTimeout(r, 50));
      });
      queries[name] = { perRequest: statements.length, plans: await explain(checkPool, statements) };
    }
    // A row of the issue's table: statements per request, each one round trip.
    say(
      `  statements per request: ${Object.entries(queries)
        .map(([name, q]) => `${name} ${q.perRequest}`)
        .join("; ")}`,
    );

    // Bookings from MIXED_FROM on (each its own expert and hour) go to the mixed phase: each one
    // followed by 9 availability questions about the experts after it, who are not being booked.
    const whileBooking: LoadRequest[] = bookings
      .slice(MIXED_FROM, warmup)
      .flatMap((b, i) => [b, ...Array.from({ length: 9 }, (_, j) => availability[(MIXED_FROM + i + 1 + j) % availability.length]!)]);
    say(`  load: ${options.connections} connections, ${options.rounds} interleaved rounds of ${options.sliceSeconds} s per route`);
    const results = await loadFromChild({
      host: "127.0.0.1",
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      sliceSeconds: options.sliceSeconds,
      rounds: options.rounds,
      phases: [
        { name: "bare", port: barePort, requests: [{ method: "GET", path: "/bare" }], cycle: true },
        {
          name: "experts",
          port: apiPort,
          requests: [{ method: "GET", path: "/api/v1/experts", headers: { "accept-encoding": "gzip, deflate, br" } }],
          cycle: true,
        },
        { name: "experts-uncompressed", port: apiPort, requests: [{ method: "GET", path: "/api/v1/experts" }], cycle: true },
        { name: "availability", port: apiPort, requests: availability, cycle: true },
        { name: "availability-connected", port: apiPort, requests: connected.map(availabilityOf), cycle: true },
        { name: "bookings", port: apiPort, requests: bookings.filter((_, k) => k < MIXED_FROM && k !== warmup), cycle: false },
        { name: "availability-while-booking", port: apiPort, requests: whileBooking, cycle: false },
        { name: "bare-experts", port: barePort, requests: [{ method: "GET", path: "/bare-experts" }], cycle: true },
      ],
    });
    const listingsCache = { ...api.ctx.listings.stats };
    say(`  listings cache: ${JSON.stringify(listingsCache)}`);
    const b = results.bare!;
    const withRatio = (r: LoadResult) => ({ ...r, ratioToBare: ratio(r.requestsPerSecond, b.requestsPerSecond) });
    const experts_ = withRatio(results.experts!);
    const booked = withRatio(results.bookings!);
    const statements = queries["POST /bookings"]!.perRequest;
    const goals = BOOKING_GOALS;
    return {
      experts: options.experts,
      connections: options.connections,
      rounds: options.rounds,
      sliceSeconds: options.sliceSeconds,
      bare: b,
      getExperts: { ...experts_, bound: ">= 1/3 of the bare route's rate", pass: experts_.ratioToBare >= 1 / 3 },
      getExpertsUncompressed: withRatio(results["experts-uncompressed"]!),
      getAvailability: withRatio(results.availability!),
      getAvailabilityConnected: { ...withRatio(results["availability-connected"]!), ...CONNECTED },
      availabilityWhileBooking: withRatio(results["availability-while-booking"]!),
      postBookings: {
        ...booked,
        statements,
        statementsColdCalendar: queries["POST /bookings, first on an expert"]!.perRequest,
        goals,
        pass: {
          requestsPerSecond: booked.requestsPerSecond >= goals.requestsPerSecond,
          p99: booked.p99Ms <= goals.p99Ms,
          statements: statements <= goals.statements,
        },
      },
      bareServingExpertsBody: withRatio(results["bare-experts"]!),
      listingsCache,
      queries,
    };
  } finally {
    await checkPool.end();
    await bare.close();
    await api.stop();
    await database.drop();
    await rm(mediaDir, { recursive: true, force: true });
  }
}
