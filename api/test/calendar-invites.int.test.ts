import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, injectPost, mailedToken, signUpVerified } from "./auth-client.ts";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// "Add to calendar" and the personal calendar feed, read back with a real iCalendar parser
// (ical.js): one entry per booking under a stable UID, SEQUENCE rising with each change, times
// in UTC that keep the expert's local 10:00 on both sides of a daylight-saving change. Neither
// names anyone's address, and the feed's address dies with the sessions when they all end.

const now = "2027-03-20T12:00:00.000Z";
let api: TestApi;
let calendar: ExpertCalendar;
let creator: TestUser;
let outsider: TestUser;

type Parsed = { method: string | null; events: ICAL.Event[] };

function parse(text: string): Parsed {
  const root = new ICAL.Component(ICAL.parse(text));
  return {
    method: root.getFirstPropertyValue("method") as string | null,
    events: root.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v)),
  };
}

const icsOf = async (bookingId: string, user: TestUser) => api.call("GET", `/api/v1/bookings/${bookingId}/calendar.ics`, { user });

beforeAll(async () => {
  api = await startTestApi({ clock: () => now });
  creator = await api.user("creator", { firstName: "Cora" });
  outsider = await api.user("creator");
  calendar = await expertCalendar(api, await api.user("expert", { firstName: "Ezra" }));
  const everyDay = (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
    weekday,
    start_local: "08:00",
    end_local: "18:00",
  }));
  await calendar.run({
    type: "SetSchedule",
    expertId: calendar.expert.id,
    actor: { userId: calendar.expert.id, role: "expert" },
    schedule: { timezone: "Europe/Berlin", slots: everyDay },
  });
}, 60_000);

afterAll(async () => api?.close());

