import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarStream } from "@booking/engine";
import { syncDueCalendars } from "../src/external-calendars/index.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 32 through the API with an iCal address served by a local HTTP server: connecting reads it at
// once, its busy times leave availability and the booking decision, an unchanged file costs a 304 and
// records nothing, a booking already inside a new busy time is listed, a failing read shows its reason
// and backs off, disconnecting gives the times back and forgets the address. Refusals keep nothing.

const V1 = "/api/v1";
const ZONE = "Europe/London";
let now = "2026-03-02T08:00:00.000Z"; // Monday; London is on GMT until 29 March
const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "09:00",
  end_local: "17:00",
}));

/** What the calendar server answers, changed by each test; every request it got, with its validators. */
const served = { status: 200, type: "text/calendar", body: "", etag: '"v1"' };
const requests: { path: string; ifNoneMatch: string | undefined }[] = [];
let icsServer: Server;
let base: string;
let api: TestApi;
let expert: TestUser;
let sessionId: string;

const vcalendar = (...events: string[][]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Test//EN",
    ...events.flatMap((e) => ["BEGIN:VEVENT", ...e, "END:VEVENT"]),
    "END:VCALENDAR",
  ].join("\r\n");
/** Wednesday 4 March 13:00-14:30 London: the dentist (titles are never kept). */
const dentist = ["UID:dentist@test", "DTSTAMP:20260101T000000Z", "DTSTART:20260304T130000Z", "DTEND:20260304T143000Z", "SUMMARY:Dentist"];
/** Every Thursday 10:00-11:00 London: the team call. */
const teamCall = [
  "UID:team@test",
  "DTSTAMP:20260101T000000Z",
  "DTSTART;TZID=Europe/London:20260305T100000",
  "DTEND;TZID=Europe/London:20260305T110000",
  "RRULE:FREQ=WEEKLY",
  "SUMMARY:Team call",
];
/** Monday 2 March (today) 09:00-12:00: the morning is taken. */
const mondayMorning = ["UID:monday@test", "DTSTAMP:20260101T000000Z", "DTSTART:20260302T090000Z", "DTEND:20260302T120000Z"];
/** Friday all afternoon, but marked free: it blocks nothing. */
const freeTime = ["UID:free@test", "DTSTAMP:20260101T000000Z", "DTSTART:20260306T120000Z", "DTEND:20260306T170000Z", "TRANSP:TRANSPARENT"];

async function must(method: "POST" | "PATCH" | "PUT" | "DELETE", url: string, body?: unknown) {
  const r = await api.call(method, url, { user: expert, ...(body !== undefined && { body }) });
  if (r.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${r.statusCode} ${r.body}`);
  return r.statusCode === 204 ? null : r.json();
}
async function offeredOn(date: string): Promise<string[]> {
  const r = await api.call("GET", `${V1}/sessions/${sessionId}/availability?from=${date}&to=${date}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ times: string[] }>().times.map((t) => DateTime.fromISO(t, { zone: ZONE }).toFormat("HH:mm"));
}
const connect = (url: string) => api.call("POST", `${V1}/experts/${expert.id}/calendars`, { user: expert, body: { kind: "ics", url } });
const connections = async () => (await api.call("GET", `${V1}/experts/${expert.id}/calendars`, { user: expert })).json();
const streamVersion = async () => (await api.ctx.calendar.load(calendarStream(expert.id))).version;

