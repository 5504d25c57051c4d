import { readFileSync } from "node:fs";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { busyTimesOf, type BusyTimesOptions } from "../src/external-calendars/busy-times.ts";

// An expert's own calendar as busy times (issue 32): iCalendar text in, merged UTC intervals out.
// Every expected instant below is worked out by hand from the file's wall times and the zone's
// offset on that date, never by the code under test.

const CRLF = "\r\n";
const fixture = (name: string) => readFileSync(new URL(`./fixtures/external-calendar/${name}`, import.meta.url), "utf8");

/** A VCALENDAR around the given lines (VEVENTs, VTIMEZONEs), CRLF-ended as producers write it. */
const calendar = (...parts: string[]) => ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", ...parts, "END:VCALENDAR", ""].join(CRLF);
let uids = 0;
/** A VEVENT of the given properties; a fresh UID unless one is given. */
const vevent = (...properties: string[]) =>
  [
    "BEGIN:VEVENT",
    ...(properties.some((p) => p.startsWith("UID:")) ? [] : [`UID:event-${++uids}@test`]),
    "DTSTAMP:20260101T000000Z",
    ...properties,
    "END:VEVENT",
  ].join(CRLF);

const MARCH_2026: BusyTimesOptions = {
  from: "2026-03-01T00:00:00.000Z",
  to: "2026-04-01T00:00:00.000Z",
  allDayBlocks: false,
  timezone: "UTC",
};
const busy = (texts: string | string[], options: Partial<BusyTimesOptions> = {}, max = 1_000) =>
  busyTimesOf(typeof texts === "string" ? [texts] : texts, { ...MARCH_2026, ...options }, max);
const ok = (...pairs: [string, string][]) => ({ ok: true, busy: pairs.map(([start, end]) => ({ start, end })) });

describe("a Google Calendar export (week-with-exceptions.ics)", () => {
  const text = fixture("week-with-exceptions.ics");
  // Six weeks around the US change of 2026-11-01 (02:00 EDT, -04:00, back to 01:00 EST, -05:00).
  const window = { from: "2026-10-05T00:00:00.000Z", to: "2026-11-16T00:00:00.000Z", timezone: "America/New_York" };
  const timed: [string, string][] = [
    // The weekly review, Thursdays 10:00-11:00 New York: EDT until Nov 1, 10:00 + 4 h = 14:00Z.
    ["2026-10-08T14:00:00.000Z", "2026-10-08T15:00:00.000Z"],
    // Oct 15: the review (14:00Z-15:00Z) and a UTC follow-up 15:00Z-15:30Z touch: one busy time.
    // (Oct 14's dentist is CANCELLED, Oct 20's lunch is TRANSPARENT, Oct 22 is an EXDATE.)
    ["2026-10-15T14:00:00.000Z", "2026-10-15T15:30:00.000Z"],
    // Oct 29's review moved to Friday Oct 30 13:00-14:30 EDT: 17:00Z-18:30Z, nothing left on the 29th.
    ["2026-10-30T17:00:00.000Z", "2026-10-30T18:30:00.000Z"],
    // After the change the review stays at 10:00 wall time: EST, 10:00 + 5 h = 15:00Z.
    ["2026-11-05T15:00:00.000Z", "2026-11-05T16:00:00.000Z"],
    // A single call Nov 9 08:30-09:15 EST: 13:30Z-14:15Z.
    ["2026-11-09T13:30:00.000Z", "2026-11-09T14:15:00.000Z"],
    ["2026-11-12T15:00:00.000Z", "2026-11-12T16:00:00.000Z"],
  ];

  it("gives the timed busy times when all-day events do not block", () => {
    expect(busy(text, { ...window, allDayBlocks: false })).toEqual(ok(...timed));
  });

  it("adds the all-day conference, midnight to midnight in the expert's zone, when they block", () => {
    // DTSTART;VALUE=DATE:20261102, DTEND:20261104 (exclusive): Nov 2 00:00 EST = 05:00Z to Nov 4 00:00 EST = 05:00Z.
    const conference: [string, string] = ["2026-11-02T05:00:00.000Z", "2026-11-04T05:00:00.000Z"];
    expect(busy(text, { ...window, allDayBlocks: true })).toEqual(ok(...timed.slice(0, 3), conference, ...timed.slice(3)));
  });

  it("reads the all-day dates in the expert's zone, the timed events in the file's", () => {
    // London is on GMT (+0) in November: the conference is Nov 2 00:00Z to Nov 4 00:00Z; nothing else moves.
    const conference: [string, string] = ["2026-11-02T00:00:00.000Z", "2026-11-04T00:00:00.000Z"];
    expect(busy(text, { ...window, timezone: "Europe/London", allDayBlocks: true })).toEqual(
      ok(...timed.slice(0, 3), conference, ...timed.slice(3)),
    );
  });
});

