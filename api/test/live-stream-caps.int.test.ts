import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_STREAMS_PER_USER, errorBody, refusal } from "@booking/contracts";
import { buildApp } from "../src/main/app.ts";
import type { BookingFeed } from "../src/live-updates/booking-feed.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 26.12: live streams are capped per user (the oldest gives way) and per process (a new one
// is refused with the catalogue's 429 and a Retry-After, never a 5xx).

// Room for one user's streams and another's, so the per-user test never meets the process's cap.
const PER_PROCESS = 8;

let api: TestApi;
/** Served over a socket (streams are hijacked replies) by an app over the same parts, with a feed that records who listens. */
let streaming: FastifyInstance | undefined;
let base = "";
const listeners = new Map<string, number>();

beforeAll(async () => {
  api = await startTestApi();
  const feed = {
    listen: (userId: string) => {
      listeners.set(userId, (listeners.get(userId) ?? 0) + 1);
      return () => listeners.set(userId, listeners.get(userId)! - 1);
    },
  } as unknown as BookingFeed;
  streaming = await buildApp({ ...api.ctx, feed }, { streams: { perProcess: PER_PROCESS } });
  await streaming.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(streaming.server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  await streaming?.close();
  await api?.close();
});

type OpenStream = { ended: () => boolean; text: () => string; close: () => void };

/** Open a stream; resolves once the server said it is connected. */
async function openStream(user: TestUser): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/stream?access_token=${encodeURIComponent(user.token)}`, { signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  let ended = false;
  void (async () => {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
  })()
    .catch(() => undefined)
    .finally(() => (ended = true));
  return { ended: () => ended, text: () => text, close: () => controller.abort() };
}

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await settle(20);
  }
}

describe("live streams per user", () => {
  it("a user's sixth stream closes their oldest one; the other five and other users' streams stay open", async () => {
    const [user, other] = [await api.user("creator"), await api.user("expert")];
    const theirs = await openStream(other);
    const streams: OpenStream[] = [];
    for (let i = 0; i < LIVE_STREAMS_PER_USER; i++) streams.push(await openStream(user));
    await settle();
    expect(streams.map((s) => s.ended())).toEqual(streams.map(() => false));
    expect(listeners.get(user.id)).toBe(LIVE_STREAMS_PER_USER);

    streams.push(await openStream(user));
    await until("the oldest stream to end", () => streams[0]!.ended());
    await settle();
    expect(streams.map((s) => s.ended())).toEqual([true, ...Array.from({ length: LIVE_STREAMS_PER_USER }, () => false)]);
    // The browser's tab is told why before the stream ends.
    expect(streams[0]!.text()).toContain("event: replaced");
    expect(listeners.get(user.id)).toBe(LIVE_STREAMS_PER_USER);
    expect(theirs.ended()).toBe(false);
    for (const s of [...streams, theirs]) s.close();
    await until("the closed streams to stop listening", () => listeners.get(user.id) === 0 && listeners.get(other.id) === 0);
  }, 20_000);
});

describe("live streams per process", () => {
  it("past the process's cap a new stream is refused with 429 and a Retry-After; one closing makes room", async () => {
    const users = await Promise.all(Array.from({ length: PER_PROCESS + 1 }, () => api.user("creator")));
    const open = [];
    for (const u of users.slice(0, PER_PROCESS)) open.push(await openStream(u));
    const refused = await fetch(`${base}/stream?access_token=${encodeURIComponent(users[PER_PROCESS]!.token)}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual(errorBody(refusal("too_many_streams")));
    expect(listeners.get(users[PER_PROCESS]!.id)).toBeUndefined();
    await settle();
    expect(open.map((s) => s.ended())).toEqual(open.map(() => false));

    open[0]!.close();
    await until("the closed stream to stop listening", () => listeners.get(users[0]!.id) === 0);
    const admitted = await openStream(users[PER_PROCESS]!);
    for (const s of [...open, admitted]) s.close();
  }, 20_000);
});