beforeAll(async () => {
  icsServer = createServer((request: IncomingMessage, response) => {
    requests.push({ path: request.url ?? "", ifNoneMatch: request.headers["if-none-match"] });
    if (request.url === "/google/week-with-exceptions.ics")
      return response
        .writeHead(200, { "content-type": "text/calendar" })
        .end(readFileSync(new URL("./fixtures/external-calendar/week-with-exceptions.ics", import.meta.url)));
    if (served.status === 200 && request.headers["if-none-match"] === served.etag) return response.writeHead(304).end();
    response.writeHead(served.status, { "content-type": served.type, etag: served.etag }).end(served.body);
  });
  await new Promise<void>((resolve) => icsServer.listen(0, "127.0.0.1", resolve));
  const port = (icsServer.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  api = await startTestApi({ clock: () => now, calendarPlainHosts: [`127.0.0.1:${port}`] });
  expert = await api.user("expert");
  await must("PATCH", `${V1}/experts/me`, { first_name: "Ada", last_name: "Moss", title: "Coach", published: true });
  await api.approve(expert);
  await must("POST", `${V1}/experts/${expert.id}/schedule`, { timezone: ZONE, slots: everyDay });
  sessionId = (
    await must("POST", `${V1}/sessions`, {
      title: "Pricing review",
      price: 100,
      length_minutes: 60,
      prep_question_1: "Goal?",
      status: "published",
    })
  ).session.id;
});
afterAll(async () => {
  await api?.close();
  icsServer?.close();
});

describe("connecting a secret iCal address", () => {
  const secretPath = "/calendar/ical/ada%40example.com/private-5ecret7oken/basic.ics";
  let connectionId: string;

  it("reads it at once: busy times leave availability and the booking decision; free time and titles do not count", async () => {
    served.body = vcalendar(mondayMorning, dentist, teamCall, freeTime);
    const r = await connect(`${base}${secretPath}`);
    expect(r.statusCode, r.body).toBe(201);
    const c = r.json();
    connectionId = c.id;
    expect(c).toMatchObject({
      kind: "ics",
      label: base.slice("http://".length),
      last_error: null,
      calendars: [{ blocks: true, receives_bookings: false }],
    });
    // Monday morning, the dentist and four Thursdays of the team call in the window.
    expect(c.calendars[0].busy_count).toBe(6);
    expect(r.body).not.toContain("5ecret7oken");
    expect(await offeredOn("2026-03-04")).toEqual([
      "09:00",
      "09:30",
      "10:00",
      "10:30",
      "11:00",
      "11:30",
      "12:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
    ]);
    expect(await offeredOn("2026-03-12")).not.toContain("10:00"); // the team call's second Thursday
    expect(await offeredOn("2026-03-06")).toHaveLength(15); // transparent: free
    // The listing's next opening keeps clear of them too: today from 12:00, not 09:00.
    const cards = (await api.call("GET", `${V1}/experts`)).json<{ user_id: string; next_available: string | null }[]>();
    expect(cards.find((card) => card.user_id === expert.id)?.next_available).toBe("2026-03-02T12:00:00.000Z");
    const booked = await api.call("POST", `${V1}/bookings`, {
      user: await api.user("creator"),
      body: { session_id: sessionId, scheduled_time: "2026-03-04T13:30:00.000Z" },
    });
    expect(booked.statusCode).toBe(409);
    expect(booked.json().code).toBe("slot_unavailable");
  });

  it("time travel shows what the decision saw: the busy time on the day, and the times it took away", async () => {
    const admin = await api.user("admin");
    const r = await api.call("GET", `${V1}/admin/experts/${expert.id}/calendar/as-of?at=${encodeURIComponent(now)}&date=2026-03-04`, {
      user: admin,
    });
    expect(r.statusCode, r.body).toBe(200);
    const day = r.json();
    expect(day.external_busy).toEqual([
      { calendar_id: expect.any(String), start: "2026-03-04T13:00:00.000Z", end: "2026-03-04T14:30:00.000Z" },
    ]);
    expect(day.bookable).not.toContain("2026-03-04T13:00:00.000Z");
    expect(day.bookable).toContain("2026-03-04T14:30:00.000Z");
  });

  it("keeps the address sealed: neither the database nor a reply holds it in the clear, and the event stream holds no title", async () => {
    const { rows } = await api.ctx.db.query("SELECT sealed_secret, label FROM calendar_connections WHERE connection_id = $1", [
      connectionId,
    ]);
    expect(rows[0].sealed_secret).not.toContain("5ecret7oken");
    expect(JSON.stringify(await connections())).not.toContain("5ecret7oken");
    const { events } = await api.ctx.store.readStream(calendarStream(expert.id));
    expect(JSON.stringify(events.map((e) => e.data))).not.toMatch(/Dentist|Team call/);
  });

  it("an unchanged file answers 304 and records nothing; a changed one moves the busy times", async () => {
    const before = await streamVersion();
    requests.length = 0;
    const again = await must("POST", `${V1}/experts/${expert.id}/calendars/${connectionId}/sync`);
    expect(requests).toEqual([{ path: secretPath, ifNoneMatch: '"v1"' }]);
    expect(again.last_error).toBeNull();
    expect(await streamVersion()).toBe(before);
    // The dentist moves to 15:00-16:00.
    served.body = vcalendar(
      ["UID:dentist@test", "DTSTAMP:20260102T000000Z", "DTSTART:20260304T150000Z", "DTEND:20260304T160000Z"],
      teamCall,
    );
    served.etag = '"v2"';
    await must("POST", `${V1}/experts/${expert.id}/calendars/${connectionId}/sync`);
    expect(await streamVersion()).toBe(before + 1);
    expect(await offeredOn("2026-03-04")).toEqual([
      "09:00",
      "09:30",
      "10:00",
      "10:30",
      "11:00",
      "11:30",
      "12:00",
      "12:30",
      "13:00",
      "13:30",
      "14:00",
      "16:00",
    ]);
  });

  it("a booking already inside a new busy time is listed to the expert, never dropped", async () => {
    const creator = await api.user("creator");
    const booked = await api.call("POST", `${V1}/bookings`, {
      user: creator,
      body: { session_id: sessionId, scheduled_time: "2026-03-07T10:00:00.000Z" },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    served.body = vcalendar(teamCall, ["UID:sat@test", "DTSTAMP:20260101T000000Z", "DTSTART:20260307T093000Z", "DTEND:20260307T103000Z"]);
    served.etag = '"v3"';
    await must("POST", `${V1}/experts/${expert.id}/calendars/${connectionId}/sync`);
    const listed = await connections();
    expect(listed.affected_bookings).toEqual([
      expect.objectContaining({
        booking_id: booked.json().booking.id,
        status: "pending",
        scheduled_time: "2026-03-07T10:00:00.000Z",
        calendar_ids: [listed.connections[0].calendars[0].id],
      }),
    ]);
  });

  it("a failing read keeps the last busy times, shows its reason and waits longer each time; the sweeper reads again when due", async () => {
    served.status = 500;
    const failed = await must("POST", `${V1}/experts/${expert.id}/calendars/${connectionId}/sync`);
    expect(failed.last_error).toBe(
      "The calendar's server answered 500 Internal Server Error. Please check that this is the calendar's secret iCal address.",
    );
    expect(Date.parse(failed.next_sync_at) - Date.parse(now)).toBe(10 * 60_000); // 5 minutes doubled once
    expect(await offeredOn("2026-03-12")).not.toContain("10:00"); // still blocked by what was last read
    served.status = 200;
    served.etag = '"v4"';
    now = new Date(Date.parse(now) + 11 * 60_000).toISOString();
    expect(await syncDueCalendars({ db: api.ctx.db, calendar: api.ctx.calendar, clock: () => now, ...api.ctx.externalCalendars })).toBe(1);
    expect((await connections()).connections[0]).toMatchObject({ last_error: null, last_synced_at: now });
  });

  it("disconnecting gives the times back and forgets the address", async () => {
    await must("DELETE", `${V1}/experts/${expert.id}/calendars/${connectionId}`);
    expect(await offeredOn("2026-03-12")).toContain("10:00");
    const { rows } = await api.ctx.db.query("SELECT count(*)::int AS n FROM calendar_connections WHERE expert_id = $1", [expert.id]);
    expect(rows[0].n).toBe(0);
    expect((await connections()).connections).toEqual([]);
  });
});

describe("refusals: a clear message, nothing kept", () => {
  it.each([
    ["plain http to a host not allowed", () => `http://localhost:${new URL(base).port}/x.ics`, 422, "calendar_address_not_https"],
    ["a private address", () => "https://10.1.2.3/cal.ics", 422, "calendar_address_refused"],
    ["loopback", () => "https://127.0.0.1:1/cal.ics", 422, "calendar_address_refused"],
    ["not an address", () => "my calendar", 400, "calendar_url_invalid"],
  ])("%s", async (_what, url, status, code) => {
    const r = await connect(url());
    expect(r.statusCode, r.body).toBe(status);
    expect(r.json().code).toBe(code);
    expect((await connections()).connections).toEqual([]);
  });

  it("a page that is not a calendar, and a missing one, are refused with what went wrong", async () => {
    Object.assign(served, { status: 200, type: "text/html", body: "<html>Sign in</html>", etag: '"h"' });
    const html = await connect(`${base}/page`);
    expect(html.statusCode).toBe(422);
    expect(html.json()).toEqual({ code: "calendar_not_icalendar", message: "That address did not return a calendar (an iCalendar file)." });
    served.status = 404;
    expect((await connect(`${base}/gone.ics`)).json().code).toBe("calendar_fetch_refused");
    expect((await connections()).connections).toEqual([]);
  });

  it("an expert without weekly hours is asked to set them first (events are read in their timezone)", async () => {
    const newcomer = await api.user("expert");
    const r = await api.call("POST", `${V1}/experts/${newcomer.id}/calendars`, {
      user: newcomer,
      body: { kind: "ics", url: `${base}/x.ics` },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe("calendar_schedule_first");
  });

  it("only the expert (or an admin) sees or changes their calendars", async () => {
    const other = await api.user("expert");
    const creator = await api.user("creator");
    for (const user of [other, creator]) {
      expect((await api.call("GET", `${V1}/experts/${expert.id}/calendars`, { user })).statusCode).toBe(403);
      const r = await api.call("POST", `${V1}/experts/${expert.id}/calendars`, { user, body: { kind: "ics", url: `${base}/x.ics` } });
      expect(r.statusCode).toBe(403);
    }
    expect((await api.call("GET", `${V1}/experts/${expert.id}/calendars`)).statusCode).toBe(401);
  });
});

describe("a real-world shaped Google export, served over HTTP", () => {
  it("blocks the weekly review across the US change of time, but not its excluded week, its moved one, a cancelled or a free event", async () => {
    now = "2026-10-10T12:00:00.000Z"; // the booking window runs to 7 November, past the change of 1 November
    const nyExpert = await api.user("expert");
    const as = async (method: "POST" | "PATCH", path: string, body: unknown) => {
      const r = await api.call(method, `${V1}${path}`, { user: nyExpert, body });
      expect(r.statusCode, r.body).toBeLessThan(300);
      return r.json();
    };
    await as("PATCH", "/experts/me", { first_name: "Noa", last_name: "Park", title: "Coach", published: true });
    await api.approve(nyExpert);
    const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"].map((weekday) => ({
      weekday,
      start_local: "09:00",
      end_local: "17:00",
    }));
    await as("POST", `/experts/${nyExpert.id}/schedule`, { timezone: "America/New_York", slots: weekdays });
    const session = (
      await as("POST", "/sessions", { title: "Review", price: 100, length_minutes: 60, prep_question_1: "Goal?", status: "published" })
    ).session.id;
    const connected = await as("POST", `/experts/${nyExpert.id}/calendars`, {
      kind: "ics",
      url: `${base}/google/week-with-exceptions.ics`,
    });
    expect(connected.last_error).toBeNull();
    const offered = async (date: string) => {
      const r = await api.call("GET", `${V1}/sessions/${session}/availability?from=${date}&to=${date}`);
      return r.json<{ times: string[] }>().times.map((t) => DateTime.fromISO(t, { zone: "America/New_York" }).toFormat("HH:mm"));
    };
    // The weekly review, 10:00-11:00 New York (EDT), then a follow-up 15:00-15:30 UTC (11:00 EDT).
    expect(await offered("2026-10-15")).not.toContain("10:00");
    expect(await offered("2026-10-15")).not.toContain("11:00");
    expect(await offered("2026-10-15")).toContain("11:30");
    // After the change the review stays at 10:00 New York time (EST, 15:00 UTC).
    expect(await offered("2026-11-05")).not.toContain("10:00");
    expect(await offered("2026-11-05")).toEqual(expect.arrayContaining(["09:00", "11:00"]));
    expect(await offered("2026-10-22")).toContain("10:00"); // EXDATE: no review that week
    expect(await offered("2026-10-29")).toContain("10:00"); // moved to Friday...
    expect(await offered("2026-10-30")).not.toContain("13:00"); // ...13:00-14:30
    expect(await offered("2026-10-30")).toContain("14:30");
    expect(await offered("2026-10-14")).toHaveLength(15); // the cancelled dentist
    expect(await offered("2026-10-20")).toHaveLength(15); // the free lunch
    expect(await offered("2026-11-02")).toContain("09:00"); // all-day events do not block unless the expert says so
  });
});
