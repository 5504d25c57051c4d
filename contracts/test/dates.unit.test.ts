import { describe, expect, it } from "vitest";
import {
  briefMomentText,
  clockText,
  dateText,
  dayText,
  momentText,
  monthText,
  shortDayText,
  timeRangeText,
  wallClockText,
  zoneText,
} from "../src/index.ts";

// One instant, two readers: a UK reader must never take 2 December for 12 February, and every moment says its zone.
const NOON_UTC = "2026-12-02T12:00:00.000Z";
const uk = { locale: "en-GB", zone: "Europe/London" };
const us = { locale: "en-US", zone: "America/New_York" };

describe("dates as people read them (issue 27.14)", () => {
  it("writes the day with weekday and month name in the reader's order, never as numerals", () => {
    expect(dateText(NOON_UTC, uk)).toBe("Wednesday, 2 December 2026");
    expect(dateText(NOON_UTC, us)).toBe("Wednesday, December 2, 2026");
    expect(momentText(NOON_UTC, uk)).not.toMatch(/\d+\/\d+\/\d+/);
  });

  it("writes a moment with day, clock and the zone named with its offset", () => {
    expect(momentText(NOON_UTC, uk)).toBe("Wednesday, 2 December 2026, 12:00 (Europe/London, GMT)");
    expect(momentText(NOON_UTC, us)).toBe("Wednesday, December 2, 2026, 7:00 AM (America/New_York, GMT-5)");
    expect(momentText(NOON_UTC, { locale: "en-GB", zone: "UTC" })).toBe("Wednesday, 2 December 2026, 12:00 (UTC)");
    expect(momentText(NOON_UTC, { locale: "en-GB", zone: "Asia/Kolkata" })).toBe(
      "Wednesday, 2 December 2026, 17:30 (Asia/Kolkata, GMT+5:30)",
    );
  });

  it("follows daylight saving: the same wall clock in summer names the summer offset", () => {
    expect(momentText("2026-07-01T11:00:00.000Z", uk)).toBe("Wednesday, 1 July 2026, 12:00 (Europe/London, GMT+1)");
    // London goes back an hour at 02:00 BST on 25 October 2026: 00:30 and 01:30 UTC both read 01:30.
    expect(momentText("2026-10-25T00:30:00.000Z", uk)).toBe("Sunday, 25 October 2026, 01:30 (Europe/London, GMT+1)");
    expect(momentText("2026-10-25T01:30:00.000Z", uk)).toBe("Sunday, 25 October 2026, 01:30 (Europe/London, GMT)");
    expect(zoneText("2026-03-08T12:00:00.000Z", "America/New_York")).toBe("America/New_York, GMT-4");
  });

  it("writes a time range once with its day, both days when it crosses midnight, and the zone named", () => {
    expect(timeRangeText(NOON_UTC, "2026-12-02T13:00:00.000Z", uk)).toBe("Wednesday, 2 December 2026, 12:00–13:00 (Europe/London, GMT)");
    expect(timeRangeText(NOON_UTC, "2026-12-02T13:00:00.000Z", us)).toBe(
      "Wednesday, December 2, 2026, 7:00 – 8:00 AM (America/New_York, GMT-5)",
    );
    expect(timeRangeText("2026-12-02T23:00:00.000Z", "2026-12-03T01:00:00.000Z", uk)).toBe(
      "Wednesday, 2 December 2026, 23:00 – Thursday, 3 December 2026, 01:00 (Europe/London, GMT)",
    );
  });

  it("writes clocks, days, months and subject lines in the reader's locale", () => {
    expect(clockText(NOON_UTC, uk)).toBe("12:00");
    expect(clockText(NOON_UTC, us)).toBe("7:00 AM");
    expect(wallClockText("14:30", "en-GB")).toBe("14:30");
    expect(wallClockText("14:30", "en-US")).toBe("2:30 PM");
    expect(dayText("2026-12-02", "en-GB")).toBe("Wednesday, 2 December 2026");
    expect(shortDayText("2026-12-02", "en-GB")).toBe("Wed, 2 Dec 2026");
    expect(shortDayText("2026-12-02", "en-US")).toBe("Wed, Dec 2, 2026");
    expect(monthText("2026-12", "en-US")).toBe("December 2026");
    expect(briefMomentText(NOON_UTC, uk)).toBe("Wed 2 Dec, 12:00");
    expect(momentText("2026-12-02T12:00:05.000Z", us, "seconds")).toBe("Wednesday, December 2, 2026, 7:00:05 AM (America/New_York, GMT-5)");
  });

  it("falls back to British English and UTC for a locale or zone the runtime does not know", () => {
    expect(momentText(NOON_UTC, { locale: "not a locale!", zone: "Mars/Olympus" })).toBe("Wednesday, 2 December 2026, 12:00 (UTC)");
    expect(momentText("not a time", uk)).toBe("not a time");
  });
});
