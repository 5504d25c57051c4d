import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testPool, type TestDatabase } from "@booking/testkit";
import { blocksTime, busyPeriods, calendarDecider, holdExpired, openReschedule } from "@booking/engine";
import { BookingRecord, BookingStatus, type CalendarEvent, type StoredEvent } from "@booking/contracts";
import {
  blocksTimeSql,
  bookedPeriods,
  bookingColumns,
  creatorBookingFacts,
  evolveBooking,
  expiredHolds,
  findBooking,
  holdExpiredSql,
  migrateReadModels,
  openRescheduleSql,
  type BookingRow,
} from "../src/index.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// The hold rule is the engine's (holdExpired, blocksTime). Two reads say it again in SQL; this
// checks they agree with the engine on every status × payment × hold-expiry case, on Postgres.

let db: TestDatabase;
let pool: pg.Pool;
const NOW = "2030-01-06T09:00:00.000Z";

const cases = BookingStatus.options.flatMap((status) =>
  (["unpaid", "part", "paid"] as const).flatMap((payment) =>
    (["before", "at", "after"] as const).map((hold) => {
      const heldUntil = { before: "2030-01-06T08:59:00.000Z", at: NOW, after: "2030-01-06T09:01:00.000Z" }[hold];
      const paidCents = { unpaid: 0, part: 5_000, paid: 15_000 }[payment];
      return { id: `${status}-${payment}-${hold}`, status, heldUntil, paidCents, priceCents: 15_000 };
    }),
  ),
);

/** A booking as the read model's own rule makes it from its request, then put in the case's state. */
function row(c: (typeof cases)[number]): BookingRow {
  const event: CalendarEvent = {
    type: "BookingRequested",
    data: {
      bookingId: c.id,
      expertId: "e1",
      expertUserId: "u-e1",
      creatorId: "u-c1",
      sessionId: "s1",
      sessionTitle: "Review",
      priceCents: c.priceCents,
      lengthMinutes: 30,
      prepQuestions: [],
      scheduledTime: "2030-02-01T10:00:00.000Z",
      heldUntil: c.heldUntil,
    },
  };
  const stored: StoredEvent = {
    eventId: c.id,
    streamId: "calendar-e1",
    version: 1,
    position: { commit: 1n, prepare: 1n },
    type: event.type,
    schemaVersion: 1,
    data: event.data,
    metadata: { at: NOW },
    recordedAt: NOW,
  };
  const requested = evolveBooking(undefined, { event, stored })!;
  return { ...requested, status: c.status, paid_cents: c.paidCents, payment_state: c.paidCents > 0 ? "paid" : "unpaid" };
}

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "holdrule");
  pool = testPool(db.url, 2);
  await migrateReadModels(pool);
  const cols = bookingColumns.map((c) => `"${c}"`).join(", ");
  await pool.query(`INSERT INTO bookings (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::bookings, $1::jsonb)`, [
    JSON.stringify([...cases.map(row), ...moves.map(moveRow)]),
  ]);
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

// Requests to move a booking (issue 17), on expert e2's calendar: every status × paid or not × no
// request, or one whose new time and current start are each past, now or ahead.
const ahead = "2030-01-06T10:00:00.000Z";
const past = "2030-01-06T08:00:00.000Z";
const moves = BookingStatus.options.flatMap((status) =>
  [0, 15_000].flatMap((paidCents) =>
    [null, past, NOW, ahead].flatMap((rescheduleTo) =>
      [past, NOW, ahead].map((scheduledTime) => ({
        id: `move-${status}-${paidCents}-${rescheduleTo ?? "none"}-${scheduledTime}`,
        status,
        paidCents,
        rescheduleTo,
        scheduledTime,
      })),
    ),
  ),
);
function moveRow(m: (typeof moves)[number]): BookingRow {
  const base = row({ id: m.id, status: m.status, heldUntil: "2030-01-06T09:01:00.000Z", paidCents: m.paidCents, priceCents: 15_000 }); // no hold has run out: the sweeper's list stays e1's
  return {
    ...base,
    expert_id: "e2",
    creator_id: "u-c2",
    scheduled_time: m.scheduledTime,
    reschedule_to: m.rescheduleTo,
    reschedule_requested_at: m.rescheduleTo && past,
  };
}
/** The same bookings in the engine's calendar state. */
function engineState() {
  const state = calendarDecider.initialState();
  const bookings = new Map(
    moves.map((m) => {
      const r = moveRow(m);
      const b = {
        bookingId: r.booking_id,
        status: r.status,
        creatorId: r.creator_id,
        expertUserId: r.expert_user_id,
        sessionId: r.session_id,
        sessionTitle: r.session_title,
        scheduledTime: r.scheduled_time,
        lengthMinutes: r.length_minutes,
        priceCents: r.price_cents,
        currency: "USD" as const,
        heldUntil: r.held_until,
        prepQuestionCount: 0,
        paidCents: r.paid_cents,
        paymentIds: [],
        owedCents: 0,
        refundedCents: 0,
        refundKeys: [],
        hasNotes: false,
        rescheduleTo: r.reschedule_to,
        joinLink: null,
        instantBooking: r.instant_booking,
        respondBy: r.respond_by,
        meetingRoom: r.meeting_room,
        fullRefundHours: 24,
        rescheduleHours: 24,
        noShow: null,
        disputes: {},
      };
      return [b.bookingId, b] as const;
    }),
  );
  return { ...state, bookings };
}

