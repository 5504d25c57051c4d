import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/main/app.ts";
import { BookingFeed } from "../src/live-updates/booking-feed.ts";
import { expireHolds } from "../src/bookings/hold-sweeper.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Unpaid holds expire and free their time; booking changes reach the other party over SSE; OpenAPI.

let api: TestApi;
let now = Date.now();
let expert: TestUser;
let creator: TestUser;
let sessionId: string;
// Apps built over the same parts with one of them changed (a feed, a readiness bound): each area is handed its parts once, when the app is built.
const variants: FastifyInstance[] = [];
let feed: BookingFeed | null = null;
const V1 = "/api/v1";

beforeAll(async () => {
  api = await startTestApi({ clock: () => new Date(now).toISOString() });
  expert = await api.user("expert");
  creator = await api.user("creator");
  await api.call("PATCH", `${V1}/experts/me`, {
    user: expert,
    body: { first_name: "Eli", last_name: "Stone", title: "Podcast coach", published: true },
  });
  await api.approve(expert);
  const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: expert, body: { timezone: "UTC", slots: everyDay } });
  const s = await api.call("POST", `${V1}/sessions`, {
    user: expert,
    body: { title: "Launch plan", price: 90, length_minutes: 30, prep_question_1: "Why?", status: "published" },
  });
  sessionId = s.json().session.id;
});
afterAll(async () => {
  for (const app of variants) await app.close();
  await feed?.stop();
  await api.close();
});

const times = async () => (await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times as string[];

describe("unpaid holds", () => {
  it("an unpaid booking holds its time for 15 minutes, then the sweeper records its expiry and the time is free", async () => {
    const t = (await times())[5]!;
    const booking = (await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: sessionId, scheduled_time: t } })).json()
      .booking;
    expect(booking.held_until).toBe(new Date(now + 15 * 60_000).toISOString());
    now += 14 * 60_000;
    expect(await expireHolds(api.ctx)).toBe(0);
    expect(await times()).not.toContain(t);
    now += 60_000;
    // The decider frees the time at the hold's end, even before the sweeper runs.
    expect(await times()).toContain(t);
    expect(await expireHolds(api.ctx)).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    const after = (await api.call("GET", `${V1}/bookings/${booking.id}`, { user: creator })).json();
    expect(after).toMatchObject({ status: "cancelled", cancelled_by: "system", cancel_reason: "payment_timeout" });
    expect(await expireHolds(api.ctx)).toBe(0);
  });
});

describe("realtime", () => {
  it("a new request reaches the expert's open stream once projected", async () => {
    feed = new BookingFeed(api.ctx.store, api.ctx.db);
    await feed.start();
    const streaming = await buildApp({ ...api.ctx, feed });
    variants.push(streaming);
    const address = await streaming.listen({ port: 0, host: "127.0.0.1" });
    const response = await fetch(`${address}${V1}/stream?access_token=${expert.token}`);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const t = (await times())[9]!;
    const booking = (await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: sessionId, scheduled_time: t } })).json()
      .booking;
    let received = "";
    const deadline = Date.now() + 10_000;
    while (!received.includes(booking.id) && Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), new Promise<{ value?: undefined }>((r) => setTimeout(() => r({}), 500))]);
      if (chunk.value) received += new TextDecoder().decode(chunk.value);
    }
    await reader.cancel();
    expect(received).toContain("event: booking");
    const data = JSON.parse(
      received
        .split("\n")
        .find((l) => l.startsWith("data: ") && l.includes(booking.id))!
        .slice(6),
    );
    expect(data).toEqual({ bookingId: booking.id, status: "pending", type: "BookingRequested" });
  });
  it("the stream refuses anonymous and forged callers", async () => {
    expect((await api.call("GET", `${V1}/stream`)).statusCode).toBe(401);
    expect((await api.call("GET", `${V1}/stream?access_token=not.a.token`)).statusCode).toBe(401);
  });
});

describe("OpenAPI", () => {
  it("describes the API at /api/v1/docs, generated from the zod schemas", async () => {
    const doc = (await api.call("GET", `${V1}/docs`)).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      "/bookings",
      "/bookings/{bookingId}/status",
      "/sessions/{id}/availability",
      "/experts/{expertId}/schedule",
      "/auth/login",
      "/stripe/test-intent",
    ]) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    expect(doc.servers).toEqual([{ url: V1 }]);
    const body = doc.paths["/bookings"].post.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(["session_id", "scheduled_time"]);
  });
});

describe("readiness", () => {
  it("is ready while the read models keep up, and not ready once the projector lags beyond the bound", async () => {
    const probed = await buildApp({ ...api.ctx, readyMaxLagEvents: 3 });
    variants.push(probed);
    const readyz = () => probed.inject({ method: "GET", url: `${V1}/readyz` });
    // The running projector catches up with the earlier tests' writes first (on a loaded machine it may be a few behind).
    await vi.waitFor(async () => expect((await readyz()).json()).toMatchObject({ status: "ready", lagEvents: 0 }), { timeout: 20_000 });
    const ready = await readyz();
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: "ready", lagEvents: 0 });
    await api.stopProjector();
    for (let i = 0; i < 4; i++) await api.user("creator", { acceptTerms: false });
    const lagging = await readyz();
    expect(lagging.statusCode).toBe(503);
    expect(lagging.json()).toMatchObject({ status: "not_ready", checks: { projectorLag: "more than 3 events behind" }, lagEvents: 4 });
    expect((await api.call("GET", `${V1}/healthz`)).statusCode).toBe(200);
  });
});
