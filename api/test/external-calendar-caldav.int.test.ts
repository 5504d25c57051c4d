import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { makeCalendar } from "tsdav";
import { announceSkip, freePort, startCalDavServer } from "@booking/testkit";
import { CalDavRefused, calDavAccount, type CalDavCredentials } from "../src/external-calendars/caldav-account.ts";

// The CalDAV adapter (issue 32) against a real server (radicale from Debian's package, see
// testkit/src/caldav-server.ts): discovery, refusals, the server's own time-range filter, and a
// booking written, moved and removed. The SSRF-checking fetch is tested elsewhere: plain fetch here.

const server = await startCalDavServer();
afterAll(() => server?.stop());
// xandikos 0.2.8 (the fallback) matches no recurring event in a time-range and ignores MKCALENDAR's component set.
const limited = server?.kind === "xandikos";
if (limited)
  announceSkip("CalDAV recurring events and to-do lists", "xandikos 0.2.8 cannot do them: install radicale (apt-get install radicale)");

const credentials = (): CalDavCredentials => ({ serverUrl: server!.url, username: server!.username, password: server!.password });
const account = (given: Partial<CalDavCredentials> = {}) => calDavAccount({ ...credentials(), ...given }, globalThis.fetch);

/** The catalogue code a call was refused with (a CalDavRefused, nothing else). */
async function refusalOf(call: Promise<unknown>): Promise<string> {
  const error: unknown = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CalDavRefused);
  return (error as CalDavRefused).code;
}

async function calendarUrl(name: string): Promise<string> {
  const found = (await account().calendars()).find((calendar) => calendar.name === name);
  if (!found) throw new Error(`no calendar named ${name}`);
  return found.url;
}

