import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import Fastify from "fastify";
import pg from "pg";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { OK, databaseCheck, healthRoutes, kafkaCheck, readModelChecks, readinessOf } from "../src/health/index.ts";
import { processRegistries, serveMetrics, type MetricsEndpoint } from "../src/metrics/index.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { sampled } from "./prometheus-text.ts";

// /readyz turns red for each reason a process cannot do its job, and says which in JSON: the
// database unreachable, the read models too far behind, Kafka unreachable for the relay.

let api: TestApi;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await api?.close();
});

/** A port nothing listens on (taken and given back at once). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The API's health routes alone, over the given pool (buildApp would need the database to start). */
async function healthApp(db: pg.Pool, readyMaxLagEvents = 1000) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await healthRoutes(app, { db, store: api.ctx.store, readyMaxLagEvents });
  await app.ready();
  closing.push(() => app.close());
  return app;
}

const readyz = async (app: Awaited<ReturnType<typeof healthApp>>) => {
  const r = await app.inject({ method: "GET", url: "/readyz" });
  return { status: r.statusCode, body: r.json() as { status: string; checks: Record<string, string>; lagEvents: number | null } };
};

describe("the API's /readyz", () => {
  it("is ready with the database up and the read models caught up", async () => {
    const app = await healthApp(api.ctx.db);
    await vi.waitFor(async () => expect((await readyz(app)).status).toBe(200), { timeout: 20_000 });
    expect((await readyz(app)).body).toEqual({
      status: "ready",
      checks: { database: OK, readModels: OK, eventStore: OK, projectorLag: OK },
      lagEvents: 0,
    });
  });

  it("is red, naming the database, when the database cannot be reached", async () => {
    const unreachable = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/nowhere`, max: 1 });
    unreachable.on("error", () => undefined);
    closing.push(() => unreachable.end());
    const { status, body } = await readyz(await healthApp(unreachable));
    expect(status).toBe(503);
    expect(body.status).toBe("not_ready");
    expect(body.checks.database).toMatch(/^unreachable: .*ECONNREFUSED/);
    expect(body.checks.projectorLag).toBe("unknown: the database is unreachable");
    expect(body.lagEvents).toBeNull();
  });

  it("is red when its pool is gone (a process shutting down)", async () => {
    const ended = new pg.Pool({ connectionString: api.databaseUrl, max: 1 });
    await ended.end();
    const { status, body } = await readyz(await healthApp(ended));
    expect(status).toBe(503);
    expect(body.checks.database).toMatch(/^unreachable: /);
  });

  it("is red, naming the lag, when the read models are more than the bound behind", async () => {
    const app = await healthApp(api.ctx.db, 2);
    await vi.waitFor(async () => expect((await readyz(app)).status).toBe(200), { timeout: 20_000 });
    await api.stopProjector();
    for (let i = 0; i < 3; i++) await api.user("creator", { acceptTerms: false });
    // The log shows a commit to readers once no older transaction on the server is open (others' tests share it): wait for that.
    await vi.waitFor(async () => expect((await readyz(app)).status).toBe(503), { timeout: 20_000 });
    const { body } = await readyz(app);
    expect(body).toEqual({
      status: "not_ready",
      checks: { database: OK, readModels: OK, eventStore: OK, projectorLag: "more than 2 events behind" },
      lagEvents: 3,
    });
  });
});

describe("a background process's endpoint (METRICS_PORT)", () => {
  const settings = { token: null, host: "127.0.0.1", production: true };

  async function relayEndpoint(brokers: string[], token: string | null = null): Promise<MetricsEndpoint> {
    // As the relay process composes it: its database, and Kafka.
    const endpoint = await serveMetrics({
      settings: { ...settings, token, port: 0 },
      registries: processRegistries(api.ctx.db, api.ctx.store),
      readiness: async () => readinessOf({ database: await databaseCheck(api.ctx.db), kafka: await kafkaCheck(brokers) }),
    });
    closing.push(endpoint.close);
    return endpoint;
  }

  it("is red, naming Kafka, when the relay cannot reach it", async () => {
    const endpoint = await relayEndpoint([`127.0.0.1:${await closedPort()}`]);
    const r = await fetch(`${endpoint.url}/readyz`);
    expect(r.status).toBe(503);
    const body = (await r.json()) as { status: string; checks: Record<string, string> };
    expect(body.status).toBe("not_ready");
    expect(body.checks.database).toBe(OK);
    expect(body.checks.kafka).toMatch(/^unreachable: /);
    expect((await fetch(`${endpoint.url}/healthz`)).status).toBe(200);
  });

  it.skipIf(!process.env.KAFKA_BROKERS)("is ready while Kafka answers", async () => {
    expect(await kafkaCheck(process.env.KAFKA_BROKERS!.split(","))).toBe(OK);
  });

  it("serves the process's metrics on its port, with the token when one is set", async () => {
    const open = await relayEndpoint([]);
    const scrape = await fetch(`${open.url}/metrics`);
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(sampled(text, "booking_mail_outbox", { state: "due" })).toBe(0);
    expect(text).toContain("process_cpu_user_seconds_total");
    const token = "a-metrics-token-long-enough-1234";
    const guarded = await relayEndpoint([], token);
    expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it("counts the read model checks once the database answers, as the projector's endpoint does", async () => {
    const checks = await readModelChecks(api.ctx.db, api.ctx.store, 1_000_000);
    expect(checks.checks.eventStore).toBe(OK);
    expect(checks.lagEvents).not.toBeNull();
  });
});
