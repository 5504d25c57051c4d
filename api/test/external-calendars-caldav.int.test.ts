import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCalDavServer } from "@booking/testkit";
import { calendarStream } from "@booking/engine";
import type { CalendarCommand } from "@booking/contracts";
import { calDavAccount } from "../src/external-calendars/caldav-account.ts";
import { BookingCalendarWriter } from "../src/external-calendars/index.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 32 through the API against a real CalDAV server (radicale, testkit/src/caldav-server.ts):
// an expert connects their account, an event created in their Work calendar blocks bookings, they
// choose Bookings to receive confirmed bookings, and a booking is written there, moved and removed.

const V1 = "/api/v1";
const NOW = "2026-03-02T08:00:00.000Z"; // Monday; the expert works 09:00-17:00 UTC every day
const server = await startCalDavServer();
let api: TestApi;
let expert: TestUser;
let sessionId: string;
let writer: BookingCalendarWriter;
const run = `-${randomUUID().slice(0, 8)}`;

const account = () => calDavAccount({ serverUrl: server!.url, username: server!.username, password: server!.password }, globalThis.fetch);
const as = (user: TestUser) => ({ userId: user.id, role: user.role as "creator" | "expert" });
async function must(method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: unknown, user = expert) {
  const r = await api.call(method, url, { user, ...(body !== undefined && { body }) });
  if (r.statusCode >= 300) throw new Error(`${method} ${url} → ${r.statusCode} ${r.body}`);
  return r.statusCode === 204 ? null : r.json();
}
async function decide(command: CalendarCommand) {
  const r = await api.ctx.calendar.handle(calendarStream(expert.id), command, { actor: command.actor });
  if (!r.ok) throw new Error(`${command.type}: ${r.refusal.code}`);
  await api.ctx.projected(r.value);
}
const calendarNamed = async (name: string) => (await account().calendars()).find((k) => k.name === name)!.url;
/** The booking entries of the Bookings calendar in March: UID → start. */
async function bookingEntries(): Promise<Record<string, string>> {
  const texts = await account().objectsBetween(await calendarNamed("Bookings"), "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
  const unfolded = texts.map((t) => t.replace(/\r?\n[ \t]/g, ""));
  return Object.fromEntries(unfolded.map((t) => [/^UID:(.*)$/m.exec(t)![1]!.trim(), /^DTSTART:(.*)$/m.exec(t)![1]!.trim()]));
}
const offeredOn = async (date: string) =>
  (await must("GET", `${V1}/sessions/${sessionId}/availability?from=${date}&to=${date}`)).times.map((t: string) => t.slice(11, 16));

beforeAll(async () => {
  if (!server) return;
  api = await startTestApi({ clock: () => NOW, calendarPlainHosts: [new URL(server.url).host] });
  expert = await api.user("expert");
  await must("PATCH", `${V1}/experts/me`, { first_name: "Ada", last_name: "Moss", title: "Coach", published: true });
  await api.approve(expert);
  const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "09:00",
    end_local: "17:00",
  }));
  await must("POST", `${V1}/experts/${expert.id}/schedule`, { timezone: "UTC", slots: everyDay });
  sessionId = (
    await must("POST", `${V1}/sessions`, {
      title: "Pricing review",
      price: 100,
      length_minutes: 60,
      prep_question_1: "Goal?",
      status: "published",
    })
  ).session.id;
  writer = new BookingCalendarWriter({
    log: api.ctx.store,
    db: api.ctx.db,
    clock: () => NOW,
    ...api.ctx.externalCalendars,
    invites: { publicUrl: api.ctx.mail.publicUrl, meetingRoomUrlTemplate: null },
  });
});
afterAll(async () => {
  await api?.close();
  await server?.stop();
});

