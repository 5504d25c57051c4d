import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { BookingRequestedReply, CURRENT_TERMS_VERSION, SessionCommand } from "@booking/contracts";
import { calendarStream, expertStream, sessionStream } from "@booking/engine";
import { watchStatements } from "@booking/testkit";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// POST /bookings takes the creator's lock and reads its facts in one round trip, waits on the
// in-process projector's announcement rather than reading the checkpoints, and builds its reply
// from what it wrote: four statements in all once the expert's calendar is in memory. The facts
// come from the read models, so a change whose reply was sent must show in the next booking.

let api: TestApi;
let expert: TestUser;
let sessionId: string;
const V1 = "/api/v1";

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert", { firstName: "Eli" });
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
  sessionId = await newSession();
});
afterAll(() => api?.close());

async function newSession(price = 90): Promise<string> {
  const s = await api.call("POST", `${V1}/sessions`, {
    user: expert,
    body: { title: "Launch plan", price, length_minutes: 30, prep_question_1: "Why?", status: "published" },
  });
  expect(s.statusCode, s.body).toBe(201);
  return s.json().session.id as string;
}

let nextTime = 0;
/** Bookable times far apart, one per booking, so no two requests of the test clash. */
async function freeTime(): Promise<string> {
  const times = (await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times as string[];
  return times[(nextTime += 3)]!;
}

const book = (creator: TestUser, session = sessionId, at?: string) =>
  (async () =>
    api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: session, scheduled_time: at ?? (await freeTime()) } }))();

/** Marks the statements sent while handling one request, told from the projector's and other loops'. */
const inRequest = new AsyncLocalStorage<string[]>();

/** The statements (each one round trip) a request sends, as pg's clients send them. */
async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const result = await watchStatements(
    (sent) => inRequest.getStore()?.push(sent.text.replace(/\s+/g, " ")),
    async () => {
      const answer = await inRequest.run(statements, work);
      // The NOTIFY announcing the append is sent just after the reply: let it count.
      await new Promise((r) => setTimeout(r, 50));
      return answer;
    },
  );
  return { result, statements };
}

describe("POST /bookings", () => {
  // Five since issue 26.14: the test's tokens now carry a sign-in id as every real one does, so the
  // guard's check that the sign-in still holds is counted (it always ran for real users).
  it("sends at most five statements once the expert's calendar is in memory: the sign-in's check, lock and facts, append, its announcement, unlock", async () => {
    const creator = await api.user("creator", { firstName: "Cleo" });
    // The first booking on the expert reads the calendar's stream into memory.
    expect((await book(creator)).statusCode).toBe(201);
    const at = await freeTime();
    const { result, statements } = await statementsOf(() => book(creator, sessionId, at));
    expect(result.statusCode, result.body).toBe(201);
    expect(statements.length, statements.map((s) => s.slice(0, 100)).join("\n")).toBeLessThanOrEqual(5);
    expect(statements.join("\n")).toMatch(/FROM refresh_tokens[\s\S]*pg_advisory_lock[\s\S]*FROM bookings[\s\S]*FROM sessions/);
    expect(statements.join("\n")).toMatch(/INSERT INTO events/);
    expect(statements.join("\n")).toMatch(/pg_advisory_unlock/);
  });

  it("replies with the booking as GET /bookings/{id} then shows it, names included, and the creator's list shows it at once", async () => {
    const creator = await api.user("creator", { firstName: "Cleo" });
    const r = await book(creator);
    expect(r.statusCode, r.body).toBe(201);
    const { booking } = BookingRequestedReply.parse(r.json());
    expect(booking).toMatchObject({ creator_name: "Cleo Test", expert_name: "Eli Stone", session_title: "Launch plan", price: 90 });
    expect((await api.call("GET", `${V1}/bookings/${booking.id}`, { user: creator })).json()).toEqual(booking);
    const mine = (await api.call("GET", `${V1}/bookings/creator/me`, { user: creator })).json() as { id: string }[];
    expect(mine.map((b) => b.id)).toEqual([booking.id]);
  });

  it("books a session as last edited: the new price, and no booking once it is unpublished or deleted", async () => {
    const creator = await api.user("creator");
    const session = await newSession(90);
    expect((await book(creator, session)).json().booking.price).toBe(90);
    const edited = await api.call("PUT", `${V1}/sessions/${session}`, {
      user: expert,
      body: { title: "Launch plan", price: 120, length_minutes: 30, prep_question_1: "Why?" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await book(creator, session)).json().booking.price).toBe(120);
    expect((await api.call("PUT", `${V1}/sessions/${session}`, { user: expert, body: { status: "draft" } })).statusCode).toBe(200);
    const unpublished = await book(creator, session);
    expect(unpublished.statusCode).toBe(409);
    expect(unpublished.json().code).toBe("session_not_published");
    expect((await api.call("DELETE", `${V1}/sessions/${session}`, { user: expert })).statusCode).toBe(200);
    const deleted = await book(creator, session);
    expect(deleted.json().code).toBe("session_not_found");
  });

  it("counts terms accepted a moment ago, and refuses a creator who has not accepted them", async () => {
    const creator = await api.user("creator", { acceptTerms: false });
    const refused = await book(creator);
    expect(refused.json().code).toBe("terms_not_accepted");
    expect((await api.call("POST", `${V1}/terms/accept`, { user: creator, body: { version_id: CURRENT_TERMS_VERSION } })).statusCode).toBe(
      200,
    );
    expect((await book(creator)).statusCode).toBe(201);
  });

  it("names the expert's account from their profile, so the expert may open a booking on a calendar whose id is not their user id", async () => {
    // The product makes a calendar's id its expert's user id; the booking's party is still read from the profile, not assumed.
    const owner = await api.user("expert", { firstName: "Ada" });
    const calendarId = `cal-${owner.id}`;
    const asOwner = { userId: owner.id, role: "expert" as const };
    const profile = { firstName: "Ada", lastName: "Vale", title: "Mixing", bio: null, tags: [], profileImage: null };
    const saved = await api.ctx.experts.handle(expertStream(calendarId), {
      type: "SaveExpertProfile",
      expertId: calendarId,
      actor: asOwner,
      userId: owner.id,
      profile,
      published: true,
    });
    expect(saved.ok).toBe(true);
    await api.approve(calendarId);
    const sessionOnCalendar = randomUUID();
    const definition = { title: "Mix notes", priceCents: 5_000, lengthMinutes: 30, prepQuestions: ["Which track?"], idealFor: [] };
    const created = await api.ctx.sessions.handle(
      sessionStream(sessionOnCalendar),
      SessionCommand.parse({
        type: "CreateSession",
        sessionId: sessionOnCalendar,
        expertId: calendarId,
        actor: asOwner,
        definition,
        status: "published",
      }),
    );
    expect(created.ok).toBe(true);
    const hours = await api.ctx.calendar.handle(calendarStream(calendarId), {
      type: "SetSchedule",
      expertId: calendarId,
      actor: { userId: "an-admin", role: "admin" },
      schedule: { timezone: "UTC", slots: [{ weekday: "tuesday", start_local: "09:00", end_local: "17:00" }] },
    });
    expect(hours.ok).toBe(true);
    const creator = await api.user("creator");
    const times = (await api.call("GET", `${V1}/sessions/${sessionOnCalendar}/availability`)).json().times as string[];
    const booked = await book(creator, sessionOnCalendar, times[0]);
    expect(booked.statusCode, booked.body).toBe(201);
    const seen = await api.call("GET", `${V1}/bookings/${booked.json().booking.id}`, { user: owner });
    expect(seen.statusCode, seen.body).toBe(200);
  });
});