/** An Outlook-style zone: a Windows name the IANA database does not know, so only the file defines it. */
const W_EUROPE = [
  ["BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200"],
  ["TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T020000"],
  ["TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE"],
]
  .flat()
  .join(CRLF);

describe("time zones and daylight saving", () => {
  const spring2027 = { from: "2027-03-20T00:00:00.000Z", to: "2027-04-20T00:00:00.000Z" };

  it("follows a file's own VTIMEZONE across the European change of 2027-03-28", () => {
    const standup = vevent(
      "DTSTART;TZID=W. Europe Standard Time:20270325T090000",
      "DTEND;TZID=W. Europe Standard Time:20270325T091500",
      "RRULE:FREQ=DAILY;COUNT=6",
    );
    expect(busy(calendar(W_EUROPE, standup), spring2027)).toEqual(
      ok(
        // Mar 25-27, CET (+1): 09:00 - 1 h = 08:00Z.
        ["2027-03-25T08:00:00.000Z", "2027-03-25T08:15:00.000Z"],
        ["2027-03-26T08:00:00.000Z", "2027-03-26T08:15:00.000Z"],
        ["2027-03-27T08:00:00.000Z", "2027-03-27T08:15:00.000Z"],
        // From Sunday Mar 28 (02:00 -> 03:00), CEST (+2): 09:00 - 2 h = 07:00Z.
        ["2027-03-28T07:00:00.000Z", "2027-03-28T07:15:00.000Z"],
        ["2027-03-29T07:00:00.000Z", "2027-03-29T07:15:00.000Z"],
        ["2027-03-30T07:00:00.000Z", "2027-03-30T07:15:00.000Z"],
      ),
    );
  });

  it("prefers the file's definition of a zone to the IANA one of the same name", () => {
    const fixedBerlin = [
      ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19700101T000000"],
      ["TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE"],
    ].flat();
    const meeting = vevent("DTSTART;TZID=Europe/Berlin:20270330T090000", "DTEND;TZID=Europe/Berlin:20270330T100000");
    // The file says +03:00 all year: 09:00 - 3 h = 06:00Z (the IANA zone would give CEST, 07:00Z).
    expect(busy(calendar(fixedBerlin.join(CRLF), meeting), spring2027)).toEqual(
      ok(["2027-03-30T06:00:00.000Z", "2027-03-30T07:00:00.000Z"]),
    );
  });

  it("reads a TZID with no VTIMEZONE in the file from the IANA database, across Sydney's change of 2027-04-04", () => {
    const weekly = vevent(
      "DTSTART;TZID=Australia/Sydney:20270322T090000",
      "DTEND;TZID=Australia/Sydney:20270322T100000",
      "RRULE:FREQ=WEEKLY;COUNT=4",
    );
    expect(busy(calendar(weekly), spring2027)).toEqual(
      ok(
        // Mondays 09:00 Sydney. Until Sunday Apr 4 (03:00 AEDT -> 02:00 AEST) AEDT, +11: 09:00 - 11 h = 22:00Z the day before.
        ["2027-03-21T22:00:00.000Z", "2027-03-21T23:00:00.000Z"],
        ["2027-03-28T22:00:00.000Z", "2027-03-28T23:00:00.000Z"],
        // Then AEST, +10: 09:00 - 10 h = 23:00Z the day before.
        ["2027-04-04T23:00:00.000Z", "2027-04-05T00:00:00.000Z"],
        ["2027-04-11T23:00:00.000Z", "2027-04-12T00:00:00.000Z"],
      ),
    );
    // The zone was lent to ical.js's global TimezoneService for that reading only.
    expect(ICAL.TimezoneService.has("Australia/Sydney")).toBe(false);
  });

  it("reads an unknown TZID with no VTIMEZONE as floating, in the expert's zone", () => {
    const meeting = vevent("DTSTART;TZID=Somewhere Standard Time:20260310T090000", "DTEND;TZID=Somewhere Standard Time:20260310T093000");
    // Tokyo is +9 all year: 09:00 - 9 h = 00:00Z.
    expect(busy(calendar(meeting), { timezone: "Asia/Tokyo" })).toEqual(ok(["2026-03-10T00:00:00.000Z", "2026-03-10T00:30:00.000Z"]));
  });
});