describe("a confirmed booking's calendar file", () => {
  it("holds one published event with the booking's UID, its UTC times, both names and the time in the expert's zone", async () => {
    // 10:00 in Berlin on 26 March 2027 is 09:00 UTC (CET, before the change on the 28th).
    const bookingId = await calendar.confirmedBooking(creator, "2027-03-26T09:00:00.000Z", 15_000, "Pricing review");
    const r = await icsOf(bookingId, creator);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^text\/calendar/);
    expect(r.headers["content-disposition"]).toContain(`booking-${bookingId}.ics`);
    expect(r.body).toContain("\r\n"); // RFC 5545 lines end with CRLF
    const { method, events } = parse(r.body);
    // A download is published (METHOD:REQUEST is an invitation by mail, issue 27 item 17).
    expect(method).toBe("PUBLISH");
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event!.uid).toBe(`booking-${bookingId}@localhost:3000`);
    expect(event!.startDate.toJSDate().toISOString()).toBe("2027-03-26T09:00:00.000Z");
    expect(event!.endDate.toJSDate().toISOString()).toBe("2027-03-26T10:00:00.000Z");
    expect(event!.summary).toContain("Pricing review");
    expect(event!.summary).toContain("Cora");
    expect(event!.description).toContain("In the expert's zone: Friday, 26 March 2027, 10:00 (Europe/Berlin, GMT+1).");
    expect(event!.component.getFirstPropertyValue("status")).toBe("CONFIRMED");
  });

  it("names nobody's sign-in address, to either party (issue 26 item 7)", async () => {
    const bookingId = await calendar.confirmedBooking(creator, "2027-03-26T12:00:00.000Z");
    for (const reader of [creator, calendar.expert]) {
      const r = await icsOf(bookingId, reader);
      expect(r.statusCode, r.body).toBe(200);
      const [event] = parse(r.body).events;
      expect(event!.attendees).toEqual([]);
      expect(event!.organizer).toBeFalsy();
      for (const email of [creator.email, calendar.expert.email]) expect(r.body).not.toContain(email);
      expect(r.body).not.toContain("mailto:");
    }
  });

  it("keeps the expert's local 10:00 across the daylight-saving change: 09:00 UTC before, 08:00 UTC after", async () => {
    const before = await calendar.confirmedBooking(creator, "2027-03-27T09:00:00.000Z");
    const after = await calendar.confirmedBooking(creator, "2027-03-29T08:00:00.000Z");
    for (const [bookingId, utc] of [
      [before, "2027-03-27T09:00:00.000Z"],
      [after, "2027-03-29T08:00:00.000Z"],
    ] as const) {
      const [event] = parse((await icsOf(bookingId, calendar.expert)).body).events;
      expect(event!.startDate.toJSDate().toISOString()).toBe(utc);
      expect(event!.startDate.zone?.tzid).toBe("UTC");
      // Read in Berlin, both start at 10:00.
      expect(new Date(utc).toLocaleTimeString("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" })).toBe("10:00");
    }
  });

  it("keeps its UID and raises SEQUENCE when the booking changes; a cancelled one's file is published as cancelled", async () => {
    const bookingId = await calendar.confirmedBooking(creator, "2027-03-31T09:00:00.000Z");
    const first = parse((await icsOf(bookingId, creator)).body).events[0]!;
    await calendar.run({
      type: "CancelBooking",
      expertId: calendar.expert.id,
      bookingId,
      actor: { userId: calendar.expert.id, role: "expert" },
      reason: "Ill",
    });
    const r = await icsOf(bookingId, creator);
    expect(r.statusCode, r.body).toBe(200);
    const cancelled = parse(r.body);
    expect(cancelled.method).toBe("PUBLISH");
    expect(cancelled.events[0]!.uid).toBe(first.uid);
    expect(cancelled.events[0]!.sequence).toBeGreaterThan(first.sequence);
    expect(cancelled.events[0]!.component.getFirstPropertyValue("status")).toBe("CANCELLED");
  });

  it("is refused for a booking not confirmed yet, and to anyone outside the booking", async () => {
    const pending = await calendar.paidRequest(creator, "2027-04-01T09:00:00.000Z");
    const notYet = await icsOf(pending, creator);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json()).toMatchObject({ code: "calendar_invite_not_confirmed" });
    const confirmed = await calendar.confirmedBooking(creator, "2027-04-01T12:00:00.000Z");
    const stranger = await icsOf(confirmed, outsider);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ code: "booking_not_found" });
  });
});

describe("the personal calendar feed", () => {
  it("lists the user's upcoming confirmed bookings, and a regenerated address stops the old one at once", async () => {
    const person = await api.user("creator", { firstName: "Faye" });
    const confirmedA = await calendar.confirmedBooking(person, "2027-04-05T09:00:00.000Z");
    const confirmedB = await calendar.confirmedBooking(person, "2027-04-02T09:00:00.000Z");
    await calendar.paidRequest(person, "2027-04-06T09:00:00.000Z"); // not confirmed: not in the feed
    const feed = await api.call("GET", "/api/v1/calendar/feed", { user: person });
    expect(feed.statusCode, feed.body).toBe(200);
    const { webcal_url, https_url } = feed.json<{ webcal_url: string; https_url: string }>();
    expect(webcal_url).toMatch(/^webcal:\/\/localhost:3000\/api\/v1\/calendar\/[\w.-]+\.ics$/);
    const path = new URL(https_url).pathname;
    const read = await api.call("GET", path);
    expect(read.statusCode, read.body).toBe(200);
    const { method, events } = parse(read.body);
    expect(method).toBe("PUBLISH");
    expect(events.map((e) => e.uid)).toEqual([`booking-${confirmedB}@localhost:3000`, `booking-${confirmedA}@localhost:3000`]);
    // Nobody's address (issue 26 item 7).
    expect(events.flatMap((e) => e.attendees)).toEqual([]);
    expect(read.body).not.toContain("mailto:");
    expect(read.body).not.toContain(calendar.expert.email);

    const again = await api.call("POST", "/api/v1/calendar/feed/regenerate", { user: person });
    expect(again.statusCode).toBe(200);
    const newPath = new URL(again.json<{ https_url: string }>().https_url).pathname;
    expect(newPath).not.toBe(path);
    expect((await api.call("GET", path)).statusCode).toBe(404);
    expect((await api.call("GET", newPath)).statusCode).toBe(200);
  });

  it("refuses a forged address", async () => {
    const person = await api.user("creator");
    const { https_url } = (await api.call("GET", "/api/v1/calendar/feed", { user: person })).json<{ https_url: string }>();
    const forged = new URL(https_url).pathname.replace(/\.(\w)/, (m, c: string) => `.${c === "1" ? "2" : "1"}`);
    expect((await api.call("GET", forged)).statusCode).toBe(404);
    const otherUser = new URL(https_url).pathname.replace(
      /calendar\/[\w-]+\./,
      `calendar/${Buffer.from(outsider.id).toString("base64url")}.`,
    );
    expect((await api.call("GET", otherUser)).statusCode).toBe(404);
  });
});

