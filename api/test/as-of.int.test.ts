import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BookingAsOfReply,
  CalendarAsOfReply,
  readDomainEvent,
  type Actor,
  type BookingRecord,
  type CalendarCommand,
  type CalendarEvent,
  type StoredEvent,
  type TimelineEntry,
} from "@booking/contracts";
import { busyPeriods, calendarDecider, calendarStream, expertHours, isBookableStart, type Booking } from "@booking/engine";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Time travel through the admin API: a booking as of every event of a real history, checked
// against the engine's replay of the stream prefix (here, in the test) and, at the end, against
// the bookings read model; an expert's calendar at several instants, checked against a
// brute-force recomputation of every half hour of the day.

const V1 = "/api/v1";
const BASE = "2026-03-02T08:00:00.000Z";
const t = (minutes: number) => new Date(Date.parse(BASE) + minutes * 60_000).toISOString();
const D = "2026-03-04";
const NEXT = "2026-03-05";
const PRICE = 15_000;
const SYSTEM: Actor = { userId: "payments", role: "system" };
const NINE_TO_FIVE = (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
  weekday,
  start_local: "09:00",
  end_local: "17:00",
}));

let api: TestApi;
let admin: TestUser;
let expert: TestUser;
let creator: TestUser;
let other: TestUser;
const B1 = `bk-${randomUUID()}`;
const B2 = `bk-${randomUUID()}`;

async function run(now: string, command: CalendarCommand): Promise<StoredEvent[]> {
  const r = await api.ctx.calendar.handle(calendarStream(expert.id), command, { actor: command.actor, now });
  if (!r.ok) throw new Error(`fixture: ${command.type} at ${now}: ${r.refusal.code}`);
  await api.ctx.projected(r.value);
  return r.value.events;
}

const stream = async () => (await api.ctx.store.readStream(calendarStream(expert.id))).events;
const eventOf = (s: StoredEvent) => readDomainEvent(s.type, s.schemaVersion, s.data) as CalendarEvent;

/** The engine's replay, in the test: the stream's first `n` events folded one by one. */
const replayed = (events: StoredEvent[], n: number) =>
  events.slice(0, n).reduce((s, e) => calendarDecider.evolve(s, [eventOf(e)]), calendarDecider.initialState());

/** What the engine keeps of a booking, as the reply names it. */
const engineView = (b: Booking | undefined) =>
  b
    ? {
        status: b.status,
        creator_id: b.creatorId,
        scheduled_time: b.scheduledTime,
        held_until: b.heldUntil,
        length_minutes: b.lengthMinutes,
        price_cents: b.priceCents,
        paid_cents: b.paidCents,
        payment_ids: b.paymentIds,
        owed_cents: b.owedCents,
        refunded_cents: b.refundedCents,
        refund_keys: b.refundKeys,
        has_notes: b.hasNotes,
        reschedule_to: b.rescheduleTo,
        join_link: b.joinLink,
      }
    : null;
const ENGINE_KEYS = [
  "status",
  "creator_id",
  "scheduled_time",
  "held_until",
  "length_minutes",
  "price_cents",
  "paid_cents",
  "payment_ids",
  "owed_cents",
  "refunded_cents",
  "refund_keys",
  "has_notes",
  "reschedule_to",
  "join_link",
];
const pickEngineView = (s: object | null) => s && Object.fromEntries(ENGINE_KEYS.map((k) => [k, (s as Record<string, unknown>)[k]]));

async function asOf(bookingId: string, query: string) {
  return api.call("GET", `${V1}/admin/bookings/${bookingId}/as-of?${query}`, { user: admin });
}
async function calendarAsOf(query: string) {
  return api.call("GET", `${V1}/admin/experts/${expert.id}/calendar/as-of?${query}`, { user: admin });
}