const matching = async (fragment: string) =>
  new Set(
    (await pool.query<{ booking_id: string }>(`SELECT b.booking_id FROM bookings b WHERE ${fragment}`, [NOW])).rows.map(
      (r) => r.booking_id,
    ),
  );
const facts = (c: (typeof cases)[number]) => ({
  status: c.status,
  heldUntil: c.heldUntil,
  paidCents: c.paidCents,
  priceCents: c.priceCents,
});

describe("the hold rule in SQL says what the engine says", () => {
  it(`holdExpiredSql = holdExpired on all ${cases.length} cases`, async () => {
    const inSql = await matching(holdExpiredSql("$1"));
    expect(cases.filter((c) => inSql.has(c.id) !== holdExpired(facts(c), NOW)).map((c) => c.id)).toEqual([]);
    expect(inSql.size).toBeGreaterThan(0);
  });

  it(`blocksTimeSql = blocksTime on all ${cases.length} cases`, async () => {
    const inSql = await matching(blocksTimeSql("$1"));
    expect(cases.filter((c) => inSql.has(c.id) !== blocksTime(facts(c), NOW)).map((c) => c.id)).toEqual([]);
    expect(inSql.size).toBeGreaterThan(0);
  });

  it("the sweeper's and the schedule's reads use them", async () => {
    expect((await expiredHolds(pool, NOW)).map((r) => r.booking_id).sort()).toEqual(
      cases
        .filter((c) => holdExpired(facts(c), NOW))
        .map((c) => c.id)
        .sort(),
    );
    expect((await bookedPeriods(pool, "e1", NOW)).length).toBe(cases.filter((c) => blocksTime(facts(c), NOW)).length);
  });

  it("a booking read back has the Row's shape: cents as numbers, times as ISO strings", async () => {
    const found = await findBooking(pool, "pending-part-after");
    expect(found).toMatchObject({ price_cents: 15_000, paid_cents: 5_000, held_until: "2030-01-06T09:01:00.000Z", stream_version: 1 });
    const {
      creator_first_name: _a,
      creator_last_name: _b,
      expert_first_name: _c,
      expert_last_name: _d,
      expert_image: _e,
      ...record
    } = found!;
    expect(BookingRecord.parse(record)).toEqual(record);
  });
});

describe("requests to move a booking in SQL say what the engine says (issue 17)", () => {
  it(`openRescheduleSql = openReschedule on all ${moves.length} cases`, async () => {
    const inSql = await matching(`b.expert_id = 'e2' AND ${openRescheduleSql("$1")}`);
    expect(moves.filter((m) => inSql.has(m.id) !== (openReschedule(m, NOW) !== null)).map((m) => m.id)).toEqual([]);
    expect(inSql.size).toBeGreaterThan(0);
  });

  it("the schedule's booked periods are the engine's busy periods: bookings that hold their time and the times open requests hold", async () => {
    const sorted = (list: { start: string; lengthMinutes: number }[]) => list.map((p) => `${p.start}/${p.lengthMinutes}`).sort();
    const notOver = (p: { start: string; lengthMinutes: number }) => Date.parse(p.start) + p.lengthMinutes * 60_000 > Date.parse(NOW);
    const booked = (await bookedPeriods(pool, "e2", NOW)).map((p) => ({ start: p.scheduled_time, lengthMinutes: p.length_minutes }));
    expect(sorted(booked)).toEqual(sorted(busyPeriods(engineState(), NOW).filter(notOver)));
    expect(booked.some((p) => p.start === ahead)).toBe(true);
  });

  it("a creator's booking facts carry the time an open request holds", async () => {
    const facts = await creatorBookingFacts(pool, "u-c2", past);
    expect(facts.find((f) => f.bookingId === `move-confirmed-15000-${ahead}-${ahead}`)).toMatchObject({
      scheduledTime: ahead,
      rescheduleTo: ahead,
    });
  });
});
