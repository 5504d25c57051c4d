import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSISTENCY_POSITION_HEADER, type ProjectionRecord } from "@booking/contracts";
import {
  allProjections,
  bookingsProjection,
  migrateReadModels,
  readCheckpoints,
  readModelDigest,
  rebuildProjections,
} from "@booking/projections";
import { createTestDatabase } from "@booking/testkit";
import { ALL_WEEK_UTC, seedCreators, seedExperts } from "../../bench/lib/seed.ts";
import { incomplete, readContinuously } from "../../projections/test/generation-reader.ts";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import type { Queryable } from "../src/payments/payments-table.ts";
import { bookableHour, since, startBookingLoad, type BookableExpert, type LoadCall, type LoadReport } from "./booking-load.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { projectorCaughtUp, sleep, startProcess, waitFor } from "./processes.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Blue-green rebuilds under load: while creators book, pay, confirm and cancel through the API
// (and visitors list the experts), every read model is rebuilt (`npm run replay`, another
// process) and then one through the console's Rebuild. No request fails, every read sees a whole
// generation (a reader compares row counts with the log), and the result equals a clean replay.

let api: TestApi;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
let experts: BookableExpert[];
let creatorTokens: string[];
let call: LoadCall;

/** Bookings start two hours from now or later. */
const firstHour = Date.now() + 2 * 3_600_000;

beforeAll(async () => {
  api = await startTestApi({ payments: new TestPaymentProvider(lazyDb) });
  const at = new Date(Date.now() - 86_400_000).toISOString();
  const store = api.ctx.store;
  // About 10,000 events: synthetic experts' histories, bookable experts, and creators who accepted the terms.
  await appendSynthetic(store, 5_800);
  const seeded = await seedExperts(store, 20, at, { schedule: ALL_WEEK_UTC });
  const creators = await seedCreators(store, 2_000, at);
  experts = seeded.map((e) => ({
    ...e,
    token: api.app.jwt.sign({ sub: e.expertId, role: "expert", email: `${e.expertId}@bench.example`, sid: randomUUID() }),
  }));
  creatorTokens = creators.map((c) => api.app.jwt.sign({ sub: c.userId, role: "creator", email: c.email, sid: randomUUID() }));
  call = async (method, path, o = {}) => {
    const r = await api.app.inject({
      method,
      url: path,
      headers: { ...(o.token && { authorization: `Bearer ${o.token}` }), ...(o.position && { [CONSISTENCY_POSITION_HEADER]: o.position }) },
      ...(o.body === undefined ? {} : { payload: o.body as object }),
    });
    return { status: r.statusCode, body: r.body, position: (r.headers[CONSISTENCY_POSITION_HEADER] as string | undefined) ?? null };
  };
  await waitFor("the projector to catch up with the seed", () => projectorCaughtUp(api.ctx.db, store), 120_000);
}, 300_000);

afterAll(async () => api?.close());

/** Booking n (k after `from`): its own creator, expert n mod 20, at the (n div 20)-th hour: each test books from its own `from`. */
const load = (from: number) =>
  startBookingLoad(call, {
    bookers: 4,
    listers: 2,
    slots: (k) =>
      from + k < creatorTokens.length
        ? { expert: experts[(from + k) % experts.length]!, scheduledTime: bookableHour(firstHour, Math.floor((from + k) / experts.length)) }
        : null,
    creatorOf: (k) => ({ token: creatorTokens[from + k]! }),
  });

const p99 = (ms: number[]) =>
  ms.length ? [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]!.toFixed(0) : "-";
const failures = (report: LoadReport) =>
  Object.entries(report.routes)
    .filter(([, r]) => r.failed > 0)
    .map(([route, r]) => `${route}: ${r.failed} failed, first ${r.firstFailure}`);

async function cleanDigest() {
  const clean = await createTestDatabase(testPostgresUrl(), "bgclean");
  const pool = new pg.Pool({ connectionString: clean.url, max: 4 });
  pool.on("error", () => undefined);
  try {
    await migrateReadModels(pool);
    await rebuildProjections(api.ctx.store, pool, allProjections);
    return await readModelDigest(pool);
  } finally {
    await pool.end();
    await clean.drop();
  }
}

