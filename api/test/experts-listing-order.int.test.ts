import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExpertListItem } from "@booking/contracts";
import { expertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// The experts listing's sort and filters through GET /experts and /experts/search (issue 30.5), over
// experts made through the routes: the order and the set each query gives, each expert's next opening
// and answer time as the cards show them, and bad queries refused with catalogue messages.

const V1 = "/api/v1";
const DAY = 86_400_000;
const EVERY_DAY = (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
  weekday,
  start_local: "09:00",
  end_local: "17:00",
}));

let api: TestApi;
let creator: TestUser;
const ids: Record<string, string> = {};
const users: Record<string, TestUser> = {};

type Offer = { price: number; length_minutes: number };

/** An approved, published expert offering `offers`, open every day (or not at all), their last name the key of `ids`. */
async function listedExpert(last: string, title: string, offers: Offer[], open = true): Promise<TestUser> {
  const user = await api.user("expert");
  const body = { first_name: "Listing", last_name: last, title, tags: [], published: true };
  expect((await api.call("PATCH", `${V1}/experts/me`, { user, body })).statusCode).toBe(200);
  await api.approve(user);
  for (const [i, o] of offers.entries()) {
    const session = { title: `${last} session ${i + 1}`, description: "", prep_question_1: "Goal?", status: "published", ...o };
    expect((await api.call("POST", `${V1}/sessions`, { user, body: session })).statusCode).toBe(201);
  }
  if (open) {
    const r = await api.call("POST", `${V1}/experts/${user.id}/schedule`, { user, body: { timezone: "UTC", slots: EVERY_DAY } });
    expect(r.statusCode, r.body).toBe(200);
  }
  ids[last] = user.id;
  users[last] = user;
  return user;
}

/** The listed experts of this suite, in the order the query gives them, by last name. */
async function order(query = ""): Promise<string[]> {
  const path = query.includes("search=") ? `/experts/search?${query}` : `/experts${query ? `?${query}` : ""}`;
  const r = await api.call("GET", `${V1}${path}`);
  expect(r.statusCode, r.body).toBe(200);
  const byId = new Map(Object.entries(ids).map(([last, id]) => [id, last]));
  return r
    .json<ExpertListItem[]>()
    .map((e) => byId.get(e.id))
    .filter((x): x is string => x !== undefined);
}

const item = async (last: string) => (await api.call("GET", `${V1}/experts`)).json<ExpertListItem[]>().find((e) => e.id === ids[last])!;

beforeAll(async () => {
  api = await startTestApi();
  creator = await api.user("creator");
  await listedExpert("Abbott", "Brand strategist", [{ price: 40, length_minutes: 30 }]);
  await listedExpert("Brandt", "Podcast coach", [{ price: 150, length_minutes: 60 }]);
  const away = await listedExpert("Castle", "Newsletter editor", [{ price: 90, length_minutes: 90 }]);
  // Castle is away for the next nine days: their first opening is after this week.
  const today = new Date().toISOString().slice(0, 10);
  const back = new Date(Date.now() + 9 * DAY).toISOString().slice(0, 10);
  const off = await api.call("POST", `${V1}/experts/${away.id}/time-off`, {
    user: away,
    body: { start_date: today, end_date: back, reason: "Away" },
  });
  expect(off.statusCode, off.body).toBe(201);
  await listedExpert("Dorsey", "Brand photographer", [{ price: 60, length_minutes: 60 }], false);
}, 60_000);
afterAll(async () => api?.close());

describe("the listing's cards", () => {
  it("show each expert's next opening: soon for an open expert, after the time off for one away, none without a schedule", async () => {
    const soon = Date.parse((await item("Abbott")).next_available!);
    expect(soon).toBeGreaterThan(Date.now());
    expect(soon).toBeLessThan(Date.now() + 2 * DAY);
    expect(Date.parse((await item("Castle")).next_available!)).toBeGreaterThan(Date.now() + 9 * DAY);
    expect((await item("Dorsey")).next_available).toBeNull();
  });

  it("show how fast an expert answers once they have accepted a paid request, and the recommended order puts them first", async () => {
    expect((await item("Brandt")).median_answer_minutes).toBeNull();
    expect((await order()).slice(0, 4)).toEqual(["Abbott", "Brandt", "Castle", "Dorsey"]);
    // Brandt's calendar opens all day (the test calendar's hours) and a creator's paid request is accepted at once.
    const calendar = await expertCalendar(api, users.Brandt!);
    await calendar.confirmedBooking(creator, new Date(Date.now() + 3 * DAY).toISOString().slice(0, 11) + "10:00:00.000Z");
    expect((await item("Brandt")).median_answer_minutes).toBe(0);
    const standing = await api.call("GET", `${V1}/admin/experts/${ids.Brandt}/standing`, { user: await api.user("admin") });
    expect(standing.json()).toMatchObject({ median_answer_minutes: 0, acceptance_percent: 100, answered_requests: 1 });
    expect(await order()).toEqual(["Brandt", "Abbott", "Castle", "Dorsey"]);
  });
});

describe("the sorts", () => {
  it("lowest price first; soonest available first with no opening last", async () => {
    expect(await order("sort=price")).toEqual(["Abbott", "Dorsey", "Castle", "Brandt"]);
    const soonest = await order("sort=soonest");
    expect(soonest.slice(0, 2).sort()).toEqual(["Abbott", "Brandt"]);
    expect(soonest.slice(2)).toEqual(["Castle", "Dorsey"]);
  });

  it("best match puts a name match before a title match; the spec's search keeps its set", async () => {
    expect(await order("search=brand&sort=relevance")).toEqual(["Brandt", "Abbott", "Dorsey"]);
    expect((await order("search=brand")).sort()).toEqual(["Abbott", "Brandt", "Dorsey"]);
  });
});

describe("the filters", () => {
  it("a session length, a price range, both on one session, and availability this week each narrow the set", async () => {
    expect(await order("length_minutes=60&sort=price")).toEqual(["Dorsey", "Brandt"]);
    expect(await order("max_price_cents=10000&sort=price")).toEqual(["Abbott", "Dorsey", "Castle"]);
    expect(await order("min_price_cents=5000&max_price_cents=9000&sort=price")).toEqual(["Dorsey", "Castle"]);
    expect(await order("length_minutes=30&min_price_cents=5000")).toEqual([]);
    expect(await order("available=this_week&sort=price")).toEqual(["Abbott", "Brandt"]);
    expect(await order("max_price_cents=10000&currency=EUR")).toEqual([]);
  });

  it("refuses a bad sort or filter with its catalogue message and a 4xx", async () => {
    const cases: [string, string][] = [
      ["sort=cheapest", "Please sort by recommended, best match, highest rated, lowest price or soonest available."],
      [
        "min_price_cents=9000&max_price_cents=100",
        "Please give a price range of whole amounts, with the lowest price no higher than the highest.",
      ],
      ["max_price_cents=-1", "Please give a price range of whole amounts, with the lowest price no higher than the highest."],
      ["length_minutes=45", "Please choose a session length of 30, 60, 90 or 120 minutes."],
      ["available=today", "Availability can only be filtered to this week."],
      ["currency=XYZ", "Choose one of the currencies we support: USD, EUR, GBP, CAD or AUD."],
    ];
    for (const [query, message] of cases) {
      const r = await api.call("GET", `${V1}/experts?${query}`);
      expect(r.statusCode, query).toBe(query.startsWith("currency") ? 422 : 400);
      expect(JSON.stringify(r.json()), query).toContain(message);
    }
  });
});