describe.skipIf(server === null)("an expert's CalDAV account", () => {
  let connection: { id: string; calendars: { id: string; name: string }[] };

  it("connects: the account's calendars are found and all block by default; the password is never returned", async () => {
    // An event in Work, made through CalDAV as any calendar app would: Wednesday 13:00-14:30.
    const event = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", `UID:dentist${run}`, "DTSTAMP:20260101T000000Z"];
    const ics = [...event, "DTSTART:20260304T130000Z", "DTEND:20260304T143000Z", "SUMMARY:Dentist", "END:VEVENT", "END:VCALENDAR", ""].join(
      "\r\n",
    );
    await account().putEvent(await calendarNamed("Work"), `dentist${run}.ics`, ics);
    const r = await api.call("POST", `${V1}/experts/${expert.id}/calendars`, {
      user: expert,
      body: { kind: "caldav", server_url: server!.url, username: server!.username, password: server!.password },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.body).not.toContain(server!.password);
    connection = r.json();
    expect(connection).toMatchObject({ kind: "caldav", label: `${server!.username}@${new URL(server!.url).host}`, last_error: null });
    expect(connection.calendars.map((k) => k.name).sort()).toEqual(expect.arrayContaining(["Bookings", "Work"]));
  });

  it("an event in a blocking calendar takes its time out of availability; unticking the calendar gives it back", async () => {
    expect(await offeredOn("2026-03-04")).not.toContain("13:00");
    expect(await offeredOn("2026-03-04")).toContain("14:30");
    const work = connection.calendars.find((k) => k.name === "Work")!.id;
    const others = connection.calendars.filter((k) => k.id !== work).map((k) => k.id);
    await must("PATCH", `${V1}/experts/${expert.id}/calendars/${connection.id}`, { blocking_calendar_ids: others });
    expect(await offeredOn("2026-03-04")).toContain("13:00");
    await must("PATCH", `${V1}/experts/${expert.id}/calendars/${connection.id}`, { blocking_calendar_ids: [work, ...others] });
    expect(await offeredOn("2026-03-04")).not.toContain("13:00");
  });

  it("a confirmed booking is written into the calendar the expert chose, moved with the booking and removed when cancelled", async () => {
    const bookings = connection.calendars.find((k) => k.name === "Bookings")!.id;
    const chosen = await must("PATCH", `${V1}/experts/${expert.id}/calendars/${connection.id}`, { bookings_calendar_id: bookings });
    expect(chosen.calendars.find((k: { id: string }) => k.id === bookings)).toMatchObject({ receives_bookings: true });
    const creator = await api.user("creator");
    const requested = await must("POST", `${V1}/bookings`, { session_id: sessionId, scheduled_time: "2026-03-05T10:00:00.000Z" }, creator);
    const on = { expertId: expert.id, bookingId: requested.booking.id as string };
    await writer.runOnce();
    const uid = `booking-${on.bookingId}@${new URL(api.ctx.mail.publicUrl).host}`;
    expect(await bookingEntries()).not.toHaveProperty([uid]); // not confirmed yet: nothing to hold
    await decide({
      type: "RecordPayment",
      ...on,
      actor: { userId: "payments", role: "system" },
      paymentId: `pi${run}`,
      amountCents: 10_000,
      provider: "test",
    });
    await decide({ type: "ConfirmBooking", ...on, actor: as(expert) });
    await writer.runOnce();
    expect((await bookingEntries())[uid]).toBe("20260305T100000Z");
    await decide({ type: "RequestReschedule", ...on, actor: as(creator), scheduledTime: "2026-03-06T15:00:00.000Z", creatorBookings: [] });
    await decide({ type: "AcceptReschedule", ...on, actor: as(expert) });
    await writer.runOnce();
    expect((await bookingEntries())[uid]).toBe("20260306T150000Z");
    await decide({ type: "CancelBooking", ...on, actor: as(expert), reason: "Travelling" });
    await writer.runOnce();
    expect(await bookingEntries()).not.toHaveProperty([uid]);
  });

  it("disconnecting gives the busy times back and deletes the stored password", async () => {
    await must("DELETE", `${V1}/experts/${expert.id}/calendars/${connection.id}`);
    expect(await offeredOn("2026-03-04")).toContain("13:00");
    const { rows } = await api.ctx.db.query("SELECT count(*)::int AS n FROM calendar_connections WHERE connection_id = $1", [
      connection.id,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