describe("blue-green rebuilds while creators book, pay, confirm and cancel", () => {
  it("`npm run replay` of every read model: no request fails, every read is a whole generation, the result equals a clean replay", async () => {
    const traffic = load(0);
    const reader = readContinuously(api.ctx.db, api.ctx.db);
    await sleep(1_000);
    const before = traffic.report();
    const replay = startProcess("replay", { DATABASE_URL: api.databaseUrl });
    const code = await replay.exited;
    expect(code, replay.output()).toBe(0);
    const during = since(traffic.report(), before);
    await sleep(500);
    const report = await traffic.stop();
    await waitFor("the projector to catch up", () => projectorCaughtUp(api.ctx.db, api.ctx.store), 60_000);
    const reads = await reader.stop();

    console.log(
      `[blue-green under load] ${report.bookings} bookings in ${report.seconds.toFixed(1)} s; during the replay: ${Object.entries(during)
        .map(([route, r]) => `${route} ${r.requests} (p99 ${p99(r.latenciesMs)} ms)`)
        .join(", ")}; ${reads.length} reads checked`,
    );
    expect(failures(report)).toEqual([]);
    expect(during["POST /bookings"]!.requests).toBeGreaterThan(0);
    expect(during["PATCH /bookings/{id}/status"]!.requests).toBeGreaterThan(0);
    expect(during["GET /experts"]!.requests).toBeGreaterThan(0);
    expect(incomplete(reads)).toEqual([]);
    expect(reads.some((r) => r.generation === 1) && reads.some((r) => r.generation === 2)).toBe(true);
    expect(new Set((await readCheckpoints(api.ctx.db)).map((c) => `${c.status} g${c.generation}`))).toEqual(new Set(["live g2"]));
    expect(await readModelDigest(api.ctx.db)).toEqual(await cleanDigest());
  }, 300_000);

  it("the console's Rebuild: GET /admin/projections shows the live generation serving and the new one's progress, then the switch", async () => {
    const admin = await api.user("admin");
    const traffic = load(1_000);
    const view = async () => (await api.call("GET", "/api/v1/admin/projections/bookings", { user: admin })).json<ProjectionRecord>();
    const started = await api.call("POST", "/api/v1/admin/projections/bookings/rebuild", { user: admin });
    expect(started.statusCode).toBe(202);
    const seen: ProjectionRecord[] = [];
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(10)) {
      const record = await view();
      seen.push(record);
      if (record.rebuild?.state !== "running") break;
    }
    const report = await traffic.stop();
    expect(failures(report)).toEqual([]);

    const building = seen.filter((r) => r.generations.some((g) => g.state === "building" && g.events_applied > 0));
    expect(building.length).toBeGreaterThan(0);
    // While the next generation is built, the one before is live: serving, projected, and the new one's progress is counted against the head.
    const live = started.json<ProjectionRecord>().generations[0]!.generation;
    for (const r of building) {
      expect(r.generations[0]).toMatchObject({ generation: live, state: "live", tables: ["bookings"] });
      expect(r.generations[1]).toMatchObject({
        generation: live + 1,
        state: "building",
        version: bookingsProjection.version,
        tables: [`bookings__g${live + 1}`],
        running: true,
      });
      expect(r.generations[1]!.events_applied).toBeLessThanOrEqual(r.head_events!);
    }
    const last = seen.at(-1)!;
    expect(last.rebuild).toMatchObject({ state: "done" });
    expect(last.generations.map((g) => `g${g.generation} ${g.state} ${g.tables.join(",")}`)).toEqual([
      `g${live + 1} live bookings`,
      `g${live} retired bookings__g${live}`,
    ]);
    await waitFor("the projector to catch up", () => projectorCaughtUp(api.ctx.db, api.ctx.store), 60_000);
    const clean = await cleanDigest();
    expect(await readModelDigest(api.ctx.db, ["bookings"])).toEqual({ bookings: clean.bookings });
  }, 300_000);
});
