import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { blocksTime, holdExpired } from "@booking/engine";
import { BookingRecord, BookingStatus, type CalendarEvent, type StoredEvent } from "@booking/contracts";
import { blocksTimeSql, bookedPeriods, bookingColumns, evolveBooking, expiredHolds, findBooking, holdExpiredSql, migrateReadModels, type BookingRow } from "../src/index.ts";

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
  const event: CalendarEvent = { type: "BookingRequested", data: {
    bookingId: c.id, expertId: "e1", expertUserId: "u-e1", creatorId: "u-c1", sessionId: "s1", sessionTitle: "Review", priceCents: c.priceCents, lengthMinutes: 30,
    prepQuestions: [], scheduledTime: "2030-02-01T10:00:00.000Z", heldUntil: c.heldUntil,
  } };
  const stored: StoredEvent = { eventId: c.id, streamId: "calendar-e1", version: 1, position: { commit: 1n, prepare: 1n }, type: event.type, schemaVersion: 1, data: event.data, metadata: { at: NOW }, recordedAt: NOW };
  const requested = evolveBooking(undefined, { event, stored })!;
  return { ...requested, status: c.status, paid_cents: c.paidCents, payment_state: c.paidCents > 0 ? "paid" : "unpaid" };
}

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"), "holdrule");
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await migrateReadModels(pool);
  const cols = bookingColumns.map((c) => `"${c}"`).join(", ");
  await pool.query(`INSERT INTO bookings (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::bookings, $1::jsonb)`, [JSON.stringify(cases.map(row))]);
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

const matching = async (fragment: string) => new Set((await pool.query<{ booking_id: string }>(`SELECT b.booking_id FROM bookings b WHERE ${fragment}`, [NOW])).rows.map((r) => r.booking_id));
const facts = (c: (typeof cases)[number]) => ({ status: c.status, heldUntil: c.heldUntil, paidCents: c.paidCents, priceCents: c.priceCents });

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
    expect((await expiredHolds(pool, NOW)).map((r) => r.booking_id).sort()).toEqual(cases.filter((c) => holdExpired(facts(c), NOW)).map((c) => c.id).sort());
    expect((await bookedPeriods(pool, "e1", NOW)).length).toBe(cases.filter((c) => blocksTime(facts(c), NOW)).length);
  });

  it("a booking read back has the Row's shape: cents as numbers, times as ISO strings", async () => {
    const found = await findBooking(pool, "pending-part-after");
    expect(found).toMatchObject({ price_cents: 15_000, paid_cents: 5_000, held_until: "2030-01-06T09:01:00.000Z", stream_version: 1 });
    const { creator_first_name: _a, creator_last_name: _b, expert_first_name: _c, expert_last_name: _d, expert_image: _e, ...record } = found!;
    expect(BookingRecord.parse(record)).toEqual(record);
  });
});
