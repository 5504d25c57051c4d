import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusalMessage, type Actor, type CalendarCommand, type CalendarEvent } from "@booking/contracts";
import { blocksTime, calendarDecider, calendarStream, openReschedule, type CalendarState } from "@booking/engine";
import { CommandHandler, PostgresEventStore } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { elapsed, printFigure } from "./figure.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Reschedule requests racing new bookings (issue 17), 500 rounds: in each, a fresh expert has two
// paid bookings (Tuesday 13:00 and 15:00), and 8 concurrent requests want Tuesday 10:00 or 10:30:
// both bookings' creators ask to move there while six new requests (60 minutes at 10:00 or 10:30,
// 30 at 10:30) book it, through five command handlers with their own pools and caches. An open
// request holds its new time, so exactly one of the eight may win; afterwards no two bookings'
// held times may overlap. Four rounds run at once on different experts.

const ROUNDS = 500;
const AT_ONCE = 4;
const NOW = "2026-03-02T08:00:00.000Z";
const schedule = { timezone: "Europe/London", slots: [{ weekday: "tuesday" as const, start_local: "09:00", end_local: "17:00" }] };
const MOVERS = ["2026-03-03T13:00:00.000Z", "2026-03-03T15:00:00.000Z"];
const NEW: [30 | 60, string][] = [
  [60, "2026-03-03T10:00:00.000Z"],
  [30, "2026-03-03T10:30:00.000Z"],
  [60, "2026-03-03T10:30:00.000Z"],
];
const PAYMENTS: Actor = { userId: "payments", role: "system" };

let db: TestDatabase;
const stores: PostgresEventStore[] = [];
let handlers: CommandHandler<CalendarCommand, CalendarEvent, CalendarState>[];

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "rel_move");
  for (let i = 0; i < 5; i++) stores.push(await PostgresEventStore.connect(db.url, { poolSize: 6 }));
  handlers = stores.map((s) => new CommandHandler(s, calendarDecider, { clock: () => NOW }));
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await db?.drop();
});

const session = (expertId: string, lengthMinutes: 30 | 60) => ({
  sessionId: `s${lengthMinutes}`,
  expertId,
  title: `${lengthMinutes} minutes`,
  lengthMinutes,
  priceCents: 10_000,
  published: true,
  prepQuestions: ["Why?"],
});
const request = (
  expertId: string,
  creator: Actor,
  [lengthMinutes, scheduledTime]: [30 | 60, string],
  bookingId = randomUUID(),
): CalendarCommand => ({
  type: "RequestBooking",
  expertId,
  bookingId,
  actor: creator,
  scheduledTime,
  session: session(expertId, lengthMinutes),
  expertUserId: `u-${expertId}`,
  expertVetting: "approved",
  creatorAcceptedTerms: true,
  creatorBookings: [],
  holdMinutes: 15,
});
const newCreator = (): Actor => ({ userId: `c-${randomUUID().slice(0, 8)}`, role: "creator" });

/** Every time a booking holds: its own and an open request's (those two may overlap: a move within its own slot). */
function overlapsBetweenBookings(state: CalendarState): string[] {
  const held = [...state.bookings.values()]
    .filter((b) => blocksTime(b, NOW))
    .flatMap((b) =>
      [b.scheduledTime, openReschedule(b, NOW)]
        .filter((t): t is string => t !== null)
        .map((t) => ({ id: b.bookingId, start: Date.parse(t), end: Date.parse(t) + b.lengthMinutes * 60_000 })),
    );
  return held.flatMap((a) => held.filter((b) => a.id < b.id && a.start < b.end && b.start < a.end).map((b) => `${a.id}~${b.id}`));
}

