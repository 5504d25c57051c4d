import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { hostile, hostileName, propertyNames, propertyValue, strictCalendar, unescapeText, type StrictComponent } from "./ics-strict.ts";
import { PUBLIC_URL, readEverything, registered, testMail, type MailUser } from "./mail-bookings.ts";

// Every .ics the product makes (the booking's download, the personal feed, the invite a booking
// mail carries: REQUEST and CANCEL), read with a line splitter that ends a line at any character
// a loose parser might (CR, LF, VT, FF, FS/GS/RS, NEL, LS, PS). Titles and names hold hostile
// text that the contracts now refuse, so it is written as data from before that rule was: events
// appended straight to the store. Each file must hold exactly the properties written, one VEVENT
// per booking, and no address but the reader's own in a mail (issue 26 items 2 and 7).

const now = "2027-03-20T12:00:00.000Z";
const VCALENDAR = ["VERSION", "PRODID", "CALSCALE", "METHOD"];
const VEVENT = ["UID", "SEQUENCE", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY", "DESCRIPTION", "STATUS", "URL", "X-EXPERT-TIMEZONE"];

let api: TestApi;
let calendar: ExpertCalendar;
let expert: MailUser;
let creator: MailUser;
let creatorUser: TestUser;
let confirmedA: string;
let confirmedB: string;
let cancelled: string;

const asUser = (u: MailUser, role: "creator" | "expert"): TestUser => ({
  id: u.id,
  role,
  email: u.email,
  token: api.app.jwt.sign({ sub: u.id, role, email: u.email, sid: randomUUID() }),
});

beforeAll(async () => {
  api = await startTestApi({ clock: () => now });
  // Names and a title with every line break, as stored before the contracts refused them.
  expert = await registered(api, "expert", "Ezra", "Stone");
  creator = await registered(api, "creator", "Cora", "Quinn");
  for (const [user, first, last] of [
    [expert, "Ezra", "Stone"],
    [creator, "Cora", "Quinn"],
  ] as const)
    await api.ctx.store.append(
      `user-${user.id}`,
      [{ type: "UserRenamed", data: { userId: user.id, firstName: hostile(first), lastName: hostile(last) }, metadata: { at: now } }],
      "any",
    );
  await api.ctx.store.append(
    `expert-${expert.id}`,
    [
      {
        type: "ExpertProfileSaved",
        data: {
          expertId: expert.id,
          userId: expert.id,
          slug: `ezra-${expert.id.slice(0, 8)}`,
          profile: {
            firstName: hostileName("Ezra"),
            lastName: hostileName("Stone"),
            title: hostileName("Advisor"),
            bio: null,
            tags: [],
            profileImage: null,
          },
          published: true,
        },
        metadata: { at: now },
      },
    ],
    "no_stream",
  );
  creatorUser = asUser(creator, "creator");
  calendar = await expertCalendar(api, asUser(expert, "expert"));
  const everyDay = (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
    weekday,
    start_local: "08:00",
    end_local: "18:00",
  }));
  await calendar.run({
    type: "SetSchedule",
    expertId: expert.id,
    actor: { userId: expert.id, role: "expert" },
    schedule: { timezone: "Europe/London", slots: everyDay },
  });
  const title = hostile("Pricing review");
  confirmedA = await calendar.confirmedBooking(creatorUser, "2027-03-26T09:00:00.000Z", 15_000, title);
  confirmedB = await calendar.confirmedBooking(creatorUser, "2027-03-29T09:00:00.000Z", 15_000, title);
  cancelled = await calendar.confirmedBooking(creatorUser, "2027-03-30T09:00:00.000Z", 15_000, title);
  await calendar.run({
    type: "CancelBooking",
    expertId: expert.id,
    bookingId: cancelled,
    actor: { userId: expert.id, role: "expert" },
    reason: hostile("Ill"),
  });
}, 60_000);

afterAll(async () => api?.close());

/** The file read strictly: exactly the calendar's own properties, one VEVENT per booking, each with exactly `eventProperties`. */
function expectExactly(
  text: string,
  o: { method: string; named?: boolean; bookings: string[]; eventProperties: string[] },
): StrictComponent[] {
  const root = strictCalendar(text);
  expect(root.name).toBe("VCALENDAR");
  expect(propertyNames(root)).toEqual([...VCALENDAR, ...(o.named ? ["X-WR-CALNAME"] : [])]);
  expect(propertyValue(root, "METHOD")).toBe(o.method);
  expect(root.components.map((c) => c.name)).toEqual(o.bookings.map(() => "VEVENT"));
  expect(root.components.map((c) => propertyValue(c, "UID"))).toEqual(o.bookings.map((id) => expect.stringContaining(id)));
  for (const event of root.components) {
    expect(propertyNames(event)).toEqual(o.eventProperties);
    expect(event.components).toEqual([]);
    // The hostile text is there, as text inside the summary (a forged END:VEVENT included).
    const summary = unescapeText(propertyValue(event, "SUMMARY")!);
    expect(summary).toContain("ATTENDEE;CN=Mallory:mailto:mallory@evil.example");
    expect(summary).toContain("END:VEVENT");
  }
  return root.components;
}