describe("the feed's address ends with the sessions (issue 26 item 8)", () => {
  const post = injectPost(() => api);
  const feedPath = async (access: string) => {
    const r = await api.app.inject({ method: "GET", url: "/api/v1/calendar/feed", headers: { authorization: `Bearer ${access}` } });
    expect(r.statusCode, r.body).toBe(200);
    return new URL(r.json<{ https_url: string }>().https_url).pathname;
  };
  const account = async () =>
    signUpVerified(api.ctx.db, post, {
      email: `feed-${Math.random().toString(36).slice(2, 10)}@example.com`,
      password: PASSWORD,
      role: "creator",
      first_name: "Fern",
    });
  const as = (access: string) => ({ authorization: `Bearer ${access}` });

  it("signing out everywhere stops the old address; a new one is given", async () => {
    const session = await account();
    const before = await feedPath(session.access_token);
    expect((await api.call("GET", before)).statusCode).toBe(200);
    const out = await api.app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      headers: as(session.access_token),
      payload: { scope: "global" },
    });
    expect(out.statusCode, out.body).toBe(204);
    expect((await api.call("GET", before)).statusCode).toBe(404);
    // Signed in again, the account page shows the new address, which works.
    const again = (await post("/auth/login", { email: session.user.email, password: PASSWORD })).body as { access_token: string };
    const after = await feedPath(again.access_token);
    expect(after).not.toBe(before);
    expect((await api.call("GET", after)).statusCode).toBe(200);
  });

  it("signing out this browser only keeps the address", async () => {
    const session = await account();
    const before = await feedPath(session.access_token);
    const out = await api.app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      headers: as(session.access_token),
      payload: { scope: "local" },
    });
    expect(out.statusCode).toBe(204);
    expect((await api.call("GET", before)).statusCode).toBe(200);
  });

  it("changing the password stops the old address", async () => {
    const session = await account();
    const before = await feedPath(session.access_token);
    const changed = await api.app.inject({
      method: "POST",
      url: "/api/v1/auth/password",
      headers: as(session.access_token),
      payload: { current_password: PASSWORD, password: "another-Passw0rd-7" },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await api.call("GET", before)).statusCode).toBe(404);
    expect(await feedPath(session.access_token)).not.toBe(before);
  });

  it("resetting the password by a mailed link stops the old address", async () => {
    const session = await account();
    const before = await feedPath(session.access_token);
    expect((await api.app.inject({ method: "POST", url: "/api/v1/auth/recover", payload: { email: session.user.email } })).statusCode).toBe(
      204,
    );
    const reset = await post("/auth/reset", {
      token: await mailedToken(api.ctx.db, "password_reset", session.user.email),
      password: "another-Passw0rd-8",
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await api.call("GET", before)).statusCode).toBe(404);
  });
});
