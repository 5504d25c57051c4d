import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, refusal } from "@booking/contracts";
import { createTestDatabase, freePort } from "@booking/testkit";
import { buildApp } from "../src/main/app.ts";
import { attemptsPerMinute } from "../src/auth/routes.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";
import { startProcess, waitFor, type Running } from "./processes.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 26.13: the per-address limits on the credential routes are counted where every API
// process sees them (a table in Postgres by default, Redis when REDIS_URL is set), so N replicas
// do not give an address N times the attempts.

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/**
 * A request to a route limited per address (early access, limited like sign-in), from `from`. Its
 * body is refused after the limit is counted, so a hit costs no password hash on a loaded machine.
 */
const limitedHit = (app: FastifyInstance, from: string) =>
  app.inject({ method: "POST", url: "/api/v1/early-access", headers: { "x-forwarded-for": from }, payload: {} });

describe("two apps over one database", () => {
  let api: TestApi;
  let second: FastifyInstance;
  beforeAll(async () => {
    api = await startTestApi();
    cleanups.push(() => api.close());
    second = await buildApp({ ...api.ctx }, { trustProxy: true });
    cleanups.push(() => second.close());
  });

  it("count one address's attempts together: the limit trips at the shared count, and another address is not affected", async () => {
    const max = attemptsPerMinute();
    const apps = [api.app, second];
    const statuses: number[] = [];
    for (let i = 0; i < max; i++) statuses.push((await limitedHit(apps[i % 2]!, "203.0.113.7")).statusCode);
    expect(statuses).toEqual(statuses.map(() => 400));
    for (const app of apps) {
      const over = await limitedHit(app, "203.0.113.7");
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual(errorBody(refusal("over_request_rate_limit")));
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect((await limitedHit(second, "203.0.113.8")).statusCode).toBe(400);
  });
});

/** Whether Redis answers on REDIS_URL (default: its default port here). */
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const redisUp = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
  socket.on("connect", () => (socket.end(), resolve(true)));
  socket.on("error", () => resolve(false));
});

describe.runIf(redisUp)("two apps with REDIS_URL", () => {
  it("count one address's attempts together in Redis", async () => {
    const api = await startTestApi();
    cleanups.push(() => api.close());
    const apps = await Promise.all([1, 2].map(() => buildApp({ ...api.ctx }, { trustProxy: true, redisUrl })));
    for (const app of apps) cleanups.push(() => app.close());
    // An address of its own per run: Redis outlives the test's database.
    const from = `2001:db8:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}::1`;
    const max = attemptsPerMinute();
    const statuses: number[] = [];
    for (let i = 0; i < max; i++) statuses.push((await limitedHit(apps[i % 2]!, from)).statusCode);
    expect(statuses).toEqual(statuses.map(() => 400));
    expect((await limitedHit(apps[0]!, from)).statusCode).toBe(429);
    expect((await limitedHit(apps[1]!, from)).statusCode).toBe(429);
    // Nothing was counted in Postgres.
    expect((await api.ctx.db.query("SELECT count(*)::int AS n FROM rate_limit_hits")).rows[0]).toEqual({ n: 0 });
  });
});

describe("with REDIS_URL but no Redis answering", () => {
  it("count in Postgres meanwhile: still together, and never a 5xx", async () => {
    const api = await startTestApi();
    cleanups.push(() => api.close());
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const apps = await Promise.all([1, 2].map(() => buildApp({ ...api.ctx }, { trustProxy: true, redisUrl: nowhere })));
    for (const app of apps) cleanups.push(() => app.close());
    const max = attemptsPerMinute();
    const statuses: number[] = [];
    for (let i = 0; i < max; i++) statuses.push((await limitedHit(apps[i % 2]!, "203.0.113.9")).statusCode);
    expect(statuses).toEqual(statuses.map(() => 400));
    expect((await limitedHit(apps[1]!, "203.0.113.9")).statusCode).toBe(429);
  });
});

describe("two API processes on one database", () => {
  it("count one address's attempts together: hits split between them trip the limit at the shared count", async () => {
    const db = await createTestDatabase(testPostgresUrl(), "ratelimits");
    cleanups.push(db.drop);
    const media = await mkdtemp(join(tmpdir(), "ratelimits-media-"));
    cleanups.push(() => rm(media, { recursive: true, force: true }));
    const max = 6;
    const ports = [await freePort(), await freePort()];
    const env = (port: number) => ({
      DATABASE_URL: db.url,
      JWT_SECRET: TEST_JWT_SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      MEDIA_DIR: media,
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT_MAX: String(max),
    });
    const apis: Running[] = ports.map((port) => startProcess("api", env(port)));
    for (const a of apis) cleanups.push(async () => a.child.kill("SIGKILL"));
    const base = ports.map((p) => `http://127.0.0.1:${p}/api/v1`);
    for (const b of base)
      await waitFor(`the API at ${b}`, async () => (await fetch(`${b}/healthz`).catch(() => null))?.status === 200, 180_000);

    const login = async (b: string) => {
      const r = await fetch(`${b}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `nobody-${randomUUID()}@example.com`, password: "not-the-password-1" }),
      });
      return { status: r.status, retryAfter: r.headers.get("retry-after"), body: (await r.json()) as unknown };
    };
    const answers = [];
    for (let i = 0; i < max; i++) answers.push(await login(base[i % 2]!));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 401));
    for (const b of base) {
      const over = await login(b);
      expect(over.status, apis.map((a) => a.output()).join("\n")).toBe(429);
      expect(over.body).toEqual(errorBody(refusal("over_request_rate_limit")));
      expect(Number(over.retryAfter)).toBeGreaterThan(0);
    }
  }, 300_000);
});
