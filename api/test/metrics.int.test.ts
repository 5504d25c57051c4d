import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FastifyInstance } from "fastify";
import { CURRENT_TERMS_VERSION, type CalendarCommand } from "@booking/contracts";
import { calendarDecider, calendarSnapshots, calendarStream, termsStream } from "@booking/engine";
import { PostgresRelayCheckpoints, PostgresSnapshotStore } from "@booking/event-store";
import { freePort } from "@booking/testkit";
import { buildApp } from "../src/main/app.ts";
import { commandHandlers } from "../src/main/commands.ts";
import { CountedCommandHandler, snapshotReadsCounted } from "../src/metrics/index.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { heldBooking } from "./paid-booking.ts";
import { present, sampled } from "./prometheus-text.ts";

// Scrape after a known load: every counter moved by exactly what the load did, and the gauges read
// from the tables say what the tables hold. Counters are process-wide, so each test compares a
// scrape before its load with one after; the gauges are absolute (each run has a database of its own).

const V1 = "/api/v1";
let api: TestApi;
const variants: FastifyInstance[] = [];

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  for (const v of variants) await v.close();
  await api?.close();
});

async function scrape(app: FastifyInstance = api.app): Promise<string> {
  const r = await app.inject({ method: "GET", url: "/metrics" });
  expect(r.statusCode, r.body).toBe(200);
  expect(r.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.body;
}

describe("metrics after a known load", () => {
  it("count requests by route pattern and status, and commands by type and outcome, exactly", async () => {
    const creator = await api.user("creator", { acceptTerms: false });
    const before = await scrape();
    const someId = randomUUID();
    for (let i = 0; i < 5; i++) expect((await api.call("GET", `${V1}/healthz`)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await api.call("GET", `${V1}/bookings/${someId}`)).statusCode).toBe(401);
    expect((await api.call("GET", `${V1}/no-such-route/${someId}`)).statusCode).toBe(404);
    const accept = (version: string) => api.call("POST", `${V1}/terms/accept`, { user: creator, body: { version_id: version } });
    expect((await accept(CURRENT_TERMS_VERSION)).statusCode).toBe(200);
    // Again: accepted, with nothing new to write.
    expect((await accept(CURRENT_TERMS_VERSION)).statusCode).toBe(200);
    expect((await accept("an-old-version")).statusCode).toBe(400);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string>) => sampled(after, name, labels) - sampled(before, name, labels);
    const healthz = { method: "GET", route: `${V1}/healthz`, status: "200" };
    expect(moved("booking_http_requests_total", healthz)).toBe(5);
    expect(moved("booking_http_request_duration_seconds_count", healthz)).toBe(5);
    expect(moved("booking_http_request_duration_seconds_bucket", { ...healthz, le: "+Inf" })).toBe(5);
    expect(moved("booking_http_requests_total", { method: "GET", route: `${V1}/bookings/:id`, status: "401" })).toBe(2);
    expect(moved("booking_http_requests_total", { route: "unmatched", status: "404" })).toBe(1);
    expect(moved("booking_http_requests_total", { method: "POST", route: `${V1}/terms/accept`, status: "200" })).toBe(2);
    expect(moved("booking_http_requests_total", { method: "POST", route: `${V1}/terms/accept`, status: "400" })).toBe(1);
    // Route patterns, never what the client sent: no id reaches a label.
    expect(after).not.toContain(someId);
    expect(after).not.toContain(creator.id);

    const terms = { handler: "terms", command: "AcceptTerms" };
    expect(moved("booking_commands_total", { ...terms, outcome: "accepted" })).toBe(2);
    expect(moved("booking_commands_total", { ...terms, outcome: "refused", reason: "terms_version_unknown" })).toBe(1);
    expect(moved("booking_commands_total", { ...terms, outcome: "conflict" })).toBe(0);
    // One of the three wrote one event.
    expect(moved("booking_append_events_count", { handler: "terms" })).toBe(1);
    expect(moved("booking_append_events_sum", { handler: "terms" })).toBe(1);
  });

  it("count a booking's commands, the conflicts a handler retried, and snapshot hits and misses", async () => {
    const before = await scrape();
    // A booking held through the calendar (its first command loads the calendar cold: one snapshot miss).
    await heldBooking(api);
    // Two processes' handlers on one stream: the second write of the first handler meets the other's and is decided again.
    const userId = randomUUID();
    const [one, other] = [commandHandlers(api.ctx.store, api.ctx.clock), commandHandlers(api.ctx.store, api.ctx.clock)];
    const actor = { userId, role: "creator" as const };
    const acceptVersion = (handlers: typeof one, v: string) =>
      handlers.terms.handle(termsStream(userId), { type: "AcceptTerms", userId, actor, versionId: v, currentVersionId: v }, { actor });
    expect((await acceptVersion(one, "v1")).ok).toBe(true);
    expect((await acceptVersion(other, "v2")).ok).toBe(true);
    expect((await acceptVersion(one, "v3")).ok).toBe(true);
    // A snapshot read back by a handler that has not held the calendar: a hit.
    const snapshots = snapshotReadsCounted(await PostgresSnapshotStore.connect(api.ctx.db));
    const expertId = `ex-${randomUUID()}`;
    const schedule: CalendarCommand = {
      type: "SetSchedule",
      expertId,
      actor: { userId: "admin", role: "admin" },
      schedule: { timezone: "UTC", slots: [{ weekday: "monday", start_local: "09:00", end_local: "17:00" }] },
    };
    const writer = new CountedCommandHandler("calendar", api.ctx.store, calendarDecider, {
      snapshots: { store: snapshots, codec: calendarSnapshots, every: 1 },
    });
    expect((await writer.handle(calendarStream(expertId), schedule)).ok).toBe(true);
    await writer.snapshotsWritten();
    const reader = new CountedCommandHandler("calendar", api.ctx.store, calendarDecider, {
      snapshots: { store: snapshots, codec: calendarSnapshots },
    });
    expect((await reader.handle(calendarStream(expertId), schedule)).ok).toBe(true);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string>) => sampled(after, name, labels) - sampled(before, name, labels);
    expect(moved("booking_commands_total", { handler: "calendar", command: "RequestBooking", outcome: "accepted" })).toBe(1);
    expect(moved("booking_commands_total", { handler: "calendar", command: "SetSchedule", outcome: "accepted" })).toBe(3);
    // Three here, and heldBooking's expert and creator accepting the terms through the API.
    expect(moved("booking_commands_total", { handler: "terms", command: "AcceptTerms", outcome: "accepted" })).toBe(5);
    expect(moved("booking_command_conflicts_retried_total", { handler: "terms", command: "AcceptTerms" })).toBe(1);
    expect(moved("booking_command_conflicts_retried_total", { handler: "calendar" })).toBe(0);
    expect(moved("booking_append_events_sum", { handler: "terms" })).toBe(5);
    // heldBooking's calendar (cold, no snapshot) and the writer's new calendar missed; the reader hit.
    expect(moved("booking_snapshot_reads_total", { result: "miss" })).toBe(2);
    expect(moved("booking_snapshot_reads_total", { result: "hit" })).toBe(1);
  });

  it("read the outbox, refunds, payouts and holds from their tables", async () => {
    const { db } = api.ctx;
    const mail = (id: string, status: string, sendAfter: string) =>
      db.query(
        `INSERT INTO mail_outbox (message_id, kind, essential, to_address, subject, text_body, html_body, send_after, created_at, status)
         VALUES ($1, 'test', true, 'someone@example.com', 's', 't', 'h', now() + $3::interval, now(), $2)`,
        [`m-${id}-${randomUUID()}`, status, sendAfter],
      );
    await mail("due", "pending", "-10 minutes");
    await mail("due", "pending", "-1 minute");
    await mail("scheduled", "pending", "1 day");
    await mail("failed", "failed", "-1 hour");
    await mail("sent", "sent", "-2 hours");
    const refund = (status: string) =>
      db.query(
        `INSERT INTO refunds (refund_key, booking_id, expert_id, amount_cents, reason, owed_at, status, next_attempt_at)
         VALUES ($1, 'b', 'e', 100, 'test', now(), $2, now())`,
        [randomUUID(), status],
      );
    for (const status of ["pending", "failed", "failed", "issued"]) await refund(status);
    const payout = (status: string) =>
      db.query(
        `INSERT INTO payout_payouts (payout_key, expert_id, amount_cents, currency, by, status, next_attempt_at, requested_at)
         VALUES ($1, 'e', 100, 'USD', 'expert', $2, now(), now())`,
        [randomUUID(), status],
      );
    for (const status of ["requested", "in_transit", "failed", "paid"]) await payout(status);
    // Two holds (the earlier test's and this one), one of them past its time and not yet swept.
    const held = await heldBooking(api);
    await db.query("UPDATE bookings SET held_until = now() - interval '1 minute' WHERE booking_id = $1", [held.bookingId]);

    const text = await scrape();
    expect(sampled(text, "booking_mail_outbox", { state: "due" })).toBe(2);
    expect(sampled(text, "booking_mail_outbox", { state: "scheduled" })).toBe(1);
    expect(sampled(text, "booking_mail_outbox", { state: "failed" })).toBe(1);
    const oldest = sampled(text, "booking_mail_outbox_oldest_due_seconds");
    expect(oldest).toBeGreaterThanOrEqual(600);
    expect(oldest).toBeLessThan(900);
    expect(sampled(text, "booking_refunds", { state: "pending" })).toBe(1);
    expect(sampled(text, "booking_refunds", { state: "failed" })).toBe(2);
    expect(sampled(text, "booking_payouts", { kind: "payout", state: "pending" })).toBe(2);
    expect(sampled(text, "booking_payouts", { kind: "payout", state: "failed" })).toBe(1);
    expect(sampled(text, "booking_payouts", { kind: "transfer", state: "pending" })).toBe(0);
    expect(present(text, "booking_payouts", { kind: "transfer", state: "pending" })).toBe(true);
    expect(sampled(text, "booking_holds", { state: "active" })).toBe(1);
    expect(sampled(text, "booking_holds", { state: "expired" })).toBe(1);
    // Nothing a person wrote or is reached at.
    expect(text).not.toContain("someone@example.com");
  });

  it("summarise the key figures for the console, for admins only", async () => {
    const admin = await api.user("admin");
    const creator = await api.user("creator");
    expect((await api.call("GET", `${V1}/admin/metrics-summary`)).statusCode).toBe(401);
    expect((await api.call("GET", `${V1}/admin/metrics-summary`, { user: creator })).statusCode).toBe(403);
    const r = await api.call("GET", `${V1}/admin/metrics-summary`, { user: admin });
    expect(r.statusCode, r.body).toBe(200);
    const summary = r.json() as Record<string, unknown>;
    // The same figures as the scrape (the tables of the test before).
    expect(summary).toMatchObject({
      outbox_due: 2,
      refunds_pending: 1,
      refunds_failed: 2,
      payouts_pending: 2,
      payouts_failed: 1,
      holds_active: 1,
      holds_expired: 1,
    });
    expect(summary.requests).toBe(sampled(await scrape(), "booking_http_requests_total") - 1);
  });

  it("report each read model's lag behind the log, and the relay's", async () => {
    // The running projector first catches up with the writes above.
    await vi.waitFor(async () => expect(sampled(await scrape(), "booking_projector_lag_events")).toBe(0), { timeout: 20_000 });
    const text = await scrape();
    expect(present(text, "booking_projector_lag_events", { read_model: "bookings", partition: "all" })).toBe(true);
    const relay = await PostgresRelayCheckpoints.connect(api.ctx.db);
    await relay.save("relay", (await api.ctx.store.headPosition())!);
    await api.stopProjector();
    for (let i = 0; i < 3; i++) await api.user("creator", { acceptTerms: false });
    // The age is read through the log, which shows a commit once no older transaction on the server is open: wait for that.
    await vi.waitFor(
      async () => expect(sampled(await scrape(), "booking_projector_lag_seconds", { read_model: "users" })).toBeGreaterThan(0),
      {
        timeout: 20_000,
      },
    );
    const lagging = await scrape();
    expect(sampled(lagging, "booking_projector_lag_events", { read_model: "bookings" })).toBe(3);
    expect(sampled(lagging, "booking_projector_lag_events", { read_model: "users" })).toBe(3);
    expect(sampled(lagging, "booking_projector_lag_seconds", { read_model: "users" })).toBeGreaterThan(0);
    expect(sampled(lagging, "booking_relay_lag_events", { relay: "relay" })).toBe(3);
    expect(present(lagging, "booking_relay_lag_seconds", { relay: "relay" })).toBe(true);
  });
});