describe("every calendar file, read by a parser that splits lines on any break", () => {
  it("the booking's download, for either party, confirmed or cancelled: one event, exactly its properties, no address", async () => {
    for (const [bookingId, status] of [
      [confirmedA, "CONFIRMED"],
      [cancelled, "CANCELLED"],
    ] as const) {
      for (const reader of [creatorUser, calendar.expert]) {
        const r = await api.call("GET", `/api/v1/bookings/${bookingId}/calendar.ics`, { user: reader });
        expect(r.statusCode, r.body).toBe(200);
        const [event] = expectExactly(r.body, { method: "PUBLISH", bookings: [bookingId], eventProperties: VEVENT });
        expect(propertyValue(event!, "STATUS")).toBe(status);
        for (const email of [creator.email, expert.email]) expect(r.body).not.toContain(email);
      }
    }
  });

  it("the personal feed, of either party: one event per confirmed booking, exactly their properties, no address", async () => {
    for (const reader of [creatorUser, calendar.expert]) {
      const feed = await api.call("GET", "/api/v1/calendar/feed", { user: reader });
      expect(feed.statusCode, feed.body).toBe(200);
      const r = await api.call("GET", new URL(feed.json<{ https_url: string }>().https_url).pathname);
      expect(r.statusCode, r.body).toBe(200);
      expectExactly(r.body, { method: "PUBLISH", named: true, bookings: [confirmedA, confirmedB], eventProperties: VEVENT });
      for (const email of [creator.email, expert.email]) expect(r.body).not.toContain(email);
    }
  });

  it("the invites booking mails carry (REQUEST on confirmation, CANCEL on cancellation): the product organizes, the reader is the one attendee", async () => {
    const mail = testMail(api, { smtpUrl: null, clock: () => now });
    try {
      await readEverything(api, mail.reactor);
    } finally {
      mail.close();
    }
    const { rows } = await api.ctx.db.query<{
      kind: string;
      to_address: string;
      booking_id: string;
      attachments: { contentType: string; content: string }[];
    }>(
      "SELECT kind, to_address, booking_id, attachments FROM mail_outbox WHERE booking_id = ANY($1) ORDER BY booking_id, kind, to_address",
      [[confirmedA, cancelled]],
    );
    const invites = rows.flatMap((row) =>
      row.attachments.filter((a) => a.contentType.startsWith("text/calendar")).map((a) => ({ ...row, content: a.content })),
    );
    const seen = invites.map(
      (i) =>
        `${i.kind} ${i.booking_id === cancelled ? "cancelled" : "confirmed"} -> ${i.to_address === expert.email ? "expert" : "creator"}`,
    );
    // Both parties were mailed the invitation of each booking, and the withdrawal of the cancelled one.
    expect(seen.sort()).toEqual(
      [
        "booking_confirmed confirmed -> creator",
        "booking_confirmed confirmed -> expert",
        "booking_confirmed cancelled -> creator",
        "booking_confirmed cancelled -> expert",
        "booking_cancelled cancelled -> creator",
        "booking_cancelled cancelled -> expert",
      ].sort(),
    );
    const organizer = `mailto:no-reply@${new URL(PUBLIC_URL).hostname}`;
    for (const invite of invites) {
      const method = invite.kind === "booking_cancelled" ? "CANCEL" : "REQUEST";
      const [event] = expectExactly(invite.content, {
        method,
        bookings: [invite.booking_id],
        eventProperties: [...VEVENT, "ORGANIZER", "ATTENDEE"],
      });
      expect(propertyValue(event!, "ORGANIZER")).toBe(organizer);
      expect(propertyValue(event!, "ATTENDEE")).toBe(`mailto:${invite.to_address}`);
      const other = invite.to_address === expert.email ? creator.email : expert.email;
      expect(invite.content, `${invite.kind} to ${invite.to_address}`).not.toContain(other);
    }
  });
});

describe("new titles and names with line breaks are refused at the boundary, with the catalogue's message", () => {
  const refusal = { code: "text_has_control_characters", message: "Please remove line breaks and control characters." };

  it("a session title, an expert's names and title, a name at sign-up or rename", async () => {
    const expertUser = await api.user("expert");
    const creatorUser = await api.user("creator");
    const session = { title: "Pricing\rSUMMARY:Forged", price: 100, length_minutes: 60, prep_question_1: "Why?", status: "draft" };
    const profile = { first_name: "Ezra", last_name: "Stone", title: "Advisor" };
    const saved = await api.call("PATCH", "/api/v1/experts/me", { user: expertUser, body: profile });
    expect(saved.statusCode, saved.body).toBe(200);
    const replies = [
      await api.call("POST", "/api/v1/sessions", { user: expertUser, body: session }),
      await api.call("PATCH", "/api/v1/experts/me", { user: expertUser, body: { ...profile, first_name: "Ezra\u2028END:VEVENT" } }),
      await api.call("PATCH", "/api/v1/experts/me", { user: expertUser, body: { ...profile, title: "Advisor\x85X-INJECTED:1" } }),
      await api.call("POST", "/api/v1/auth/signup", {
        body: { email: "broken-name@example.com", password: "fine-Passw0rd-1", role: "creator", first_name: "Cora\vX" },
      }),
      await api.call("PATCH", "/api/v1/auth/me", { user: creatorUser, body: { first_name: "Cora", last_name: "Quinn\u2029X" } }),
    ];
    for (const r of replies) {
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toEqual(refusal);
    }
  });
});
