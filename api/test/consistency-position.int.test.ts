import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSISTENCY_POSITION_HEADER, MAX_UNPAID_HOLDS_PER_CREATOR, parsePosition } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { allProjections, applyBatch } from "@booking/projections";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Read-your-writes by position (issue 34.1 and 34.2): POST /bookings replies once its booking is appended, naming the
// log position it wrote; a read that sends that position back waits for the read models to show it, one without it
// is served at once; and a creator's requests still see each other across two API processes, as the lock's next holder
// waits for the read models to reach the previous holder's write before it decides.

const V1 = "/api/v1";
const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));

/** A whole hour `days` from now. */
function hourAhead(days: number, hour = 10): string {
  const t = new Date(Date.now() + days * 24 * 3600_000);
  t.setUTCHours(hour, 0, 0, 0);
  return t.toISOString();
}

let one: TestApi;
let two: TestApi;
const experts: { user: TestUser; sessionId: string }[] = [];

async function must(api: TestApi, user: TestUser, method: "POST" | "PATCH", url: string, body: unknown) {
  const r = await api.call(method, url, { user, body });
  if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
  return r.json();
}

beforeAll(async () => {
  one = await startTestApi();
  // A second API process on the same database, with its own projector, lock pool and listings (as a replica runs).
  two = await startTestApi({ joinDatabase: one.databaseUrl });
  for (let i = 0; i < MAX_UNPAID_HOLDS_PER_CREATOR + 3; i++) {
    const user = await one.user("expert");
    await must(one, user, "PATCH", `${V1}/experts/me`, {
      first_name: `Expert${i}`,
      last_name: "Position",
      title: "Advisor",
      published: true,
    });
    await one.approve(user);
    await must(one, user, "POST", `${V1}/experts/${user.id}/schedule`, { timezone: "UTC", slots: everyDay });
    const session = await must(one, user, "POST", `${V1}/sessions`, {
      title: "Strategy",
      price: 100,
      length_minutes: 60,
      prep_question_1: "Goal?",
      status: "published",
    });
    experts.push({ user, sessionId: session.session.id });
  }
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

const book = (api: TestApi, creator: TestUser, sessionId: string, at: string) =>
  api.app.inject({
    method: "POST",
    url: `${V1}/bookings`,
    headers: { authorization: `Bearer ${creator.token}` },
    payload: { session_id: sessionId, scheduled_time: at },
  });

describe("a creator racing themselves across two API processes", () => {
  it(`of ${MAX_UNPAID_HOLDS_PER_CREATOR + 3} requests at once, split over both processes, ${MAX_UNPAID_HOLDS_PER_CREATOR} hold their time`, async () => {
    const creator = await one.user("creator");
    const replies = await Promise.all(experts.map((e, i) => book(i % 2 ? two : one, creator, e.sessionId, hourAhead(2 + i))));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([...Array(MAX_UNPAID_HOLDS_PER_CREATOR).fill(201), 409, 409, 409]);
    for (const r of replies.filter((r) => r.statusCode === 409)) expect(r.json().code).toBe("creator_hold_limit");
  });

  it("two requests for one hour with two experts, one through each process: 25 rounds: one is taken, the other refused", async () => {
    for (let round = 0; round < 25; round++) {
      const creator = await one.user("creator");
      const at = hourAhead(12 + (round % 8), 6 + Math.floor(round / 8) * 2);
      const replies = await Promise.all([book(one, creator, experts[0]!.sessionId, at), book(two, creator, experts[1]!.sessionId, at)]);
      expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(replies.find((r) => r.statusCode === 409)!.json().code).toBe("creator_time_overlap");
    }
  });

  it("a booking's reply names its position; the other process shows it to a read that sends the position", async () => {
    const creator = await one.user("creator");
    const booked = await book(one, creator, experts[2]!.sessionId, hourAhead(10, 8));
    expect(booked.statusCode, booked.body).toBe(201);
    const position = booked.headers[CONSISTENCY_POSITION_HEADER] as string;
    expect(parsePosition(position)).not.toBeNull();
    const read = await two.app.inject({
      method: "GET",
      url: `${V1}/bookings/${booked.json().booking.id}`,
      headers: { authorization: `Bearer ${creator.token}`, [CONSISTENCY_POSITION_HEADER]: position },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ id: booked.json().booking.id, status: booked.json().booking.status });
  });

  it("refuses a position the server never gave with the catalogue's message", async () => {
    const creator = await one.user("creator");
    const r = await one.app.inject({
      method: "GET",
      url: `${V1}/bookings`,
      headers: { authorization: `Bearer ${creator.token}`, [CONSISTENCY_POSITION_HEADER]: "yesterday" },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      code: "consistency_position_invalid",
      message: "This page was asked for with a position the server did not give. Please reload the page.",
    });
  });
});

describe("anonymous replies", () => {
  it("name no position: a sign-up answers alike whether or not it made an account", async () => {
    const signUp = () =>
      one.app.inject({
        method: "POST",
        url: `${V1}/auth/signup`,
        headers: { "x-forwarded-for": "198.51.100.7" },
        payload: { email: "same-address@example.com", password: "a-long-password-1", role: "creator", first_name: "Sam" },
      });
    const made = await signUp();
    const again = await signUp();
    expect([made.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(made.headers[CONSISTENCY_POSITION_HEADER]).toBeUndefined();
    expect(again.headers[CONSISTENCY_POSITION_HEADER]).toBeUndefined();
  });
});

describe("with the read models standing still", () => {
  it("POST /bookings replies at once; a read with its position, or the writer's own here, waits until they show it; others are served at once", async () => {
    const creator = await one.user("creator");
    const expert = experts[3]!;
    // Only `one` keeps read models from here on, and its projector stops: nothing is applied but what the test applies.
    await two.stopProjector();
    await one.stopProjector();
    let t0 = Date.now();
    const booked = await book(one, creator, expert.sessionId, hourAhead(11, 8));
    expect(booked.statusCode, booked.body).toBe(201);
    // Not held for the projection, which before issue 34.1 every booking request waited for (up to 15 s).
    expect(Date.now() - t0).toBeLessThan(3_000);
    const position = booked.headers[CONSISTENCY_POSITION_HEADER] as string;
    const url = `${V1}/bookings/${booked.json().booking.id}`;
    const authorization = `Bearer ${creator.token}`;

    t0 = Date.now();
    // Served at once, as the read models are: a read by another party (the expert), and the creator's own read through
    // the other process, which has not seen their write, both without a position.
    const byExpert = await one.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${expert.user.token}` } });
    const elsewhere = await two.app.inject({ method: "GET", url, headers: { authorization } });
    expect([byExpert.statusCode, elsewhere.statusCode]).toEqual([404, 404]);
    expect(Date.now() - t0).toBeLessThan(1_000);

    // Waiting: the read that sends the position (through the other process), and the creator's own next read through
    // the process they wrote through, which remembers their write though their client sent nothing.
    const sent = two.app.inject({ method: "GET", url, headers: { authorization, [CONSISTENCY_POSITION_HEADER]: position } });
    const own = one.app.inject({ method: "GET", url, headers: { authorization } });
    await new Promise((r) => setTimeout(r, 400));
    // The projector's work, done by hand: the booking's events applied, and the checkpoints moved past them.
    const { events } = await one.ctx.store.readStream(calendarStream(expert.user.id));
    await applyBatch(one.ctx.db, allProjections, events, "log");
    for (const shown of await Promise.all([sent, own])) {
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json().id).toBe(booked.json().booking.id);
    }
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
  });
});