/** A VCALENDAR with one VEVENT, CRLF lines as RFC 5545 has them. */
const vcalendar = (uid: string, ...properties: string[]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Expert Sessions//CalDAV suite//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260101T000000Z",
    ...properties,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");

/** A property of an object's VEVENT as the server gives it back (folded lines joined first). */
const property = (ics: string, name: string): string | null =>
  new RegExp(`^${name}(?:;[^:\\r\\n]*)?:(.*?)\\r?$`, "m").exec(ics.replace(/\r?\n[ \t]/g, ""))?.[1] ?? null;

/** The UIDs of this run (a suffix of its own: a CALDAV_URL account may hold others' objects). */
const uidsOf = (objects: string[], run: string) =>
  objects
    .map((ics) => property(ics, "UID"))
    .filter((uid): uid is string => uid?.endsWith(run) ?? false)
    .sort();

describe.skipIf(server === null)(`CalDAV account (${server?.source ?? "no server"})`, () => {
  it("finds the account's event calendars, Work and Bookings, with their ctags", async () => {
    const calendars = await account().calendars();
    const byName = new Map(calendars.map((calendar) => [calendar.name, calendar]));
    for (const name of ["Work", "Bookings"]) {
      expect(byName.get(name), name).toMatchObject({ events: true, ctag: expect.any(String) });
      expect(byName.get(name)!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+\/$/);
    }
    expect(byName.get("Work")!.url).not.toBe(byName.get("Bookings")!.url);
  });

  it.skipIf(limited)("lists a to-do list too, marked as taking no events", async () => {
    const work = await calendarUrl("Work");
    const headers = { authorization: `Basic ${Buffer.from(`${server!.username}:${server!.password}`).toString("base64")}` };
    const props = { "d:displayname": "Chores", "c:supported-calendar-component-set": { "c:comp": { _attributes: { name: "VTODO" } } } };
    const [made] = await makeCalendar({ url: new URL(`../chores-${randomUUID()}/`, work).href, props, headers });
    expect(made?.ok).toBe(true);
    const chores = (await account().calendars()).find((calendar) => calendar.name === "Chores");
    expect(chores).toMatchObject({ events: false });
  });

  it("refuses a wrong password as caldav_sign_in_failed, for reading and for writing", async () => {
    const wrong = account({ password: `${server!.password}-not` });
    expect(await refusalOf(wrong.calendars())).toBe("caldav_sign_in_failed");
    const work = await calendarUrl("Work");
    expect(await refusalOf(wrong.objectsBetween(work, "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"))).toBe("caldav_sign_in_failed");
    expect(await refusalOf(wrong.putEvent(work, `x-${randomUUID()}.ics`, vcalendar("x", "DTSTART:20260301T090000Z")))).toBe(
      "caldav_sign_in_failed",
    );
  });

  it("says calendar_unreachable of a port nothing listens on", async () => {
    const closed = `http://127.0.0.1:${await freePort()}/`;
    expect(await refusalOf(account({ serverUrl: closed }).calendars())).toBe("calendar_unreachable");
    expect(await refusalOf(account({ serverUrl: closed }).removeEvent(`${closed}expert/work/gone.ics`))).toBe("calendar_unreachable");
  });

  it("says calendar_unreachable of an address that answers, but no CalDAV", async () => {
    const page = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Welcome</body></html>"));
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    try {
      expect(await refusalOf(account({ serverUrl: url }).calendars())).toBe("calendar_unreachable");
      // Not an empty calendar: that would hide every busy time.
      expect(
        await refusalOf(account({ serverUrl: url }).objectsBetween(`${url}work/`, "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")),
      ).toBe("calendar_unreachable");
    } finally {
      page.close();
    }
  });

  it.skipIf(!server?.emptyAccount)("says caldav_no_calendars of an account without any", async () => {
    expect(await refusalOf(account(server!.emptyAccount!).calendars())).toBe("caldav_no_calendars");
  });

  it("reads the events in a window: the server filters by time, [from, to)", async () => {
    const work = await calendarUrl("Work");
    const run = `-${randomUUID()}`;
    const put = (name: string, start: string, end: string) =>
      account().putEvent(work, `${name}${run}.ics`, vcalendar(`${name}${run}`, `SUMMARY:${name}`, `DTSTART:${start}`, `DTEND:${end}`));
    await put("dentist", "20260310T090000Z", "20260310T100000Z");
    await put("later", "20260501T090000Z", "20260501T100000Z");
    // Ends the moment the window starts, starts the moment it ends: [from, to) overlaps neither.
    await put("before", "20260309T080000Z", "20260309T090000Z");
    await put("after", "20260316T090000Z", "20260316T100000Z");

    expect(uidsOf(await account().objectsBetween(work, "2026-03-09T09:00:00Z", "2026-03-16T09:00:00Z"), run)).toEqual([`dentist${run}`]);
    expect(uidsOf(await account().objectsBetween(work, "2026-03-09T08:30:00Z", "2026-03-16T09:30:00Z"), run)).toEqual([
      `after${run}`,
      `before${run}`,
      `dentist${run}`,
    ]);
    expect(uidsOf(await account().objectsBetween(work, "2026-04-27T00:00:00Z", "2026-05-04T00:00:00Z"), run)).toEqual([`later${run}`]);
  });

  it.skipIf(limited)("reads recurring events by their occurrences, as their masters (not expanded)", async () => {
    const work = await calendarUrl("Work");
    const run = `-${randomUUID()}`;
    const put = (name: string, ...properties: string[]) =>
      account().putEvent(work, `${name}${run}.ics`, vcalendar(`${name}${run}`, ...properties));
    // Every Monday 14:00-15:00 from January, no end: its 9 March occurrence is in the window.
    await put("standup", "SUMMARY:Weekly", "DTSTART:20260105T140000Z", "DTEND:20260105T150000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO");
    // Weekly on Fridays, but only until the end of January: no occurrence in the window.
    await put("ended", "SUMMARY:Ended", "DTSTART:20260102T080000Z", "DTEND:20260102T083000Z", "RRULE:FREQ=WEEKLY;UNTIL=20260130T080000Z");

    const inWindow = await account().objectsBetween(work, "2026-03-09T09:00:00Z", "2026-03-16T09:00:00Z");
    expect(uidsOf(inWindow, run)).toEqual([`standup${run}`]);
    const standup = inWindow.find((ics) => property(ics, "UID") === `standup${run}`)!;
    expect(property(standup, "RRULE")).toBe("FREQ=WEEKLY;BYDAY=MO");
    expect(property(standup, "DTSTART")).toBe("20260105T140000Z");
    // A Tuesday: no occurrence of either.
    expect(uidsOf(await account().objectsBetween(work, "2026-03-10T00:00:00Z", "2026-03-11T00:00:00Z"), run)).toEqual([]);
    expect(uidsOf(await account().objectsBetween(work, "2026-01-16T00:00:00Z", "2026-01-17T00:00:00Z"), run)).toEqual([`ended${run}`]);
  });

  it("writes a booking into Bookings, moves it (same file, same UID) and removes it, twice without error", async () => {
    const bookings = await calendarUrl("Bookings");
    const uid = `booking-${randomUUID()}@expert-sessions`;
    const file = `${uid.split("@")[0]}.ics`;
    const booking = (start: string, end: string) =>
      vcalendar(uid, "SUMMARY:Session with a creator", `DTSTART:${start}`, `DTEND:${end}`, "STATUS:CONFIRMED", "TRANSP:OPAQUE");
    const week = ["2026-06-01T00:00:00Z", "2026-06-08T00:00:00Z"] as const;
    const ours = async (from: string, to: string) =>
      (await account().objectsBetween(bookings, from, to)).filter((ics) => property(ics, "UID") === uid);

    const written = await account().putEvent(bookings, file, booking("20260602T100000Z", "20260602T110000Z"));
    expect(written.url).toBe(new URL(file, bookings).href);
    expect(written.etag).toMatch(/^(W\/)?".+"$/);
    const [first, ...more] = await ours(...week);
    expect(more).toEqual([]);
    expect(property(first!, "DTSTART")).toBe("20260602T100000Z");

    const moved = await account().putEvent(bookings, file, booking("20260604T150000Z", "20260604T160000Z"));
    expect(moved.url).toBe(written.url);
    expect(moved.etag).not.toBe(written.etag);
    const afterMove = await ours(...week);
    expect(afterMove.map((ics) => property(ics, "DTSTART"))).toEqual(["20260604T150000Z"]);
    // Its old hour is free again.
    expect(await ours("2026-06-02T10:00:00Z", "2026-06-02T11:00:00Z")).toEqual([]);

    await account().removeEvent(written.url);
    expect(await ours(...week)).toEqual([]);
    await expect(account().removeEvent(written.url)).resolves.toBeUndefined();
  });
});
