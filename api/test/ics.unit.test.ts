import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { calendarText, type BookingInvite } from "../src/calendar-invites/ics.ts";

// The iCalendar text rules a parser is strict about: escaped text, folded long lines, CRLF.

const invite = (over: Partial<BookingInvite> = {}): BookingInvite => ({
  bookingId: "bk-1",
  sequence: 7,
  status: "confirmed",
  start: "2026-12-01T09:00:00.000Z",
  end: "2026-12-01T10:00:00.000Z",
  title: "Pricing review",
  expert: { name: "Ezra Stone", email: "ezra@example.com" },
  creator: { name: "Cora Quinn", email: "cora@example.com" },
  expertTimezone: "Europe/Berlin",
  url: "https://example.com/session-details/bk-1",
  joinLink: null,
  updatedAt: "2026-11-24T10:00:00.000Z",
  ...over,
});

describe("calendarText", () => {
  it("escapes commas, semicolons, backslashes and newlines so the title comes back whole", () => {
    const title = "Deals, rates; and \\ fees\nQ&A";
    const text = calendarText({ method: "REQUEST", host: "example.com", invites: [invite({ title })] });
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!);
    expect(event.summary).toBe(`${title}: Ezra Stone and Cora Quinn`);
  });

  it("folds lines longer than 75 octets without splitting a character, and ends every line with CRLF", () => {
    const title = "Ünïcödé ".repeat(30).trim();
    const text = calendarText({ method: "PUBLISH", host: "example.com", invites: [invite({ title })] });
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/\n/);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!);
    expect(event.summary.startsWith(title)).toBe(true);
  });

  it("names the organizer and attendee with quoted parameters, even with a quote in a name", () => {
    const text = calendarText({ method: "REQUEST", host: "example.com", invites: [invite({ expert: { name: 'Ezra "E" Stone', email: "ezra@example.com" } })] });
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!;
    expect(vevent.getFirstProperty("organizer")!.getParameter("cn")).toBe("Ezra 'E' Stone");
    expect(vevent.getFirstPropertyValue("organizer")).toBe("mailto:ezra@example.com");
  });
});
