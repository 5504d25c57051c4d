import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import pg from "pg";
import { MAX_UNPAID_HOLDS_PER_CREATOR } from "@booking/contracts";
import { PostgresEventStore } from "@booking/event-store";
import { createTestDatabase, freePort } from "@booking/testkit";
import { apiConfig } from "../../api/src/config.ts";
import type { ReplyCacheStats } from "../../api/src/reply-cache.ts";
import { runApi } from "../../api/src/server.ts";
import { projectorCaughtUp, waitFor } from "../../api/test/processes.ts";
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
  postBookings: RouteFigure;
  /** The /experts body served from memory (as a string) by the bare server: about the most a cached listing can reach. */
  bareServingExpertsBody: LoadResult & { ratioToBare: number };
  /** The API's cache of the /experts reply over the whole run (warm-up and the capture below included). */
  listingsCache: ReplyCacheStats;
  /** The statements each route sends (one round trip each), with EXPLAIN ANALYZE of every read. */
  queries: Record<string, { perRequest: number; plans: QueryPlan[] }>;
};

type Captured = { text: string; values: unknown[] };

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
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  const seen: Captured[] = [];
  proto.query = function (this: unknown, ...a: unknown[]) {
    const [q, v] = a as [string | { text?: string; values?: unknown[] }, unknown];
    if (!capturing.getStore()) return original.apply(this, a);
    if (typeof q === "string") seen.push({ text: q, values: Array.isArray(v) ? v : [] });
    else if (q && typeof q === "object" && typeof q.text === "string") seen.push({ text: q.text, values: q.values ?? (Array.isArray(v) ? v : []) });
    return original.apply(this, a);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
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
    const read = /^\s*(SELECT|WITH)\b/i.test(c.text) && !/\bFOR UPDATE\b|pg_notify|\b(INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/i.test(c.text);
    if (!read) {
      plans.push({ sql: sql.slice(0, 160), calls, executionMs: null, seqScans: [], plan: "(a write or a transaction statement: not explained)" });
      continue;
    }
    try {
      const { rows } = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${c.text}`, c.values);
      const lines = rows.map((r) => r["QUERY PLAN"]);
      const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(lines.join("\n"))?.[1] ?? Number.NaN);
      plans.push({ sql: sql.slice(0, 160), calls, executionMs, seqScans: lines.filter((l) => /Seq Scan/.test(l)).map((l) => l.trim().replace(/\s+\(cost.*$/, "")), plan: lines.slice(0, 12).join("\n") });
    } catch (e) {
      plans.push({ sql: sql.slice(0, 160), calls, executionMs: null, seqScans: [], plan: `EXPLAIN failed: ${(e as Error).message}` });
    }
  }
  return plans;
}

export async function benchApi(serverUrl: string, options: { experts: number; creators: number; connections: number; rounds: number; sliceSeconds: number; warmupSeconds: number }): Promise<ApiFigure> {
  const database = await createTestDatabase(serverUrl, "bench_api");
  const mediaDir = await mkdtemp(join(tmpdir(), "bench-media-"));
  const seedStore = await PostgresEventStore.connect(database.url);
  const start = new Date(Date.now() + 2 * 3_600_000);
  const at = new Date(Date.now() - 86_400_000).toISOString();
  say(`  seeding ${options.experts} experts (profile, published session, schedule) and ${options.creators} creators`);
  const experts = await seedExperts(seedStore, options.experts, at, { schedule: WORKING_HOURS_UTC });
  const creators = await seedCreators(seedStore, options.creators, at);
  await seedStore.close();

  const config = apiConfig.parse({ DATABASE_URL: database.url, PORT: String(await freePort()), HOST: "127.0.0.1", JWT_SECRET: randomBytes(32).toString("hex"), MEDIA_DIR: mediaDir });
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
    const apiPort = Number(new URL(api.url).port);
    const base = `http://127.0.0.1:${apiPort}/api/v1`;
    const listing = await fetch(`${base}/experts`);
    expertsBody = await listing.text();
    say(`  GET /experts answers ${listing.status} with ${(JSON.parse(expertsBody) as unknown[]).length} experts, ${expertsBody.length} bytes`);

    const tokens = creators.map((c) => api.app.jwt.sign({ sub: c.userId, role: "creator", email: c.email }));
    const availability: LoadRequest[] = experts.map((e) => ({ method: "GET", path: `/api/v1/sessions/${e.sessionId}/availability` }));
    // Distinct hours: booking k goes to expert k mod 1,000, at working hour floor(k / 1,000) from two hours from now.
    // A creator keeps at most MAX_UNPAID_HOLDS_PER_CREATOR unpaid holds, never two at one hour: creator
    // (k mod 1,000) + 1,000 × floor(hour / 3) books one expert's column for three consecutive hours.
    const hours = Array.from({ length: Math.ceil(30_000 / experts.length) }, (_, n) => workingHour(start, n).toISOString());
    const creatorOf = (k: number) => (k % experts.length) + experts.length * Math.floor(Math.floor(k / experts.length) / MAX_UNPAID_HOLDS_PER_CREATOR);
    const bookings: LoadRequest[] = Array.from({ length: 30_000 }, (_, k) => ({
      method: "POST",
      path: "/api/v1/bookings",
      headers: { authorization: `Bearer ${tokens[creatorOf(k) % tokens.length]}` },
      body: JSON.stringify({ session_id: experts[k % experts.length]!.sessionId, scheduled_time: hours[Math.floor(k / experts.length)] }),
    }));
    const probe = await fetch(`${base}/bookings`, { method: "POST", headers: { "content-type": "application/json", ...bookings[bookings.length - 1]!.headers }, body: bookings[bookings.length - 1]!.body });
    if (probe.status !== 201) throw new Error(`POST /bookings probe answered ${probe.status}: ${await probe.text()}`);

    // The statements each route sends, and their plans (on the seeded data).
    const queries: ApiFigure["queries"] = {};
    markCapturedRequests(api.app.server);
    const mark = { "x-bench-capture": "1" };
    const routes: [string, () => Promise<Response>][] = [
      // The first after the probe's booking moved the read models (a miss), then one served from the cache.
      ["GET /experts", () => fetch(`${base}/experts`, { headers: mark })],
      ["GET /experts, again", () => fetch(`${base}/experts`, { headers: mark })],
      ["GET /sessions/{id}/availability", () => fetch(`${base}/sessions/${experts[1]!.sessionId}/availability`, { headers: mark })],
      ["POST /bookings", () => fetch(`${base}/bookings`, { method: "POST", headers: { "content-type": "application/json", ...mark, ...bookings[bookings.length - 2]!.headers }, body: bookings[bookings.length - 2]!.body })],
    ];
    for (const [name, call] of routes) {
      const statements = await capture(async () => void (await (await call()).text()));
      queries[name] = { perRequest: statements.length, plans: await explain(checkPool, statements) };
    }
    // A row of the issue's table: statements per request, each one round trip.
    say(`  statements per request: ${Object.entries(queries).map(([name, q]) => `${name} ${q.perRequest}`).join("; ")}`);

    say(`  load: ${options.connections} connections, ${options.rounds} interleaved rounds of ${options.sliceSeconds} s per route`);
    const results = await loadFromChild({
      host: "127.0.0.1",
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      sliceSeconds: options.sliceSeconds,
      rounds: options.rounds,
      phases: [
        { name: "bare", port: barePort, requests: [{ method: "GET", path: "/bare" }], cycle: true },
        { name: "experts", port: apiPort, requests: [{ method: "GET", path: "/api/v1/experts", headers: { "accept-encoding": "gzip, deflate, br" } }], cycle: true },
        { name: "experts-uncompressed", port: apiPort, requests: [{ method: "GET", path: "/api/v1/experts" }], cycle: true },
        { name: "availability", port: apiPort, requests: availability, cycle: true },
        { name: "bookings", port: apiPort, requests: bookings.slice(0, -2), cycle: false },
        { name: "bare-experts", port: barePort, requests: [{ method: "GET", path: "/bare-experts" }], cycle: true },
      ],
    });
    const listingsCache = { ...api.ctx.listings.stats };
    say(`  listings cache: ${JSON.stringify(listingsCache)}`);
    const b = results.bare!;
    const withRatio = (r: LoadResult) => ({ ...r, ratioToBare: ratio(r.requestsPerSecond, b.requestsPerSecond) });
    const experts_ = withRatio(results.experts!);
    return {
      experts: options.experts,
      connections: options.connections,
      rounds: options.rounds,
      sliceSeconds: options.sliceSeconds,
      bare: b,
      getExperts: { ...experts_, bound: ">= 1/3 of the bare route's rate", pass: experts_.ratioToBare >= 1 / 3 },
      getExpertsUncompressed: withRatio(results["experts-uncompressed"]!),
      getAvailability: withRatio(results.availability!),
      postBookings: withRatio(results.bookings!),
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