beforeAll(async () => {
  api = await startTestApi({ clock: () => BASE });
  admin = await api.user("admin");
  expert = await api.user("expert");
  creator = await api.user("creator");
  other = await api.user("creator");
  const asExpert: Actor = { userId: expert.id, role: "expert" };
  const asCreator: Actor = { userId: creator.id, role: "creator" };
  const on = { expertId: expert.id, bookingId: B1 };
  const request = (bookingId: string, who: TestUser, scheduledTime: string): CalendarCommand => ({
    type: "RequestBooking",
    expertId: expert.id,
    bookingId,
    actor: { userId: who.id, role: "creator" },
    scheduledTime,
    expertUserId: expert.id,
    expertVetting: "approved",
    creatorAcceptedTerms: true,
    creatorBookings: [],
    holdMinutes: 15,
    session: {
      sessionId: `s-${randomUUID()}`,
      expertId: expert.id,
      title: "Pricing review",
      lengthMinutes: 60,
      priceCents: PRICE,
      published: true,
      prepQuestions: ["Goal?", "Stage?", "Blocker?"],
    },
  });
  await run(t(0), { type: "SetSchedule", expertId: expert.id, actor: asExpert, schedule: { timezone: "UTC", slots: NINE_TO_FIVE } });
  await run(t(1), {
    type: "SetBookingRules",
    expertId: expert.id,
    actor: asExpert,
    rules: { bufferBeforeMinutes: 15, bufferAfterMinutes: 15, minNoticeHours: 0 },
  });
  await run(t(10), request(B1, creator, `${D}T10:00:00.000Z`));
  // Another creator's unpaid hold, between B1's events; it runs out at t(26) with no event.
  await run(t(11), request(B2, other, `${D}T16:00:00.000Z`));
  await run(t(12), { type: "RecordPayment", ...on, actor: SYSTEM, paymentId: `pi-${B1}`, amountCents: PRICE, provider: "test" });
  await run(t(14), { type: "RequestInfo", ...on, actor: asExpert, note: "Which niche?" });
  await run(t(16), { type: "SubmitPrep", ...on, actor: asCreator, answers: ["Grow", "10k", "Time"] });
  await run(t(18), { type: "ProposeTime", ...on, actor: asExpert, scheduledTime: `${D}T14:00:00.000Z` });
  await run(t(20), { type: "ConfirmBooking", ...on, actor: asCreator });
  await run(t(22), {
    type: "AddNotes",
    ...on,
    actor: asExpert,
    notes: { summary: "Good call", recap: "Went well", takeaways: ["Post daily"], suggestedActions: [] },
  });
  await run(t(23), {
    type: "AddTimeOff",
    expertId: expert.id,
    actor: asExpert,
    timeOff: { timeOffId: "off-1", start: `${D}T11:00`, end: `${D}T12:00`, reason: "Dentist" },
  });
  await run(t(24), { type: "RequestReschedule", ...on, actor: asCreator, scheduledTime: `${NEXT}T10:00:00.000Z`, creatorBookings: [] });
  await run(t(26), { type: "AcceptReschedule", ...on, actor: asExpert });
  const [cancelled] = await run(t(30), { type: "CancelBooking", ...on, actor: asExpert, reason: "Ill" });
  await run(t(32), {
    type: "RecordRefund",
    ...on,
    actor: SYSTEM,
    refundKey: cancelled!.eventId,
    refundId: "re_1",
    amountCents: PRICE,
    provider: "test",
  });
});
afterAll(async () => api?.close());

/** What each of B1's events leaves, as written in the scenario (the parts the engine does not keep as well). */
const script: Record<string, Record<string, unknown>> = {
  BookingRequested: {
    status: "pending",
    paid_cents: 0,
    payment_ids: [],
    prep_answers: null,
    holds_time: true,
    scheduled_time: `${D}T10:00:00.000Z`,
  },
  PaymentSucceeded: { status: "pending", paid_cents: PRICE, payment_ids: [`pi-${B1}`] },
  InfoRequested: { status: "more_info_requested", info_request_note: "Which niche?" },
  PrepSubmitted: { status: "pending", prep_answers: ["Grow", "10k", "Time"] },
  TimeProposed: { status: "time_proposed", scheduled_time: `${D}T14:00:00.000Z`, previous_time: `${D}T10:00:00.000Z` },
  Confirmed: { status: "confirmed", confirmed_at: t(20), notes: null },
  NotesAdded: { has_notes: true, notes: { summary: "Good call", recap: "Went well", takeaways: ["Post daily"], suggestedActions: [] } },
  RescheduleRequested: {
    reschedule_to: `${NEXT}T10:00:00.000Z`,
    reschedule_held: `${NEXT}T10:00:00.000Z`,
    scheduled_time: `${D}T14:00:00.000Z`,
  },
  RescheduleAccepted: {
    reschedule_to: null,
    scheduled_time: `${NEXT}T10:00:00.000Z`,
    previous_time: `${D}T14:00:00.000Z`,
    status: "confirmed",
  },
  Cancelled: {
    status: "cancelled",
    cancelled_by: "expert",
    cancel_reason: "Ill",
    cancelled_at: t(30),
    owed_cents: PRICE,
    refunded_cents: 0,
    holds_time: false,
  },
  RefundIssued: { owed_cents: PRICE, refunded_cents: PRICE },
};

