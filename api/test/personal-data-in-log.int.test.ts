import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASED_TEXT, type BookingAsOfReply, type ConversationReply, type LoggedEventRecord } from "@booking/contracts";
import { storedLogOf, type PostgresEventStore } from "@booking/event-store";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Personal data in the log, end to end through the API (issue 33.1): a booking's prep answers, its messages and the
// people's names and addresses reach the `events` table only sealed, while the read models, the console's event log
// and time travel show them; once the creator's data key is destroyed, time travel and the event log show the
// redaction (never a 500), and the expert's words stay readable.

let api: TestApi;
let expert: TestUser;
let creator: TestUser;
let admin: TestUser;
let bookingId: string;
const V1 = "/api/v1";
const run = randomUUID().slice(0, 8);
const SECRETS = {
  creatorName: `Zerubbabel${run}`,
  answer: `My channel plan ${run}: three shorts a week`,
  creatorMessage: `Call me on 0761 555 ${run}`,
  expertMessage: `Bring your analytics export ${run}`,
};

/** Every stored event's data as text, as the table holds it. */
async function eventsTable(): Promise<string> {
  const stored = storedLogOf(api.ctx.store) as PostgresEventStore;
  const { rows } = await stored.pool.query<{ data: string }>("SELECT data::text AS data FROM events");
  return rows.map((r) => r.data).join("\n");
}

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert", { firstName: "Pia" });
  creator = await api.user("creator", { firstName: SECRETS.creatorName });
  admin = await api.user("admin");
  await api.call("PATCH", `${V1}/experts/me`, {
    user: expert,
    body: { first_name: "Pia", last_name: "Stone", title: "Coach", published: true },
  });
  await api.approve(expert);
  const slots = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: expert, body: { timezone: "UTC", slots } });
  const session = { title: "One question", price: 60, length_minutes: 30, prep_question_1: "What is your goal?", status: "published" };
  const sessionId = (await api.call("POST", `${V1}/sessions`, { user: expert, body: session })).json().session.id as string;
  const times = (await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times as string[];
  const booked = await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: sessionId, scheduled_time: times[3] } });
  expect(booked.statusCode, booked.body).toBe(201);
  bookingId = booked.json().booking.id as string;
  const prep = await api.call("PATCH", `${V1}/bookings/${bookingId}/prep`, { user: creator, body: { prep_response_1: SECRETS.answer } });
  expect(prep.statusCode, prep.body).toBe(200);
  for (const [user, text] of [
    [creator, SECRETS.creatorMessage],
    [expert, SECRETS.expertMessage],
  ] as const) {
    const sent = await api.call("POST", `${V1}/bookings/${bookingId}/messages`, { user, body: { text } });
    expect(sent.statusCode, sent.body).toBe(200);
  }
});
afterAll(() => api?.close());

const adminEvents = async (stream: string) => {
  const r = await api.call("GET", `${V1}/admin/events?filter=${encodeURIComponent(JSON.stringify({ stream_id: stream }))}&range=[0,99]`, {
    user: admin,
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<LoggedEventRecord[]>();
};

describe("personal data written through the API", () => {
  it("reaches the events table only sealed: no prep answer, message, name or address in clear", async () => {
    const table = await eventsTable();
    for (const text of [...Object.values(SECRETS), creator.email, expert.email]) expect(table, text).not.toContain(text);
    expect(table).toContain(`"pd1:${creator.id}:`);
    expect(table).toContain(`"pd1:${expert.id}:`);
    expect(table).toContain(bookingId);
  });

  it("reads back in plain text from the read models and the console's event log", async () => {
    const booking = (await api.call("GET", `${V1}/bookings/${bookingId}`, { user: expert })).json();
    expect(booking).toMatchObject({ prep_response_1: SECRETS.answer });
    const thread = (await api.call("GET", `${V1}/bookings/${bookingId}/messages`, { user: expert })).json<ConversationReply>();
    expect(thread.messages.map((m) => m.text)).toEqual([SECRETS.creatorMessage, SECRETS.expertMessage]);
    const logged = await adminEvents(`calendar-${expert.id}`);
    expect(logged.find((e) => e.type === "PrepSubmitted")?.data).toMatchObject({ answers: [SECRETS.answer] });
    const user = await adminEvents(`user-${creator.id}`);
    expect(user[0]?.data).toMatchObject({ firstName: SECRETS.creatorName, email: creator.email });
  });

  it("shows the redaction once the creator's data key is destroyed: time travel answers, never a 500", async () => {
    const prepEvent = (await adminEvents(`calendar-${expert.id}`)).find((e) => e.type === "PrepSubmitted")!;
    const asOf = () => api.call("GET", `${V1}/admin/bookings/${bookingId}/as-of?event_id=${prepEvent.id}`, { user: admin });
    expect((await asOf()).json<BookingAsOfReply>().event.data).toMatchObject({ answers: [SECRETS.answer] });

    await api.ctx.dataKeys.erase(creator.id);
    expect(await api.ctx.dataKeys.erasedAt(creator.id)).not.toBeNull();
    expect(await api.ctx.snapshots.forgetMentioning(creator.id)).toBeGreaterThanOrEqual(0);
    const after = await asOf();
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json<BookingAsOfReply>().event.data).toMatchObject({ answers: [ERASED_TEXT] });
    const calendarAsOf = await api.call("GET", `${V1}/admin/experts/${expert.id}/calendar/as-of?at=${new Date().toISOString()}`, {
      user: admin,
    });
    expect(calendarAsOf.statusCode, calendarAsOf.body).toBe(200);
    const user = await adminEvents(`user-${creator.id}`);
    expect(user[0]?.data).toMatchObject({ firstName: "Deleted", lastName: "user" });
    const conversation = await adminEvents(`conversation-${bookingId}`);
    expect(conversation.map((e) => (e.data as { text?: string }).text)).toEqual(
      expect.arrayContaining([ERASED_TEXT, SECRETS.expertMessage]),
    );
  });
});