describe("who may read /metrics", () => {
  const settings = { token: null, port: null, host: "127.0.0.1", production: false };

  it("asks for METRICS_TOKEN as a bearer token when one is set", async () => {
    const token = "a-metrics-token-long-enough-1234";
    const app = await buildApp(api.ctx, { metrics: { ...settings, token, production: true } });
    variants.push(app);
    const get = (headers: Record<string, string> = {}) => app.inject({ method: "GET", url: "/metrics", headers });
    const none = await get();
    expect(none.statusCode).toBe(401);
    expect(none.headers["www-authenticate"]).toBe("Bearer");
    expect((await get({ authorization: "Bearer not-the-token" })).statusCode).toBe(401);
    expect((await get({ authorization: `Basic ${token}` })).statusCode).toBe(401);
    const ok = await get({ authorization: `Bearer ${token}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain("booking_http_requests_total");
  });

  it("answers nobody in production without a token, and only loopback callers elsewhere", async () => {
    const production = await buildApp(api.ctx, { metrics: { ...settings, production: true } });
    const development = await buildApp(api.ctx, { metrics: settings });
    variants.push(production, development);
    expect((await production.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
    expect((await development.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(200);
    expect((await development.inject({ method: "GET", url: "/metrics", remoteAddress: "203.0.113.7" })).statusCode).toBe(404);
    // A forwarded address claiming loopback does not count: the connection's own address decides.
    const forwarded = await development.inject({
      method: "GET",
      url: "/metrics",
      remoteAddress: "203.0.113.7",
      headers: { "x-forwarded-for": "127.0.0.1" },
    });
    expect(forwarded.statusCode).toBe(404);
  });

  it("serves them on METRICS_PORT alone when it is given, from the moment the API listens until it closes", async () => {
    const port = await freePort();
    const app = await buildApp(api.ctx, { metrics: { ...settings, port, production: true } });
    expect((await app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
    await app.listen({ port: 0, host: "127.0.0.1" });
    const r = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain("booking_commands_total");
    await app.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
