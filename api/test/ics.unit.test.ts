import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { calendarText, type BookingInvite, type CalendarMethod } from "../src/calendar-invites/ics.ts";
import { CONTROL_OR_BREAK, hostile, propertyNames, propertyValue, strictCalendar, unescapeText } from "./ics-strict.ts";

// The iCalendar text rules a parser is strict about (escaped text, folded long lines, CRLF), and
// what the loosest parser makes of hostile text: no line break a parser might honour survives.

const invite = (over: Partial<BookingInvite> = {}): BookingInvite => ({
  bookingId: "bk-1",
  sequence: 7,
  status: "confirmed",
  start: "2026-12-02T14:00:00.000Z",
  end: "2026-12-02T15:00:00.000Z",
  title: "Pricing review",
  expert: { name: "Ezra Stone" },
  creator: { name: "Cora Quinn" },
  expertTimezone: "Europe/London",
  url: "https://example.com/session-details/bk-1",
  joinLink: null,
  updatedAt: "2026-11-24T10:00:00.000Z",
  ...over,
});

const PRODUCT = { name: "Expert Sessions", email: "no-reply@example.com" };
const READER = { name: "Cora Quinn", email: "cora@example.com" };

/** The calendar as each method writes it: a download or feed (PUBLISH), or an invite mailed to the creator. */
const calendarOf = (method: CalendarMethod, invites: BookingInvite[], name?: string) =>
  method === "PUBLISH"
    ? calendarText({ method, host: "example.com", invites, ...(name && { name }) })
    : calendarText({ method, host: "example.com", invites, organizer: PRODUCT, attendee: READER });

const eventOf = (text: string) => new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!);

describe("calendarText", () => {
  it("escapes commas, semicolons, backslashes and newlines so the title comes back whole", () => {
    const title = "Deals, rates; and \\ fees\nQ&A";
    expect(eventOf(calendarOf("REQUEST", [invite({ title })])).summary).toBe(`${title}: Ezra Stone and Cora Quinn`);
  });

  it("folds lines longer than 75 octets without splitting a character, and ends every line with CRLF", () => {
    const title = "Ünïcödé ".repeat(30).trim();
    const text = calendarOf("PUBLISH", [invite({ title })]);
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/\n/);
    expect(eventOf(text).summary.startsWith(title)).toBe(true);
  });

  it("names the organizer and the attendee of a mailed invite with quoted parameters, even with a quote in a name", () => {
    const text = calendarText({
      method: "REQUEST",
      host: "example.com",
      invites: [invite()],
      organizer: PRODUCT,
      attendee: { name: 'Cora "C" Quinn', email: "cora@example.com" },
    });
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!;
    expect(vevent.getFirstProperty("attendee")!.getParameter("cn")).toBe("Cora 'C' Quinn");
    expect(vevent.getFirstPropertyValue("organizer")).toBe("mailto:no-reply@example.com");
  });
});

