import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UNPAID_HOLDS_PER_CREATOR } from "@booking/contracts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Rules no single expert's calendar can see (a creator's holds and sessions with every expert),
// and admins who act on experts' things without becoming experts, through /api/v1.

const V1 = "/api/v1";
const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));

let api: TestApi;
let admin: TestUser;
/** Experts, each with a published one-hour session bookable around the clock. */
const experts: { user: TestUser; sessionId: string }[] = [];

async function must(user: TestUser, method: "GET" | "POST" | "PATCH", url: string, body?: unknown) {
  const r = await api.call(method, url, { user, body });
  if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
  return r.json();
}

/** A whole hour `days` from now, on the half-hour grid. */
function hourAhead(days: number, hour = 10): string {
  const t = new Date(Date.now() + days * 24 * 3600_000);
  t.setUTCHours(hour, 0, 0, 0);
  return t.toISOString();
}

const book = (creator: TestUser, sessionId: string, scheduledTime: string) =>
  api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: sessionId, scheduled_time: scheduledTime } });

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.user("admin");
  for (let i = 0; i < MAX_UNPAID_HOLDS_PER_CREATOR + 2; i++) {
    const user = await api.user("expert");
    await must(user, "PATCH", `${V1}/experts/me`, { first_name: `Expert${i}`, last_name: "Limits", title: "Advisor", published: true });
    await api.approve(user);
    await must(user, "POST", `${V1}/experts/${user.id}/schedule`, { timezone: "UTC", slots: everyDay });
    const session = await must(user, "POST", `${V1}/sessions`, {
      title: "Strategy",
      price: 100,
      length_minutes: 60,
      prep_question_1: "Goal?",
      status: "published",
    });
    experts.push({ user, sessionId: session.session.id });
  }
});
afterAll(async () => api?.close());

describe("a creator's unpaid holds are capped across experts", () => {
  it(`of ${MAX_UNPAID_HOLDS_PER_CREATOR + 2} requests sent at once to different experts, exactly ${MAX_UNPAID_HOLDS_PER_CREATOR} hold their time`, async () => {
    const creator = await api.user("creator");
    const replies = await Promise.all(experts.map((e, i) => book(creator, e.sessionId, hourAhead(2 + i))));
    const statuses = replies.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(MAX_UNPAID_HOLDS_PER_CREATOR).fill(201), 409, 409]);
    for (const refused of replies.filter((r) => r.statusCode === 409))
      expect(refused.json()).toEqual({
        code: "creator_hold_limit",
        message: "You already have 3 bookings waiting for payment. Complete payment for one, or release its time, before booking another.",
      });
    // Another creator is not held back by this one.
    expect((await book(await api.user("creator"), experts[0]!.sessionId, hourAhead(9))).statusCode).toBe(201);
  });

  it("releasing a hold makes room for the next booking", async () => {
    const creator = await api.user("creator");
    const held = [];
    for (let i = 0; i < MAX_UNPAID_HOLDS_PER_CREATOR; i++)
      held.push((await book(creator, experts[i]!.sessionId, hourAhead(12 + i))).json().booking.id as string);
    expect((await book(creator, experts[3]!.sessionId, hourAhead(16))).json().code).toBe("creator_hold_limit");
    const released = await api.call("PATCH", `${V1}/bookings/${held[0]}/status`, { user: creator, body: { status: "cancelled" } });
    expect(released.statusCode).toBe(200);
    expect((await book(creator, experts[3]!.sessionId, hourAhead(16))).statusCode).toBe(201);
  });
});

describe("a creator is never booked twice at the same time", () => {
  it("refuses a second expert for an overlapping hour, and takes the hour after", async () => {
    const creator = await api.user("creator");
    expect((await book(creator, experts[0]!.sessionId, hourAhead(20, 10))).statusCode).toBe(201);
    const clash = await book(creator, experts[1]!.sessionId, hourAhead(20, 10));
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      code: "creator_time_overlap",
      message: "You already have a session booked at that time. Please pick another time.",
    });
    expect((await book(creator, experts[1]!.sessionId, hourAhead(20, 11))).statusCode).toBe(201);
  });

  it("two requests for the same hour with two experts, sent at once: one is taken", async () => {
    const creator = await api.user("creator");
    const replies = await Promise.all([
      book(creator, experts[2]!.sessionId, hourAhead(21, 15)),
      book(creator, experts[3]!.sessionId, hourAhead(21, 15)),
    ]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});

describe("admins act on experts' things but are not experts", () => {
  const refusedAsAdmin = {
    code: "admin_not_expert",
    message: "Admins manage experts from the console and cannot have an expert profile, sessions or a schedule of their own.",
  };

  it("an admin has no expert profile, cannot make one, and never appears in the listing", async () => {
    for (const [method, url, body] of [
      ["GET", `${V1}/experts/me`, undefined],
      ["PATCH", `${V1}/experts/me`, { first_name: "Ada", last_name: "Admin", title: "Admin", published: true }],
      ["DELETE", `${V1}/experts/me/image`, undefined],
      ["POST", `${V1}/sessions`, { title: "Admin session", price: 100, length_minutes: 30, prep_question_1: "Why?", status: "published" }],
    ] as const) {
      const r = await api.call(method, url, { user: admin, body });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json()).toEqual(refusedAsAdmin);
    }
    const listing = (await api.call("GET", `${V1}/experts`)).json() as { user_id: string }[];
    expect(listing.map((e) => e.user_id)).not.toContain(admin.id);
  });

  it("an admin still acts for a named expert (their sessions and schedule)", async () => {
    const { user } = experts[0]!;
    const created = await api.call("POST", `${V1}/sessions`, {
      user: admin,
      body: { expert_id: user.id, title: "Made by the admin", price: 100, length_minutes: 30, prep_question_1: "Why?", status: "draft" },
    });
    expect(created.statusCode).toBe(201);
    expect(
      (await api.call("POST", `${V1}/experts/${user.id}/schedule`, { user: admin, body: { timezone: "UTC", slots: everyDay } })).statusCode,
    ).toBe(200);
  });

  it("an admin who tries to book is told admins cannot book, not that experts cannot", async () => {
    const r = await book(admin, experts[0]!.sessionId, hourAhead(25));
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({
      code: "admin_cannot_book",
      message: "Admins cannot book sessions. Sign in with a creator account to book.",
    });
  });
});

describe("a profile image is one this API stores", () => {
  it("refuses off-site, javascript: and data: URLs and another expert's image; takes its own upload's URL", async () => {
    const { user } = experts[0]!;
    const save = (profile_image: string) =>
      api.call("PATCH", `${V1}/experts/me`, {
        user,
        body: { first_name: "Expert0", last_name: "Limits", title: "Advisor", published: true, profile_image },
      });
    for (const url of [
      "https://tracker.example/pixel.gif?u=1",
      "javascript:alert(document.cookie)",
      "data:image/svg+xml,<svg onload=alert(1)>",
      `${V1}/media/experts/${experts[1]!.user.id}/profile`,
    ]) {
      const r = await save(url);
      expect(r.statusCode, url).toBe(400);
      expect(r.json().code).toBe("profile_image_invalid");
    }
    const own = `${V1}/media/experts/${user.id}/profile?v=1767225600000`;
    const saved = await save(own);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().profile_image).toBe(own);
  });
});
