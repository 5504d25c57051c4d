import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@booking/testkit";
import { startTestApi, type TestApi } from "./harness.ts";
import { projectorCaughtUp, startProcess, waitFor, type Running } from "./processes.ts";
import { present, sampled } from "./prometheus-text.ts";

// "On each process": the projector and refunds processes, started as in the topology with
// METRICS_PORT, answer /readyz and /metrics there, and the projector's batches add up to the events
// it was given.

let api: TestApi;
const running: Running[] = [];

beforeAll(async () => {
  api = await startTestApi();
  // The projector process keeps the read models from here on.
  await api.stopProjector();
});

afterAll(async () => {
  for (const p of running) {
    p.child.kill("SIGTERM");
    await p.exited;
  }
  await api?.close();
});

async function started(name: string, env: Record<string, string> = {}): Promise<string> {
  const port = await freePort();
  const p = startProcess(name, { DATABASE_URL: api.databaseUrl, METRICS_PORT: String(port), METRICS_HOST: "127.0.0.1", ...env });
  running.push(p);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${name}'s /readyz`, async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, 60_000).catch(() => {
    throw new Error(`${name} never became ready:\n${p.output()}`);
  });
  return url;
}

const scrape = async (url: string) => {
  const r = await fetch(`${url}/metrics`);
  expect(r.status).toBe(200);
  return r.text();
};

describe("a background process's metrics", () => {
  it("the projector counts the events of its batches and reports no lag once caught up", async () => {
    const url = await started("projector", { PROJECTOR_BATCH_SIZE: "500" });
    // Caught up means at the log's head: the log needs an event for that.
    await api.user("creator", { acceptTerms: false });
    await waitFor("the projector to catch up", () => projectorCaughtUp(api.ctx.db, api.ctx.store));
    const before = await scrape(url);
    for (let i = 0; i < 7; i++) await api.user("creator", { acceptTerms: false });
    await waitFor("the projector to catch up", () => projectorCaughtUp(api.ctx.db, api.ctx.store));
    const after = await scrape(url);
    expect(sampled(after, "booking_projector_batch_events_sum") - sampled(before, "booking_projector_batch_events_sum")).toBe(7);
    expect(sampled(after, "booking_projector_lag_events")).toBe(0);
    expect(present(after, "booking_projector_lag_events", { read_model: "users", partition: "all" })).toBe(true);
    const ready = (await (await fetch(`${url}/readyz`)).json()) as { checks: Record<string, string> };
    expect(ready.checks).toEqual({ database: "ok", readModels: "ok", eventStore: "ok", projectorLag: "ok" });
  });

  it("the refunds process reports refunds and payouts pending and failed", async () => {
    const url = await started("refunds");
    const text = await scrape(url);
    expect(present(text, "booking_refunds", { state: "failed" })).toBe(true);
    expect(present(text, "booking_payouts", { kind: "payout", state: "failed" })).toBe(true);
    expect(text).toContain("process_resident_memory_bytes");
  });
});