describe("reschedule requests racing new bookings", () => {
  it(`${ROUNDS} rounds: two moves and six new requests for one time through five handlers, exactly one wins and no held times overlap`, async () => {
    const t0 = performance.now();
    const refusals = new Map<string, number>();
    const badRounds: string[] = [];
    const wins = { moves: 0, bookings: 0 };
    let next = 0;
    const round = async () => {
      const r = next++;
      const expertId = `move-${r}-${randomUUID().slice(0, 8)}`;
      const handle = (i: number, c: CalendarCommand) => handlers[(r + i) % handlers.length]!.handle(calendarStream(expertId), c);
      const must = async (c: CalendarCommand) => {
        const done = await handle(0, c);
        if (!done.ok) throw new Error(`${c.type} refused: ${done.refusal.code}`);
      };
      await must({ type: "SetSchedule", expertId, actor: { userId: `u-${expertId}`, role: "expert" }, schedule });
      const movers = MOVERS.map((at) => ({ creator: newCreator(), bookingId: randomUUID(), at }));
      for (const m of movers) {
        await must(request(expertId, m.creator, [60, m.at], m.bookingId));
        await must({
          type: "RecordPayment",
          expertId,
          bookingId: m.bookingId,
          actor: PAYMENTS,
          paymentId: `pi-${m.bookingId}`,
          amountCents: 10_000,
          provider: "test",
        });
      }
      const moves = movers.map((m): CalendarCommand => ({
        type: "RequestReschedule",
        expertId,
        bookingId: m.bookingId,
        actor: m.creator,
        scheduledTime: "2026-03-03T10:00:00.000Z",
        creatorBookings: [],
      }));
      const bookings = Array.from({ length: 6 }, (_, i) => request(expertId, newCreator(), NEW[i % NEW.length]!));
      // Sent first has the edge: moves lead in even rounds, new bookings in odd ones.
      const racers = r % 2 ? [...bookings, ...moves] : [...moves, ...bookings];
      const results = await Promise.all(racers.map((c, i) => handle(i, c)));
      const won = results.filter((x) => x.ok).length;
      wins.moves += results.filter((x, i) => x.ok && racers[i]!.type === "RequestReschedule").length;
      wins.bookings += results.filter((x, i) => x.ok && racers[i]!.type === "RequestBooking").length;
      for (const x of results)
        if (!x.ok)
          refusals.set(
            `${x.refusal.code}: ${refusalMessage(x.refusal)}`,
            (refusals.get(`${x.refusal.code}: ${refusalMessage(x.refusal)}`) ?? 0) + 1,
          );
      const stored = (await stores[0]!.readStream(calendarStream(expertId))).events;
      const storedWins = stored.filter(
        (e) =>
          e.type === "RescheduleRequested" ||
          (e.type === "BookingRequested" && !movers.some((m) => m.bookingId === (e.data as { bookingId: string }).bookingId)),
      ).length;
      const state = calendarDecider.evolve(
        calendarDecider.initialState(),
        stored.map((e) => ({ type: e.type, data: e.data }) as CalendarEvent),
      );
      const overlaps = overlapsBetweenBookings(state);
      if (won !== 1 || storedWins !== 1 || overlaps.length > 0)
        badRounds.push(`round ${r}: ${won} accepted, ${storedWins} stored, overlaps ${overlaps.join(",") || "none"}`);
    };
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < ROUNDS) await round();
      }),
    );
    printFigure("reschedule race", {
      rounds: ROUNDS,
      "racing requests": ROUNDS * 8,
      "won by a move": wins.moves,
      "won by a new booking": wins.bookings,
      "rounds with more than one winner, or held times overlapping": badRounds.filter((b) => !b.includes(": 0 accepted")).length,
      "rounds with no winner": badRounds.filter((b) => b.includes(": 0 accepted")).length,
      refusals: Object.fromEntries(refusals),
      time: elapsed(t0),
    });
    expect(badRounds).toEqual([]);
    expect(wins.moves + wins.bookings).toBe(ROUNDS);
    expect(wins.moves).toBeGreaterThan(0);
    expect(wins.bookings).toBeGreaterThan(0);
    expect([...refusals.keys()].sort()).toEqual([
      "reschedule_time_taken: That time is already taken. Please pick another.",
      "slot_unavailable: That time slot is no longer available. Please pick another.",
    ]);
  });
});