describe("hostile text in titles and names (issue 26 item 2)", () => {
  const title = hostile("Pricing review");
  // A join link can pass the https check with a NEL in it (\s does not match U+0085): as text and as a URI it stays on one line.
  const joinLink = "https://meet.example.com/room\x85X-INJECTED:nel\u2028X-INJECTED:ls";
  const hostileInvite = invite({ title, expert: { name: hostile("Ezra") }, creator: { name: hostile("Cora") }, joinLink });
  const EVENT = ["UID", "SEQUENCE", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY", "DESCRIPTION", "STATUS", "URL", "X-EXPERT-TIMEZONE"];
  const EVENT_WITH_LINK = [
    "UID",
    "SEQUENCE",
    "DTSTAMP",
    "DTSTART",
    "DTEND",
    "SUMMARY",
    "DESCRIPTION",
    "STATUS",
    "LOCATION",
    "URL",
    "X-EXPERT-TIMEZONE",
  ];

  it.each(["PUBLISH", "REQUEST", "CANCEL"] as const)(
    "%s: a reader splitting lines on any break finds exactly the properties written, in one event",
    (method) => {
      const text =
        method === "PUBLISH"
          ? calendarText({ method, host: "example.com", name: hostile("My sessions"), invites: [hostileInvite] })
          : calendarText({
              method,
              host: "example.com",
              invites: [hostileInvite],
              organizer: { name: hostile("Expert Sessions"), email: "no-reply@example.com" },
              attendee: { name: hostile("Cora"), email: "cora@example.com" },
            });
      const calendar = strictCalendar(text);
      expect(propertyNames(calendar)).toEqual([
        "VERSION",
        "PRODID",
        "CALSCALE",
        "METHOD",
        ...(method === "PUBLISH" ? ["X-WR-CALNAME"] : []),
      ]);
      expect(calendar.components.map((c) => c.name)).toEqual(["VEVENT"]);
      const [event] = calendar.components;
      expect(propertyNames(event!)).toEqual(method === "PUBLISH" ? EVENT_WITH_LINK : [...EVENT_WITH_LINK, "ORGANIZER", "ATTENDEE"]);
      expect(text).not.toContain("mallory@evil.example\r\n");
      // The title comes back as text: its breaks are escaped line feeds, nothing else is a control character.
      const summary = unescapeText(propertyValue(event!, "SUMMARY")!);
      expect(summary).toContain("ATTENDEE;CN=Mallory:mailto:mallory@evil.example");
      expect(summary).toContain('"quoted";semi,comma\\backslash');
      expect(summary.replace(/\n/g, "")).not.toMatch(CONTROL_OR_BREAK);
      // A real parser agrees: one event, the hostile text inside its summary, one attendee at most.
      const root = new ICAL.Component(ICAL.parse(text));
      expect(root.getAllSubcomponents("vevent")).toHaveLength(1);
      expect(root.getFirstSubcomponent("vevent")!.getAllProperties("attendee").length).toBe(method === "PUBLISH" ? 0 : 1);
    },
  );

  it("NUL and the other C0/C1 control characters never reach the file, in text or in a quoted parameter", () => {
    const controls =
      Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join("") +
      "\x7f" +
      Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)).join("");
    const text = calendarText({
      method: "REQUEST",
      host: "example.com",
      invites: [invite({ title: `a${controls}b`, expert: { name: `E${controls}` } })],
      organizer: PRODUCT,
      attendee: { name: `C${controls}"`, email: "cora@example.com" },
    });
    // Only CRLF line ends and the tab (allowed in text) remain.
    expect(text.replace(/\r\n/g, "").replace(/\t/g, "")).not.toMatch(CONTROL_OR_BREAK);
    expect(propertyNames(strictCalendar(text).components[0]!)).toEqual([...EVENT, "ORGANIZER", "ATTENDEE"]);
  });
});

describe("whose addresses a calendar carries (issue 26 item 7, issue 27 item 17)", () => {
  it("a download or a feed (PUBLISH) names nobody's address: no ORGANIZER, no ATTENDEE, no mailto", () => {
    const text = calendarOf("PUBLISH", [invite(), invite({ bookingId: "bk-2" })], "Expert sessions");
    expect(text).not.toMatch(/ORGANIZER|ATTENDEE|mailto:|@example\.com(?!\r)/);
    expect(strictCalendar(text).components).toHaveLength(2);
  });

  it("an invite mailed to one party names the product as organizer and that reader as the only attendee", () => {
    for (const method of ["REQUEST", "CANCEL"] as const) {
      const event = strictCalendar(calendarOf(method, [invite()])).components[0]!;
      expect(event.properties.filter((p) => p.name === "ORGANIZER" || p.name === "ATTENDEE").map((p) => p.raw)).toEqual([
        'ORGANIZER;CN="Expert Sessions":mailto:no-reply@example.com',
        `ATTENDEE;CN="Cora Quinn";ROLE=REQ-PARTICIPANT;PARTSTAT=${method === "CANCEL" ? "DECLINED" : "ACCEPTED"}:mailto:cora@example.com`,
      ]);
    }
  });

  it("the description states the session's time in the expert's zone, not only the zone's name", () => {
    const description = eventOf(calendarOf("PUBLISH", [invite()])).description;
    expect(description).toContain("Wednesday, 2 December 2026, 14:00 (Europe/London");
    // Summer in Berlin: the offset in force that day.
    expect(
      eventOf(calendarOf("PUBLISH", [invite({ start: "2027-07-01T08:00:00.000Z", expertTimezone: "Europe/Berlin" })])).description,
    ).toContain("Thursday, 1 July 2027, 10:00 (Europe/Berlin, GMT+2)");
    expect(eventOf(calendarOf("PUBLISH", [invite({ expertTimezone: null })])).description).toContain(
      "Wednesday, 2 December 2026, 14:00 (UTC)",
    );
  });
});
