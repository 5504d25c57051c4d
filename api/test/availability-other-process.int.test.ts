import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresEventStore } from "@booking/event-store";
import { calendarStream } from "@booking/engine";
import { commandHandlers } from "../src/main/commands.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Availability answers from the session and calendar kept in memory while no append is announced.
// A change written by another API process (its own store, as another replica has) must reach the
// visitor without anything written through this one: its NOTIFY is heard within moments, and even
// without it the answer is read again within five seconds (StreamStates' maxAgeMs).

const V1 = "/api/v1";
const NOW = "2026-03-02T08:00:00.000Z"; // Monday
const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "09:00",
  end_local: "17:00",
}));

let api: TestApi;
let other: PostgresEventStore;

/** An expert free 09:00-17:00 UTC every day, with a published one-hour session. */
async function publishedSession(expert: TestUser): Promise<string> {
  const steps: [string, string, unknown][] = [
    ["PATCH", `${V1}/experts/me`, { first_name: "Ida", last_name: "Rowe", title: "Coach", published: true }],
    ["POST", `${V1}/experts/${expert.id}/schedule`, { timezone: "UTC", slots: everyDay }],
    ["POST", `${V1}/sessions`, { title: "Review", price: 100, length_minutes: 60, prep_question_1: "Goal?", status: "published" }],
  ];
  let reply = null;
  for (const [method, url, body] of steps) {
    reply = await api.call(method as "POST" | "PATCH", url, { user: expert, body });
    expect(reply.statusCode, reply.body).toBeLessThan(300);
    // Approved by our team once the profile exists (issue 30).
    if (url.endsWith("/experts/me")) await api.approve(expert);
  }
  return reply!.json<{ session: { id: string } }>().session.id;
}

const offered = async (sessionId: string) => {
  const r = await api.call("GET", `${V1}/sessions/${sessionId}/availability?from=2026-03-04&to=2026-03-04`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ times: string[] }>().times;
};

beforeAll(async () => {
  api = await startTestApi({ clock: () => NOW });
  other = await PostgresEventStore.connect(api.databaseUrl);
});
afterAll(async () => {
  await other?.close();
  await api?.close();
});

describe("availability beside another API process", () => {
  it("shows time off added through another process without a write through this one", async () => {
    const expert = await api.user("expert");
    const sessionId = await publishedSession(expert);
    expect(await offered(sessionId)).toContain("2026-03-04T10:00:00.000Z");
    expect(await offered(sessionId)).toContain("2026-03-04T10:00:00.000Z"); // now answered from memory

    const { calendar } = commandHandlers(other, () => NOW);
    const actor = { userId: expert.id, role: "expert" as const };
    const timeOff = { timeOffId: randomUUID(), start: "2026-03-04T00:00", end: "2026-03-05T00:00", reason: "Conference" };
    const added = await calendar.handle(calendarStream(expert.id), { type: "AddTimeOff", expertId: expert.id, actor, timeOff }, { actor });
    expect(added.ok).toBe(true);

    // Well inside maxAgeMs (5 s): the other process's NOTIFY, naming the calendar, is what shows it.
    const deadline = Date.now() + 2_000;
    let times = await offered(sessionId);
    while (times.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      times = await offered(sessionId);
    }
    expect(times).toEqual([]);
  });
});