describe("a booking as of each event", () => {
  it("equals the engine's replay of the stream up to that event at every event, with the diff from the one before, the event and its neighbours", async () => {
    const events = await stream();
    const show = (await api.call("GET", `${V1}/admin/bookings/${B1}`, { user: admin })).json<{ timeline: TimelineEntry[] }>();
    expect(show.timeline.map((e) => e.type)).toEqual(Object.keys(script));
    for (const [i, entry] of show.timeline.entries()) {
      const r = await asOf(B1, `position=${entry.position}`);
      expect(r.statusCode, r.body).toBe(200);
      const reply = BookingAsOfReply.parse(r.json());
      const n = events.findIndex((e) => e.eventId === entry.event_id) + 1;
      // The engine's replay of the stream prefix, in the test.
      expect(pickEngineView(reply.booking), entry.type).toEqual(engineView(replayed(events, n).bookings.get(B1)));
      expect(pickEngineView(reply.before), entry.type).toEqual(engineView(replayed(events, n - 1).bookings.get(B1)));
      expect(reply.booking, entry.type).toMatchObject(script[entry.type]!);
      // The diff is exactly the fields that differ.
      const differing = Object.keys(reply.booking).filter(
        (k) =>
          JSON.stringify((reply.before as Record<string, unknown> | null)?.[k] ?? null) !==
          JSON.stringify((reply.booking as Record<string, unknown>)[k] ?? null),
      );
      expect(reply.changes.map((c) => c.field).sort(), entry.type).toEqual(differing.sort());
      for (const c of reply.changes) expect(c.after).toEqual((reply.booking as Record<string, unknown>)[c.field]);
      expect(reply.event).toEqual(entry);
      expect([reply.step, reply.steps]).toEqual([i + 1, show.timeline.length]);
      expect([reply.previous_event_id, reply.next_event_id]).toEqual([
        show.timeline[i - 1]?.event_id ?? null,
        show.timeline[i + 1]?.event_id ?? null,
      ]);
      // By the event's id, the same answer; by its instant, the same booking.
      expect((await asOf(B1, `event_id=${entry.event_id}`)).json()).toEqual(reply);
      const byTime = (await asOf(B1, `at=${encodeURIComponent(entry.time)}`)).json<BookingAsOfReply>();
      expect([byTime.event.event_id, byTime.booking, byTime.at]).toEqual([entry.event_id, reply.booking, entry.time]);
    }
  });

  it("names the changes of an event field by field", async () => {
    const show = (await api.call("GET", `${V1}/admin/bookings/${B1}`, { user: admin })).json<{ timeline: TimelineEntry[] }>();
    const paid = (await asOf(B1, `event_id=${show.timeline[1]!.event_id}`)).json<BookingAsOfReply>();
    expect(paid.changes).toEqual([
      { field: "paid_cents", before: 0, after: PRICE },
      { field: "payment_ids", before: [], after: [`pi-${B1}`] },
    ]);
    // Between B1's events, the stream holds another booking's request: B1's own neighbours skip it.
    expect(paid.previous_event_id).toBe(show.timeline[0]!.event_id);
  });

  it("ends where the bookings read model is, field for field", async () => {
    const last = (await asOf(B1, `at=${encodeURIComponent(t(60))}`)).json<BookingAsOfReply>().booking;
    const row = (await api.call("GET", `${V1}/admin/bookings/${B1}`, { user: admin })).json<BookingRecord>();
    const fromRow = {
      status: row.status,
      scheduled_time: row.scheduled_time,
      previous_time: row.previous_time,
      held_until: row.held_until,
      paid_cents: row.paid_cents,
      owed_cents: row.refund_due_cents,
      refunded_cents: row.refunded_cents,
      prep_questions: row.prep_questions,
      prep_answers: row.prep_answers,
      info_request_note: row.info_request_note,
      notes: row.notes,
      cancelled_by: row.cancelled_by,
      cancel_reason: row.cancel_reason,
      cancelled_at: row.cancelled_at,
      confirmed_at: row.confirmed_at,
      creator_id: row.creator_id,
      session_title: row.session_title,
    };
    const norm = (o: Record<string, unknown>) =>
      JSON.parse(
        JSON.stringify(o, (_k, v: unknown) => (typeof v === "string" && /^\d{4}-\d\d-\d\dT/.test(v) ? new Date(v).toISOString() : v)),
      ) as unknown;
    expect(norm(Object.fromEntries(Object.keys(fromRow).map((k) => [k, (last as Record<string, unknown>)[k]])))).toEqual(norm(fromRow));
  });

  it("refuses what is not one of the booking's events, with the catalogue's words", async () => {
    const events = await stream();
    const otherBooking = events.find((e) => (e.data as { bookingId?: string }).bookingId === B2)!;
    const refusal = async (bookingId: string, query: string) => {
      const r = await asOf(bookingId, query);
      return `${r.statusCode} ${r.json<{ code: string }>().code}`;
    };
    expect(await refusal("no-such-booking", "at=2026-03-02T09:00:00Z")).toBe("404 booking_not_found");
    const [commit, prepare] = [otherBooking.position.commit, otherBooking.position.prepare];
    expect(await refusal(B1, `position=${commit}:${prepare}`)).toBe("404 as_of_event_not_in_booking");
    expect((await asOf(B1, `position=${commit}:${prepare}`)).json<{ message: string }>().message).toBe(
      "That event is not part of this booking's history.",
    );
    expect(await refusal(B1, "position=999999999:1")).toBe("404 as_of_event_not_in_booking");
    expect(await refusal(B1, `event_id=${otherBooking.eventId}`)).toBe("404 as_of_event_not_in_booking");
    expect(await refusal(B1, `at=${encodeURIComponent(t(9))}`)).toBe("404 as_of_before_booking");
    expect(await refusal(B1, "")).toBe("400 as_of_point_required");
    expect(await refusal(B1, `position=1:1&at=${encodeURIComponent(t(9))}`)).toBe("400 as_of_point_required");
    expect(await refusal(B1, "position=latest")).toBe("400 invalid_request");
    expect(await refusal(B1, "at=yesterday")).toBe("400 invalid_request");
    expect(await refusal(B1, "at=2026-03-02T09:00:00Z&extra=1")).toBe("400 invalid_request");
  });
});

