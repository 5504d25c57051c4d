import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DateTime } from "luxon";
import type { WeeklySlot } from "@booking/contracts";
import { proposableStarts } from "@booking/engine";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// GET /bookings/{id}/proposable-times: the times the Manage Booking page offers an expert, computed
// by the engine's proposableStarts over the expert's calendar (the rule the ProposeTime decision
// applies), on a fixed clock so the 28-day window and the DST changes are known. Since issue 27.12
// they are the expert's bookable times: inside the weekly hours, the whole session fitting.

const V1 = "/api/v1";
const NOW = "2026-03-02T08:00:00.000Z"; // a Monday; New York springs forward on 8 March, London on 29 March
const nineToFive = (weekdays: WeeklySlot["weekday"][]): WeeklySlot[] =>
  weekdays.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" }));
const WORKDAYS: WeeklySlot["weekday"][] = ["monday", "tuesday", "wednesday", "thursday", "friday"];
const everyDay = nineToFive([...WORKDAYS, "saturday", "sunday"]);

let api: TestApi;
let creator: TestUser;
let otherCreator: TestUser;
let otherExpert: TestUser;
let admin: TestUser;

async function must(user: TestUser, method: "POST" | "PATCH", url: string, body: unknown) {
  const r = await api.call(method, url, { user, body });
  if (r.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${r.statusCode} ${r.body}`);
  return r.json();
}

/** An expert in `timezone`, working 9:00 to 17:00 on `slots`' days (every day unless told), with a published one-hour session. */
async function expertIn(timezone: string, slots = everyDay) {
  const expert = await api.user("expert");
  await must(expert, "PATCH", `${V1}/experts/me`, { first_name: "Maya", last_name: "Lind", title: "Advisor", published: true });
  await api.approve(expert);
  await must(expert, "POST", `${V1}/experts/${expert.id}/schedule`, { timezone, slots });
  const sessionId: string = (
    await must(expert, "POST", `${V1}/sessions`, {
      title: "Deck review",
      price: 100,
      length_minutes: 60,
      prep_question_1: "Goal?",
      status: "published",
    })
  ).session.id;
  return { expert, sessionId };
}

const book = async (who: TestUser, sessionId: string, at: string): Promise<string> =>
  (await must(who, "POST", `${V1}/bookings`, { session_id: sessionId, scheduled_time: at })).booking.id;
const ask = (user: TestUser | undefined, bookingId: string, date?: string) =>
  api.call("GET", `${V1}/bookings/${bookingId}/proposable-times${date === undefined ? "" : `?date=${encodeURIComponent(date)}`}`, {
    ...(user && { user }),
  });
const timesOf = async (user: TestUser, bookingId: string, date?: string): Promise<string[]> => {
  const r = await ask(user, bookingId, date);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ times: string[] }>().times;
};
const local = (times: string[], zone: string) => times.map((t) => DateTime.fromISO(t, { zone }).toFormat("yyyy-MM-dd HH:mm"));

let london: { expert: TestUser; sessionId: string };
let booking: string;
const OWN = "2026-03-04T10:00:00.000Z";
const OTHER = "2026-03-04T13:00:00.000Z";

beforeAll(async () => {
  api = await startTestApi({ clock: () => NOW });
  creator = await api.user("creator");
  otherCreator = await api.user("creator");
  otherExpert = await api.user("expert");
  admin = await api.user("admin");
  london = await expertIn("Europe/London", nineToFive(WORKDAYS));
  booking = await book(creator, london.sessionId, OWN);
  await book(otherCreator, london.sessionId, OTHER);
});
afterAll(async () => api?.close());

describe("times an expert may propose for a booking", () => {
  it("are the expert's bookable times: in weekly hours, the whole session fitting, not those another booking takes, its own included", async () => {
    const r = await ask(london.expert, booking, "2026-03-04");
    expect(r.json()).toMatchObject({ timezone: "Europe/London" });
    const day = local(r.json<{ times: string[] }>().times, "Europe/London").map((t) => t.slice(11));
    // 9:00 to 16:00: a one-hour session starting later would run past 17:00.
    const halfHours = Array.from({ length: 15 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`);
    // The other booking (13:00-14:00) rules out 12:30, 13:00 and 13:30 for a one-hour session.
    expect(day).toEqual(halfHours.filter((t) => !["12:30", "13:00", "13:30"].includes(t)));
    expect(r.json<{ times: string[] }>().times).toContain(OWN);
  });

  it("offer nothing on a day outside the weekly hours (a weekday expert's Saturday and Sunday)", async () => {
    expect(await timesOf(london.expert, booking, "2026-03-07")).toEqual([]);
    expect(await timesOf(london.expert, booking, "2026-03-08")).toEqual([]);
  });

  it("without a date, are the whole 28-day window exactly as the engine's proposableStarts gives them", async () => {
    const times = await timesOf(london.expert, booking);
    const schedule = { timezone: "Europe/London", slots: nineToFive(WORKDAYS) };
    expect(times).toEqual(proposableStarts({ schedule, lengthMinutes: 60, busy: [{ start: OTHER, lengthMinutes: 60 }], now: NOW }));
    expect(times[0]).toBe("2026-03-02T09:00:00.000Z");
    expect(Date.parse(times.at(-1)!)).toBeLessThanOrEqual(Date.parse(NOW) + 28 * 86_400_000);
    // London moves to summer time on 29 March: 9:00 there is 08:00 UTC from then on.
    expect(times).toContain("2026-03-27T09:00:00.000Z");
    expect(times).toContain("2026-03-30T08:00:00.000Z");
    expect(times.filter((t) => t.startsWith("2026-03-27")).at(-1)).toBe("2026-03-27T16:00:00.000Z"); // 16:00 GMT, ending at 17:00
    expect(times.at(-1)).toBe("2026-03-30T08:00:00.000Z"); // 9:00 BST on Monday 30 March is where the 28 days end
  });

  it("follow a zone's DST change: New York's 9:00 is 14:00 UTC before 8 March and 13:00 UTC after", async () => {
    const ny = await expertIn("America/New_York");
    const id = await book(creator, ny.sessionId, "2026-03-10T15:00:00.000Z");
    const before = await timesOf(ny.expert, id, "2026-03-07");
    const after = await timesOf(ny.expert, id, "2026-03-09");
    expect([before.length, before[0], before.at(-1)]).toEqual([15, "2026-03-07T14:00:00.000Z", "2026-03-07T21:00:00.000Z"]);
    expect([after.length, after[0], after.at(-1)]).toEqual([15, "2026-03-09T13:00:00.000Z", "2026-03-09T20:00:00.000Z"]);
    const schedule = { timezone: "America/New_York", slots: everyDay };
    const dstDay = { from: "2026-03-08T05:00:00.000Z", to: "2026-03-09T03:59:59.999Z" };
    expect(await timesOf(ny.expert, id, "2026-03-08")).toEqual(
      proposableStarts({ schedule, lengthMinutes: 60, busy: [], now: NOW, ...dstDay }),
    );
  });

  it("take the date as the expert's calendar day, not UTC's: Auckland's 10 March starts on 9 March in UTC", async () => {
    const auckland = await expertIn("Pacific/Auckland");
    const id = await book(creator, auckland.sessionId, "2026-03-12T01:00:00.000Z");
    const times = await timesOf(auckland.expert, id, "2026-03-10");
    expect([times.length, times[0], times.at(-1)]).toEqual([15, "2026-03-09T20:00:00.000Z", "2026-03-10T03:00:00.000Z"]);
  });

  it("stay inside the booking window: none today before now, none after 28 days", async () => {
    expect(local(await timesOf(london.expert, booking, "2026-03-02"), "Europe/London")[0]).toBe("2026-03-02 09:00");
    expect(await timesOf(london.expert, booking, "2026-03-01")).toEqual([]);
    expect(await timesOf(london.expert, booking, "2026-04-15")).toEqual([]);
  });

  it("an admin may ask; the booking's creator is told only its expert may, anyone else finds no booking", async () => {
    expect(await timesOf(admin, booking, "2026-03-04")).toEqual(await timesOf(london.expert, booking, "2026-03-04"));
    const refused = async (user: TestUser | undefined) => {
      const r = await ask(user, booking, "2026-03-04");
      return `${r.statusCode} ${r.json<{ code: string }>().code}`;
    };
    expect(await refused(creator)).toBe("403 not_booking_party");
    expect(await refused(otherCreator)).toBe("404 booking_not_found");
    expect(await refused(otherExpert)).toBe("404 booking_not_found");
    expect(await refused(undefined)).toBe("401 no_access_token");
    expect(`${(await ask(london.expert, "7b0c2f0e-9a8e-4a52-9d1e-3f7c1a6b2d10")).statusCode}`).toBe("404");
  });

  it("refuse a date that is not a calendar date with 400", async () => {
    for (const date of ["2026-02-30", "2026-13-01", "tomorrow", "2026-3-4", "", "2026-03-04T10:00:00Z"]) {
      const r = await ask(london.expert, booking, date);
      expect([date, r.statusCode, r.json<{ code: string }>().code]).toEqual([date, 400, "invalid_request"]);
    }
    expect((await api.call("GET", `${V1}/bookings/${booking}/proposable-times?day=2026-03-04`, { user: london.expert })).statusCode).toBe(
      400,
    );
  });
});
