import { CONSISTENCY_POSITION_HEADER, ClientPositions } from "@booking/contracts";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, freePort, testPool } from "@booking/testkit";
import { fetchPost, signUpVerified } from "./auth-client.ts";
import { TEST_JWT_SECRET } from "./harness.ts";
import { approveInLog, startProcess, waitFor, type Running } from "./processes.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** The newest log position a reply named, sent with every call (issue 34.1); one per database (each test's own log). */
let positions = new ClientPositions();

async function json(url: string, init?: RequestInit & { token?: string; body?: string }) {
  const r = await fetch(url, {
    ...init,
    headers: {
      "content-type": "application/json",
      ...positions.headers(),
      ...(init?.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
  });
  positions.heard(r.headers.get(CONSISTENCY_POSITION_HEADER));
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> & { [k: string]: unknown } };
}

async function postgresRunningIn(dir: string): Promise<boolean> {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve) => execFile("pgrep", ["-f", dir], (error) => resolve(!error)));
}

describe("npm start on a fresh machine", () => {
  it("starts embedded Postgres, seeds demo data and serves the experts, then stops on SIGTERM", async () => {
    positions = new ClientPositions();
    const dataDir = await mkdtemp(join(tmpdir(), "npm-start-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const [port, pgPort] = [await freePort(), await freePort()];
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      BUILD_APPS: "0",
    };
    delete env.DATABASE_URL;
    delete env.ESDB_URL;
    const child = spawn("npm", ["start"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<void>((r) => child.on("exit", () => r()));
    cleanups.push(async () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    });
    const started = Date.now();
    await waitFor(
      "the seeded experts",
      async () => {
        const r = await json(`http://127.0.0.1:${port}/api/v1/experts`).catch(() => null);
        return Array.isArray(r?.body) && r.body.length === 5 && output.includes("Demo data seeded.");
      },
      180_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${output}`);
    });
    console.log(`[npm start] seeded experts served after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const experts = (await json(`http://127.0.0.1:${port}/api/v1/experts`)).body as unknown as { name: string; verified: boolean }[];
    expect(experts.map((e) => e.name).sort()).toEqual(["Ava Chen", "Jordan Okafor", "Marcus Reed", "Priya Nair", "Sofia Alvarez"]);
    expect(experts.every((e) => e.verified)).toBe(true);
    expect(output).toContain("creator@example.com / demo-password-1");
    const login = await json(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: "POST",
      body: JSON.stringify({ email: "creator@example.com", password: "demo-password-1" }),
    });
    expect(login.status).toBe(200);
    // SIGTERM to the whole process group (npm and the server): the server stops embedded Postgres.
    process.kill(-child.pid!, "SIGTERM");
    await exited;
    await waitFor("embedded Postgres to stop", async () => !(await postgresRunningIn(dataDir)), 20_000);
  });
});

describe("two API processes on one database", () => {
  it("50 concurrent booking requests for overlapping times spread over both give exactly one 201; then, each round, reschedule requests race new bookings for one time and exactly one wins", async () => {
    // Both processes share one database, so one log: a position either names holds for the other.
    positions = new ClientPositions();
    const db = await createTestDatabase(testPostgresUrl(), "twoapi");
    cleanups.push(db.drop);
    const media = await mkdtemp(join(tmpdir(), "twoapi-media-"));
    cleanups.push(() => rm(media, { recursive: true, force: true }));
    const ports = [await freePort(), await freePort()];
    const apis: Running[] = ports.map((port) =>
      startProcess("api", {
        DATABASE_URL: db.url,
        JWT_SECRET: TEST_JWT_SECRET,
        PORT: String(port),
        HOST: "127.0.0.1",
        MEDIA_DIR: media,
        LOG_LEVEL: "warn",
      }),
    );
    for (const a of apis) cleanups.push(async () => a.child.kill("SIGKILL"));
    const base = ports.map((p) => `http://127.0.0.1:${p}/api/v1`);
    for (const b of base)
      await waitFor(`the API at ${b}`, async () => (await json(`${b}/healthz`).catch(() => null))?.status === 200, 60_000);

    const outbox = testPool(db.url);
    cleanups.push(() => outbox.end());
    const signUp = async (role: string, i: number) => {
      const s = await signUpVerified(outbox, fetchPost(base[i % 2]!), {
        email: `${role}${i}@two.example`,
        password: "password-123",
        role,
        first_name: `${role}${i}`,
        last_name: "Two",
      });
      const token = s.access_token;
      expect(
        (await json(`${base[i % 2]}/terms/accept`, { method: "POST", token, body: JSON.stringify({ version_id: "2025-01" }) })).status,
      ).toBe(200);
      return { token, id: s.user.id };
    };
    const expert = await signUp("expert", 0);
    const creators = await Promise.all([1, 2, 3, 4, 5].map((i) => signUp("creator", i)));
    await json(`${base[0]}/experts/me`, {
      method: "PATCH",
      token: expert.token,
      body: JSON.stringify({ first_name: "Two", last_name: "Api", title: "Coach", published: true }),
    });
    await approveInLog(db.url, expert.id);
    for (const b of base) {
      const listed = async () => ((await json(`${b}/experts`)).body as unknown as { id: string }[]).some((e) => e.id === expert.id);
      await waitFor(`the approved expert listed at ${b}`, listed, 30_000);
    }
    const slots = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
      weekday,
      start_local: "09:00",
      end_local: "17:00",
    }));
    expect(
      (
        await json(`${base[1]}/experts/${expert.id}/schedule`, {
          method: "POST",
          token: expert.token,
          body: JSON.stringify({ timezone: "UTC", slots }),
        })
      ).status,
    ).toBe(200);
    const session = async (length: number) =>
      (
        (
          await json(`${base[0]}/sessions`, {
            method: "POST",
            token: expert.token,
            body: JSON.stringify({
              title: `${length} min`,
              price: 100,
              length_minutes: length,
              prep_question_1: "Why?",
              status: "published",
            }),
          })
        ).body.session as { id: string }
      ).id;
    const [short, long] = [await session(30), await session(90)];
    // A 90-minute session at 10:00 and a 30-minute one at 10:30 two days from now: they overlap.
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const requests = Array.from({ length: 50 }, (_, i) => ({
      api: base[i % 2]!,
      creator: creators[i % creators.length]!,
      body:
        i % 2
          ? { session_id: short, scheduled_time: `${day}T10:30:00.000Z` }
          : { session_id: long, scheduled_time: `${day}T10:00:00.000Z` },
    }));
    const results = await Promise.all(
      requests.map((r) => json(`${r.api}/bookings`, { method: "POST", token: r.creator.token, body: JSON.stringify(r.body) })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409))
      expect(r.body.message).toBe("That time slot is no longer available. Please pick another.");

    // Issue 17: requests to move a booking hold their new time, so they race new bookings for it.
    // Five other creators hold paid, confirmed 90-minute bookings on one day; each round, all five
    // ask to move to 10:00 on a later day while 45 new requests (90 minutes at 10:00, 30 at 10:30)
    // ask for it too, spread over both processes. Exactly one may win; a move that wins is accepted
    // (so its creator may ask again next round), a booking that wins is released.
    const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const movers = await Promise.all([6, 7, 8, 9, 10].map((i) => signUp("creator", i)));
    const moving = await Promise.all(
      movers.map(async (m, i) => {
        const at = `${dayAhead(3)}T${["09:00", "10:30", "12:00", "13:30", "15:00"][i]}:00.000Z`;
        const booked = await json(`${base[i % 2]}/bookings`, {
          method: "POST",
          token: m.token,
          body: JSON.stringify({ session_id: long, scheduled_time: at }),
        });
        expect(booked.status, JSON.stringify(booked.body)).toBe(201);
        const bookingId = (booked.body.booking as { id: string }).id;
        const intent = await json(`${base[i % 2]}/stripe/test-intent`, {
          method: "POST",
          token: m.token,
          body: JSON.stringify({ bookingId }),
        });
        const paid = await json(`${base[i % 2]}/payments/test/confirm`, {
          method: "POST",
          token: m.token,
          body: JSON.stringify({ client_secret: intent.body.clientSecret, card_number: "4242 4242 4242 4242" }),
        });
        expect(paid.status, JSON.stringify(paid.body)).toBe(200);
        expect(
          (
            await json(`${base[i % 2]}/bookings/${bookingId}/status`, {
              method: "PATCH",
              token: expert.token,
              body: JSON.stringify({ status: "confirmed" }),
            })
          ).status,
        ).toBe(200);
        return { ...m, bookingId };
      }),
    );
    const LOST = ["That time slot is no longer available. Please pick another.", "That time is already taken. Please pick another."];
    const ROUNDS = 4;
    for (let round = 0; round < ROUNDS; round++) {
      const target = dayAhead(4 + round);
      const racers = Array.from({ length: 50 }, (_, i) => {
        const api = base[i % 2]!;
        if (i % 10 === 0) {
          const m = moving[(i / 10) % moving.length]!;
          return {
            move: m,
            call: () =>
              json(`${api}/bookings/${m.bookingId}/reschedule`, {
                method: "POST",
                token: m.token,
                body: JSON.stringify({ scheduled_time: `${target}T10:00:00.000Z` }),
              }),
          };
        }
        const c = creators[i % creators.length]!;
        const body =
          i % 2
            ? { session_id: short, scheduled_time: `${target}T10:30:00.000Z` }
            : { session_id: long, scheduled_time: `${target}T10:00:00.000Z` };
        return {
          move: null,
          call: () => json(`${api}/bookings`, { method: "POST", token: c.token, body: JSON.stringify(body) }),
          creator: c,
        };
      });
      const answers = await Promise.all(racers.map((r) => r.call()));
      const won = answers.flatMap((a, i) => (a.status < 300 ? [i] : []));
      expect(won, `round ${round}: ${JSON.stringify(answers.map((a) => a.status))}`).toHaveLength(1);
      for (const a of answers.filter((x) => x.status >= 300)) {
        expect(a.status).toBe(409);
        expect(LOST).toContain(a.body.message);
      }
      // What the read model holds on that day: one booking or one move, never two.
      const held = await outbox.query(
        `SELECT count(*)::int AS n FROM bookings WHERE expert_id = $1 AND status <> 'cancelled' AND (scheduled_time::date = $2::date OR reschedule_to::date = $2::date)`,
        [expert.id, target],
      );
      expect(held.rows[0].n, `round ${round}`).toBe(1);
      const winner = racers[won[0]!]!;
      if (winner.move) {
        const accepted = await json(`${base[round % 2]}/bookings/${winner.move.bookingId}/reschedule/accept`, {
          method: "POST",
          token: expert.token,
          body: "{}",
        });
        expect(accepted.body).toMatchObject({ status: "confirmed", scheduled_time: `${target}T10:00:00.000Z`, reschedule_to: null });
      } else {
        const id = (answers[won[0]!]!.body.booking as { id: string }).id;
        expect(
          (
            await json(`${base[round % 2]}/bookings/${id}/status`, {
              method: "PATCH",
              token: winner.creator!.token,
              body: JSON.stringify({ status: "cancelled", reason: "race round over" }),
            })
          ).status,
        ).toBe(200);
      }
      console.log(`[reschedule race] round ${round}: won by ${winner.move ? "a reschedule request" : "a new booking"}`);
    }

    for (const a of apis) {
      a.child.kill("SIGTERM");
      expect(await a.exited).toBe(0);
    }
  });
});