/** The calendar as the test wrote it, at each instant: [start, minutes] held, and whether the time off was added yet. */
type Expected = { held: Record<string, [string, string][]>; timeOff: boolean };

/**
 * A brute-force reference from the scenario alone (no engine): each half hour of the UTC date, a
 * 60-minute start from 09:00 to 16:00, not before the instant, out of the time off once added, and
 * clear (15-minute buffers each side) of what was held.
 */
function reference(at: string, date: string, e: Expected): string[] {
  const found: string[] = [];
  for (let m = 9 * 60; m <= 16 * 60; m += 30) {
    const start = Date.parse(`${date}T00:00:00.000Z`) + m * 60_000;
    if (start < Date.parse(at)) continue;
    if (e.timeOff && date === D && start < Date.parse(`${D}T12:00:00.000Z`) && Date.parse(`${D}T11:00:00.000Z`) < start + 3_600_000)
      continue;
    const clash = (e.held[date] ?? []).some(
      ([held]) => start - 15 * 60_000 < Date.parse(held) + 75 * 60_000 && Date.parse(held) - 15 * 60_000 < start + 75 * 60_000,
    );
    if (!clash) found.push(new Date(start).toISOString());
  }
  return found;
}

describe("a calendar as of an instant", () => {
  const at10 = `${D}T10:00:00.000Z`;
  const at14 = `${D}T14:00:00.000Z`;
  const at16 = `${D}T16:00:00.000Z`;
  const next10 = `${NEXT}T10:00:00.000Z`;
  const instants: [string, Expected][] = [
    [t(5), { held: {}, timeOff: false }],
    [t(10), { held: { [D]: [[at10, B1]] }, timeOff: false }],
    [
      t(11),
      {
        held: {
          [D]: [
            [at10, B1],
            [at16, B2],
          ],
        },
        timeOff: false,
      },
    ],
    [
      t(13),
      {
        held: {
          [D]: [
            [at10, B1],
            [at16, B2],
          ],
        },
        timeOff: false,
      },
    ],
    [
      t(18),
      {
        held: {
          [D]: [
            [at14, B1],
            [at16, B2],
          ],
        },
        timeOff: false,
      },
    ],
    [
      t(23),
      {
        held: {
          [D]: [
            [at14, B1],
            [at16, B2],
          ],
        },
        timeOff: true,
      },
    ],
    [
      t(25),
      {
        held: {
          [D]: [
            [at14, B1],
            [at16, B2],
          ],
          [NEXT]: [[next10, B1]],
        },
        timeOff: true,
      },
    ],
    // B2's hold ran out at t(26) with no event; B1 moved to the next day.
    [t(26), { held: { [NEXT]: [[next10, B1]] }, timeOff: true }],
    [t(31), { held: {}, timeOff: true }],
  ];
  for (const [at, expected] of instants) {
    it(`at ${at}: the bookable times and the holders equal a brute-force recomputation`, async () => {
      const events = await stream();
      for (const date of [D, NEXT]) {
        const r = await calendarAsOf(`at=${encodeURIComponent(at)}&date=${date}&length_minutes=60`);
        expect(r.statusCode, r.body).toBe(200);
        const reply = CalendarAsOfReply.parse(r.json());
        expect(reply.bookable, `${date} at ${at}`).toEqual(reference(at, date, expected));
        // The engine's own single-time rule over the stream folded in the test, every half hour of the day.
        const folded = events.filter((e) => e.metadata.at <= at);
        const state = replayed(folded, folded.length);
        const halfHours = Array.from({ length: 48 }, (_, i) =>
          new Date(Date.parse(`${date}T00:00:00.000Z`) + i * 30 * 60_000).toISOString(),
        );
        expect(reply.bookable).toEqual(
          halfHours.filter((s) => isBookableStart({ ...expertHours(state)!, lengthMinutes: 60, busy: busyPeriods(state, at), now: at }, s)),
        );
        expect(reply.held.map((h) => [h.start, h.booking_id])).toEqual(expected.held[date] ?? []);
        expect(reply.held.every((h) => h.buffer_before_minutes === 15 && h.buffer_after_minutes === 15 && h.length_minutes === 60)).toBe(
          true,
        );
        expect([reply.events_folded, reply.last_event?.event_id]).toEqual([folded.length, folded.at(-1)?.eventId]);
        expect(reply.time_off.length).toBe(expected.timeOff && date === D ? 1 : 0);
      }
    });
  }

  it("answers the dispute on one screen: 10:00 was free before B1's request and held by it after", async () => {
    const before = (await calendarAsOf(`at=${encodeURIComponent(t(9))}&date=${D}`)).json<CalendarAsOfReply>();
    const after = (await calendarAsOf(`at=${encodeURIComponent(t(10))}&date=${D}`)).json<CalendarAsOfReply>();
    expect(before.bookable).toContain(at10);
    expect(after.bookable).not.toContain(at10);
    expect(after.held).toEqual([
      {
        booking_id: B1,
        creator_id: creator.id,
        status: "pending",
        holds: "booking",
        start: at10,
        end: `${D}T11:00:00.000Z`,
        length_minutes: 60,
        buffer_before_minutes: 15,
        buffer_after_minutes: 15,
      },
    ]);
  });

  it("reads the date of the instant in the expert's zone when none is given, and sessions of another length", async () => {
    const reply = (await calendarAsOf(`at=${encodeURIComponent(t(5))}`)).json<CalendarAsOfReply>();
    expect([reply.date, reply.timezone, reply.length_minutes]).toEqual([BASE.slice(0, 10), "UTC", 60]);
    const long = (await calendarAsOf(`at=${encodeURIComponent(t(5))}&date=${D}&length_minutes=120`)).json<CalendarAsOfReply>();
    expect(long.bookable.at(-1)).toBe(`${D}T15:00:00.000Z`);
  });

  it("refuses an unknown expert and a query it cannot read", async () => {
    const r = await api.call("GET", `${V1}/admin/experts/no-such-expert/calendar/as-of?at=${encodeURIComponent(t(5))}`, { user: admin });
    expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([404, "profile_not_found"]);
    for (const q of ["", "at=soon", `at=${encodeURIComponent(t(5))}&date=2026-02-30`, `at=${encodeURIComponent(t(5))}&length_minutes=45`]) {
      const bad = await calendarAsOf(q);
      expect([bad.statusCode, bad.json<{ code: string }>().code], q).toEqual([400, "invalid_request"]);
    }
  });
});