describe("recurrence and event shapes", () => {
  it("leaves out EXDATE occurrences", () => {
    const daily = vevent(
      "DTSTART:20260302T100000Z",
      "DTEND:20260302T110000Z",
      "RRULE:FREQ=DAILY;COUNT=4",
      "EXDATE:20260303T100000Z,20260305T100000Z",
    );
    expect(busy(calendar(daily))).toEqual(
      ok(["2026-03-02T10:00:00.000Z", "2026-03-02T11:00:00.000Z"], ["2026-03-04T10:00:00.000Z", "2026-03-04T11:00:00.000Z"]),
    );
  });

  it("shows a moved occurrence at its new time, into the window from outside it and out of it from inside", () => {
    const series = vevent("UID:moves@test", "DTSTART:20260223T150000Z", "DTEND:20260223T160000Z", "RRULE:FREQ=WEEKLY;COUNT=3");
    // Feb 23 (before the window) moved to Mar 3; Mar 2 moved to April (after it); Mar 9 stays.
    const intoWindow = vevent("UID:moves@test", "RECURRENCE-ID:20260223T150000Z", "DTSTART:20260303T080000Z", "DTEND:20260303T083000Z");
    const outOfWindow = vevent("UID:moves@test", "RECURRENCE-ID:20260302T150000Z", "DTSTART:20260406T150000Z", "DTEND:20260406T160000Z");
    expect(busy(calendar(intoWindow, series, outOfWindow))).toEqual(
      ok(["2026-03-03T08:00:00.000Z", "2026-03-03T08:30:00.000Z"], ["2026-03-09T15:00:00.000Z", "2026-03-09T16:00:00.000Z"]),
    );
  });

  it("removes an occurrence whose override is cancelled, and relates overrides by UID only", () => {
    const series = vevent("UID:weekly@test", "DTSTART:20260302T150000Z", "DTEND:20260302T160000Z", "RRULE:FREQ=WEEKLY;COUNT=3");
    const cancelled = vevent(
      "UID:weekly@test",
      "RECURRENCE-ID:20260309T150000Z",
      "DTSTART:20260309T150000Z",
      "DTEND:20260309T160000Z",
      "STATUS:CANCELLED",
    );
    // Another series at the same times: the cancelled override is not its business.
    const other = vevent("UID:other@test", "DTSTART:20260309T150000Z", "DTEND:20260309T153000Z", "RRULE:FREQ=DAILY;COUNT=1");
    expect(busy(calendar(series, cancelled, other))).toEqual(
      ok(
        ["2026-03-02T15:00:00.000Z", "2026-03-02T16:00:00.000Z"],
        ["2026-03-09T15:00:00.000Z", "2026-03-09T15:30:00.000Z"],
        ["2026-03-16T15:00:00.000Z", "2026-03-16T16:00:00.000Z"],
      ),
    );
  });

  it("adds RDATE occurrences, with and without a rule", () => {
    const extraDates = vevent("DTSTART:20260302T090000Z", "DTEND:20260302T093000Z", "RDATE:20260305T090000Z,20260312T140000Z");
    const ruleAndDate = vevent("DTSTART:20260320T090000Z", "DTEND:20260320T100000Z", "RRULE:FREQ=DAILY;COUNT=2", "RDATE:20260325T120000Z");
    expect(busy(calendar(extraDates, ruleAndDate))).toEqual(
      ok(
        ["2026-03-02T09:00:00.000Z", "2026-03-02T09:30:00.000Z"],
        ["2026-03-05T09:00:00.000Z", "2026-03-05T09:30:00.000Z"],
        ["2026-03-12T14:00:00.000Z", "2026-03-12T14:30:00.000Z"],
        ["2026-03-20T09:00:00.000Z", "2026-03-20T10:00:00.000Z"],
        ["2026-03-21T09:00:00.000Z", "2026-03-21T10:00:00.000Z"],
        ["2026-03-25T12:00:00.000Z", "2026-03-25T13:00:00.000Z"],
      ),
    );
  });

  it("counts DTSTART as an occurrence even when its rule does not match it, unless an EXDATE removes it", () => {
    // Starts Wednesday Mar 4, repeats on Thursdays (ical.js alone would drop Mar 4: kewisch/ical.js#294).
    const offRule = vevent("DTSTART:20260304T100000Z", "DTEND:20260304T110000Z", "RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20260313T000000Z");
    // Dates only, and the first of them removed.
    const removedStart = vevent("DTSTART:20260320T100000Z", "DTEND:20260320T110000Z", "RDATE:20260321T100000Z", "EXDATE:20260320T100000Z");
    expect(busy(calendar(offRule, removedStart))).toEqual(
      ok(
        ["2026-03-04T10:00:00.000Z", "2026-03-04T11:00:00.000Z"],
        ["2026-03-05T10:00:00.000Z", "2026-03-05T11:00:00.000Z"],
        ["2026-03-12T10:00:00.000Z", "2026-03-12T11:00:00.000Z"],
        ["2026-03-21T10:00:00.000Z", "2026-03-21T11:00:00.000Z"],
      ),
    );
  });

  it("shifts the later occurrences after a RANGE=THISANDFUTURE override", () => {
    const series = vevent("UID:range@test", "DTSTART:20260302T100000Z", "DTEND:20260302T110000Z", "RRULE:FREQ=WEEKLY;COUNT=4");
    // From Mar 16 on, four hours later: Mar 16 and Mar 23 at 14:00Z.
    const fromNowOn = vevent(
      "UID:range@test",
      "RECURRENCE-ID;RANGE=THISANDFUTURE:20260316T100000Z",
      "DTSTART:20260316T140000Z",
      "DTEND:20260316T150000Z",
    );
    expect(busy(calendar(series, fromNowOn))).toEqual(
      ok(
        ["2026-03-02T10:00:00.000Z", "2026-03-02T11:00:00.000Z"],
        ["2026-03-09T10:00:00.000Z", "2026-03-09T11:00:00.000Z"],
        ["2026-03-16T14:00:00.000Z", "2026-03-16T15:00:00.000Z"],
        ["2026-03-23T14:00:00.000Z", "2026-03-23T15:00:00.000Z"],
      ),
    );
  });

  it("stops a rule at COUNT and at UNTIL", () => {
    const counted = vevent("DTSTART:20260302T080000Z", "DTEND:20260302T083000Z", "RRULE:FREQ=WEEKLY;COUNT=2");
    // UNTIL is inclusive: Mar 18 13:00Z is the last.
    const until = vevent("DTSTART:20260316T130000Z", "DTEND:20260316T140000Z", "RRULE:FREQ=DAILY;UNTIL=20260318T130000Z");
    expect(busy(calendar(counted, until))).toEqual(
      ok(
        ["2026-03-02T08:00:00.000Z", "2026-03-02T08:30:00.000Z"],
        ["2026-03-09T08:00:00.000Z", "2026-03-09T08:30:00.000Z"],
        ["2026-03-16T13:00:00.000Z", "2026-03-16T14:00:00.000Z"],
        ["2026-03-17T13:00:00.000Z", "2026-03-17T14:00:00.000Z"],
        ["2026-03-18T13:00:00.000Z", "2026-03-18T14:00:00.000Z"],
      ),
    );
  });

  it("reads DURATION for timed and all-day events, one day for an all-day event without an end, and skips a zero-length one", () => {
    const timed = vevent("DTSTART:20260302T100000Z", "DURATION:PT45M", "RRULE:FREQ=DAILY;COUNT=2");
    const twoDays = vevent("DTSTART;VALUE=DATE:20260310", "DURATION:P2D");
    const oneDay = vevent("DTSTART;VALUE=DATE:20260320");
    const zeroLength = vevent("DTSTART:20260325T100000Z");
    expect(busy(calendar(timed, twoDays, oneDay, zeroLength), { allDayBlocks: true, timezone: "Asia/Tokyo" })).toEqual(
      ok(
        ["2026-03-02T10:00:00.000Z", "2026-03-02T10:45:00.000Z"],
        ["2026-03-03T10:00:00.000Z", "2026-03-03T10:45:00.000Z"],
        // Tokyo midnight is 15:00Z the day before: Mar 10-11 is Mar 9 15:00Z to Mar 11 15:00Z.
        ["2026-03-09T15:00:00.000Z", "2026-03-11T15:00:00.000Z"],
        ["2026-03-19T15:00:00.000Z", "2026-03-20T15:00:00.000Z"],
      ),
    );
  });

  it("blocks Google's all-day events, which it marks free, exactly when the expert says all-day events block", () => {
    const holiday = vevent("DTSTART;VALUE=DATE:20260316", "DTEND;VALUE=DATE:20260317", "TRANSP:TRANSPARENT");
    const freeMeeting = vevent("DTSTART:20260317T100000Z", "DTEND:20260317T110000Z", "TRANSP:TRANSPARENT");
    expect(busy(calendar(holiday, freeMeeting))).toEqual(ok());
    expect(busy(calendar(holiday, freeMeeting), { allDayBlocks: true })).toEqual(
      ok(["2026-03-16T00:00:00.000Z", "2026-03-17T00:00:00.000Z"]),
    );
  });

  it("reads floating times (no TZID, no Z) in the expert's zone, across its own change", () => {
    const floating = vevent("DTSTART:20260306T090000", "DTEND:20260306T100000", "RRULE:FREQ=WEEKLY;COUNT=2");
    // New York changes on Sunday Mar 8, 2026: Mar 6 is EST (09:00 + 5 h = 14:00Z), Mar 13 EDT (09:00 + 4 h = 13:00Z).
    expect(busy(calendar(floating), { timezone: "America/New_York" })).toEqual(
      ok(["2026-03-06T14:00:00.000Z", "2026-03-06T15:00:00.000Z"], ["2026-03-13T13:00:00.000Z", "2026-03-13T14:00:00.000Z"]),
    );
  });

  it("keeps the phase of series that began years before the window", () => {
    // Every other week on Tuesday and Thursday since Tue 2019-01-01 (week from Mon 2018-12-31). Mon 2026-03-02 is
    // 7 * 365 + 2 leap days + 61 = 2618 days = 374 weeks later, an even count: its week has Mar 3 and 5, then Mar 17 and 19.
    const biweekly = vevent("DTSTART:20190101T090000Z", "DTEND:20190101T100000Z", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH");
    // Every third day since 2020-01-01: Mar 1, 2026 is 366 + 1826 + 31 + 28 = 2251 days later, 2251 = 3 * 750 + 1: Mar 3, 6, 9.
    const everyThirdDay = vevent("DTSTART:20200101T120000Z", "DTEND:20200101T123000Z", "RRULE:FREQ=DAILY;INTERVAL=3");
    // The last Friday of each month since Jan 2018: Mar 27 and (after the window) Apr 24, 2026.
    const lastFriday = vevent("DTSTART:20180126T160000Z", "DTEND:20180126T170000Z", "RRULE:FREQ=MONTHLY;BYDAY=-1FR");
    expect(busy(calendar(biweekly, everyThirdDay, lastFriday), { to: "2026-03-20T00:00:00.000Z" })).toEqual(
      ok(
        ["2026-03-03T09:00:00.000Z", "2026-03-03T10:00:00.000Z"],
        ["2026-03-03T12:00:00.000Z", "2026-03-03T12:30:00.000Z"],
        ["2026-03-05T09:00:00.000Z", "2026-03-05T10:00:00.000Z"],
        ["2026-03-06T12:00:00.000Z", "2026-03-06T12:30:00.000Z"],
        ["2026-03-09T12:00:00.000Z", "2026-03-09T12:30:00.000Z"],
        ["2026-03-12T12:00:00.000Z", "2026-03-12T12:30:00.000Z"],
        ["2026-03-15T12:00:00.000Z", "2026-03-15T12:30:00.000Z"],
        ["2026-03-17T09:00:00.000Z", "2026-03-17T10:00:00.000Z"],
        ["2026-03-18T12:00:00.000Z", "2026-03-18T12:30:00.000Z"],
        ["2026-03-19T09:00:00.000Z", "2026-03-19T10:00:00.000Z"],
      ),
    );
    expect(busy(calendar(lastFriday), { to: "2026-05-01T00:00:00.000Z" })).toEqual(
      ok(["2026-03-27T16:00:00.000Z", "2026-03-27T17:00:00.000Z"], ["2026-04-24T16:00:00.000Z", "2026-04-24T17:00:00.000Z"]),
    );
  });
});

describe("what comes out", () => {
  it("refuses text that is not iCalendar", () => {
    const notCalendars = [
      "",
      "<!DOCTYPE html><html><head><title>Sign in</title></head><body>Sign in to continue</body></html>",
      '{"kind":"calendar#events","items":[]}',
      "BEGIN:VCALENDAR garbage \u0000\u0001",
      "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ezra Stone\r\nEND:VCARD\r\n",
      "hello: world",
    ];
    for (const text of notCalendars) expect(busy(text), JSON.stringify(text)).toEqual({ ok: false, reason: "not_icalendar" });
    // One bad object among a CalDAV REPORT's objects spoils the reading.
    expect(busy([calendar(vevent("DTSTART:20260302T100000Z", "DTEND:20260302T110000Z")), "<html></html>"])).toEqual({
      ok: false,
      reason: "not_icalendar",
    });
    // A malformed date surfaces when ical.js reads it, after parsing.
    expect(busy(calendar(vevent("DTSTART:2026030210", "DTEND:20260302T110000Z")))).toEqual({ ok: false, reason: "not_icalendar" });
  });

  it("accepts an empty calendar and no calendar objects at all", () => {
    expect(busy(calendar())).toEqual(ok());
    expect(busy([])).toEqual(ok());
  });

  it("refuses more busy times than the limit, counted after merging", () => {
    const three = calendar(
      vevent("DTSTART:20260302T100000Z", "DTEND:20260302T110000Z"),
      vevent("DTSTART:20260302T110000Z", "DTEND:20260302T120000Z"),
      vevent("DTSTART:20260303T100000Z", "DTEND:20260303T110000Z"),
      vevent("DTSTART:20260304T100000Z", "DTEND:20260304T110000Z"),
    );
    expect(busy(three, {}, 2)).toEqual({ ok: false, reason: "too_many" });
    expect(busy(three, {}, 3)).toEqual(
      ok(
        ["2026-03-02T10:00:00.000Z", "2026-03-02T12:00:00.000Z"],
        ["2026-03-03T10:00:00.000Z", "2026-03-03T11:00:00.000Z"],
        ["2026-03-04T10:00:00.000Z", "2026-03-04T11:00:00.000Z"],
      ),
    );
  });

  it("merges overlapping and touching events, across the objects of a CalDAV reply", () => {
    const first = calendar(
      vevent("DTSTART:20260302T100000Z", "DTEND:20260302T113000Z"),
      vevent("DTSTART:20260302T110000Z", "DTEND:20260302T120000Z"),
    );
    const second = calendar(
      vevent("DTSTART:20260302T120000Z", "DTEND:20260302T123000Z"),
      vevent("DTSTART:20260302T101500Z", "DTEND:20260302T103000Z"),
    );
    const apart = calendar(vevent("DTSTART:20260302T123001Z", "DTEND:20260302T130000Z"));
    expect(busy([first, second, apart])).toEqual(
      ok(["2026-03-02T10:00:00.000Z", "2026-03-02T12:30:00.000Z"], ["2026-03-02T12:30:01.000Z", "2026-03-02T13:00:00.000Z"]),
    );
  });

  it("keeps only what overlaps the window, unclipped", () => {
    const text = calendar(
      vevent("DTSTART:20260227T100000Z", "DTEND:20260228T230000Z"), // ends before the window
      vevent("DTSTART:20260228T220000Z", "DTEND:20260301T020000Z"), // straddles its start
      vevent("DTSTART:20260331T230000Z", "DTEND:20260401T010000Z"), // straddles its end
      vevent("DTSTART:20260401T000000Z", "DTEND:20260401T010000Z"), // starts at its (exclusive) end
      vevent("DTSTART:20260310T100000Z", "DTEND:20260310T110000Z", "RRULE:FREQ=YEARLY"), // Mar 10 of each year: one in the window
    );
    expect(busy(text)).toEqual(
      ok(
        ["2026-02-28T22:00:00.000Z", "2026-03-01T02:00:00.000Z"],
        ["2026-03-10T10:00:00.000Z", "2026-03-10T11:00:00.000Z"],
        ["2026-03-31T23:00:00.000Z", "2026-04-01T01:00:00.000Z"],
      ),
    );
  });

  it("caps a FREQ=MINUTELY rule without end over a four-week window, quickly", () => {
    // 30-second events a minute apart never touch: 40,320 of them in four weeks.
    const bomb = vevent("DTSTART:20260301T000000Z", "DTEND:20260301T000030Z", "RRULE:FREQ=MINUTELY");
    const started = performance.now();
    expect(busy(calendar(bomb), { to: "2026-03-29T00:00:00.000Z" }, 5_000)).toEqual({ ok: false, reason: "too_many" });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("caps a rule ical.js would search for ever (30 February, every second), quickly", () => {
    const never = vevent("DTSTART:20260301T000000Z", "DTEND:20260301T010000Z", "RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30");
    const started = performance.now();
    expect(busy(calendar(never))).toEqual({ ok: false, reason: "too_many" });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
