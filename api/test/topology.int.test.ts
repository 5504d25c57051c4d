import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_DATA_KEY_SECRET, announceSkip, createTestDatabase, freePort, testPool } from "@booking/testkit";
import { PostgresEventStore, PostgresKeyRing, masterKeyFromSecret } from "@booking/event-store";
import { allProjections, migrateReadModels, readModelDigest, rebuildProjections } from "@booking/projections";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { fetchPost, signUpVerified } from "./auth-client.ts";
import { sealedEventStore } from "../src/main/event-store.ts";
import { TEST_JWT_SECRET } from "./harness.ts";
import { approveInLog, sleep, startProcess, stopGracefully, waitFor, type Running } from "./processes.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// The production topology's processes, for real: api, relay and projector on Postgres and Kafka.

const brokers = process.env.KAFKA_BROKERS;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
}

if (!brokers) {
  announceSkip(
    "api, relay and projector as three processes",
    "KAFKA_BROKERS is not set (`bash scripts/kafka/broker.sh start` runs a broker)",
  );
  describe("api, relay and projector as three processes", () => it.skip("skipped: KAFKA_BROKERS is not set", () => undefined));
} else {
  describe("api, relay and projector as three processes", () => {
    it("a booking made through the API shows in the read model; a projector stopped by SIGTERM mid-stream resumes with nothing lost or doubled", async () => {
      const db = await createTestDatabase(testPostgresUrl(), "topo");
      cleanups.push(db.drop);
      const media = await mkdtemp(join(tmpdir(), "topo-media-"));
      cleanups.push(() => rm(media, { recursive: true, force: true }));
      const topic = `topology-${randomUUID()}`;
      const kafka = { DATABASE_URL: db.url, KAFKA_BROKERS: brokers, KAFKA_TOPIC: topic };
      const port = await freePort();
      const started: Running[] = [];
      const start = (name: string, env: Record<string, string>) => {
        const p = startProcess(name, env);
        started.push(p);
        cleanups.push(async () => p.child.kill("SIGKILL"));
        return p;
      };
      const projectorEnv = { ...kafka, PROJECTOR_GROUP: `g-${topic}` };
      let projector = start("projector", projectorEnv);
      const relay = start("relay", kafka);
      const api = start("api", {
        ...kafka,
        JWT_SECRET: TEST_JWT_SECRET,
        PORT: String(port),
        HOST: "127.0.0.1",
        MEDIA_DIR: media,
        LOG_LEVEL: "warn",
      });
      const base = `http://127.0.0.1:${port}/api/v1`;
      await waitFor("the API", async () => (await call(base, "GET", "/healthz").catch(() => null))?.status === 200, 60_000);

      // Every write below waits (read-your-writes) for the projector process, fed through relay and Kafka.
      // The API process's mail outbox is read from its database: each account follows its verification link.
      const outbox = testPool(db.url);
      cleanups.push(() => outbox.end());
      const signUp = async (role: string) => {
        const s = await signUpVerified(outbox, fetchPost(base), {
          email: `${role}-${randomUUID().slice(0, 6)}@topo.example`,
          password: "password-123",
          role,
          first_name: role,
          last_name: "Topo",
        });
        const token = s.access_token;
        expect((await call(base, "POST", "/terms/accept", { version_id: "2025-01" }, token)).status).toBe(200);
        return { token, id: s.user.id };
      };
      const expert = await signUp("expert");
      const creator = await signUp("creator");
      expect(
        (await call(base, "PATCH", "/experts/me", { first_name: "Topo", last_name: "Logy", title: "Coach", published: true }, expert.token))
          .status,
      ).toBe(200);
      const slots = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
        weekday,
        start_local: "09:00",
        end_local: "17:00",
      }));
      expect((await call(base, "POST", `/experts/${expert.id}/schedule`, { timezone: "UTC", slots }, expert.token)).status).toBe(200);
      await approveInLog(db.url, expert.id);
      const session = (
        await call(
          base,
          "POST",
          "/sessions",
          { title: "Topology", price: 80, length_minutes: 60, prep_question_1: "Why?", status: "published" },
          expert.token,
        )
      ).body.session as { id: string };
      // Reads come from read models fed through relay, Kafka and the projector: wait until the session shows.
      let times: string[] = [];
      await waitFor(
        "the session's availability",
        async () => {
          const r = await call(base, "GET", `/sessions/${session.id}/availability`);
          times = (r.body?.times as string[] | undefined) ?? [];
          return r.status === 200 && times.length > 2;
        },
        120_000,
      ).catch((e: unknown) => {
        // Show what the three processes said: the read model is fed by all of them.
        for (const [name, p] of [
          ["projector", projector],
          ["relay", relay],
          ["api", api],
        ] as const)
          console.error(`[topology] ${name} output:\n${p.output().slice(-4000)}`);
        throw e;
      });
      const booked = await call(base, "POST", "/bookings", { session_id: session.id, scheduled_time: times[2] }, creator.token);
      expect(booked.status).toBe(201);
      const bookingId = (booked.body.booking as { id: string }).id;
      const seen = await call(base, "GET", `/bookings/${bookingId}`, undefined, creator.token);
      expect(seen.body).toMatchObject({ id: bookingId, status: "pending", session_title: "Topology" });

      // Events keep flowing while the projector is stopped with SIGTERM and started again.
      const store = await PostgresEventStore.connect(db.url);
      cleanups.push(() => store.close());
      const flowing = appendSynthetic(store, 3000, 500);
      await sleep(700);
      projector.child.kill("SIGTERM");
      expect(await projector.exited).toBe(0);
      expect(projector.output()).toContain("SIGTERM received, finishing the current batch");
      await sleep(500);
      projector = start("projector", projectorEnv);
      await flowing;

      const pool = testPool(db.url);
      cleanups.push(() => pool.end());
      const cleanDb = await createTestDatabase(testPostgresUrl(), "topoclean");
      cleanups.push(cleanDb.drop);
      const clean = testPool(cleanDb.url);
      cleanups.push(() => clean.end());
      await migrateReadModels(clean);
      // The replay reads the log as the processes do: personal fields opened with the data keys (issue 33.1).
      const keys = await PostgresKeyRing.connect(pool, masterKeyFromSecret(TEST_DATA_KEY_SECRET));
      cleanups.push(() => keys.close());
      await rebuildProjections(sealedEventStore(store, keys, null), clean, allProjections);
      const expected = await readModelDigest(clean);
      await waitFor(
        "the read models to equal a clean replay",
        async () => JSON.stringify(await readModelDigest(pool)) === JSON.stringify(expected),
        120_000,
      ).catch(() => undefined);
      expect(await readModelDigest(pool)).toEqual(expected);

      api.child.kill("SIGTERM");
      expect(await Promise.all([api.exited, stopGracefully(relay, "relay"), stopGracefully(projector, "projector")])).toEqual([0, 0, 0]);
    });
  });
}
