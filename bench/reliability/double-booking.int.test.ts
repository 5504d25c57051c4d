import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusalMessage, type CalendarCommand, type CalendarEvent } from "@booking/contracts";
import { calendarDecider, calendarStream, type CalendarState } from "@booking/engine";
import { CommandHandler, PostgresEventStore } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { elapsed, printFigure } from "./figure.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// A double-booking race, 1,000 rounds: in each, a fresh expert gets 8 concurrent requests whose
// times all overlap (60 minutes at 10:00 or 10:30, 30 minutes at 10:30), sent through five
// command handlers with their own pools and caches (five API processes, in effect). Exactly one
// may win. Four rounds run at once on different experts, so the store sees 32 racing requests.

const ROUNDS = 1000;
const PER_ROUND = 8;
const AT_ONCE = 4;
const NOW = "2026-03-02T08:00:00.000Z";
const schedule = { timezone: "Europe/London", slots: [{ weekday: "tuesday" as const, start_local: "09:00", end_local: "17:00" }] };
const SHAPES: [30 | 60, string][] = [
  [60, "2026-03-03T10:00:00.000Z"],
  [30, "2026-03-03T10:30:00.000Z"],
  [60, "2026-03-03T10:30:00.000Z"],
];

let db: TestDatabase;
const stores: PostgresEventStore[] = [];
let handlers: CommandHandler<CalendarCommand, CalendarEvent, CalendarState>[];

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "rel_race");
  for (let i = 0; i < 5; i++) stores.push(await PostgresEventStore.connect(db.url, { poolSize: 6 }));
  handlers = stores.map((s) => new CommandHandler(s, calendarDecider, { clock: () => NOW }));
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await db?.drop();
});

const request = (expertId: string, [lengthMinutes, scheduledTime]: [30 | 60, string]): CalendarCommand => ({
  type: "RequestBooking",
  expertId,
  bookingId: randomUUID(),
  actor: { userId: `c-${randomUUID().slice(0, 8)}`, role: "creator" },
  scheduledTime,
  session: {
    sessionId: `s${lengthMinutes}`,
    expertId,
    title: `${lengthMinutes} minutes`,
    lengthMinutes,
    priceCents: 10_000,
    published: true,
    prepQuestions: ["Why?"],
  },
  expertUserId: `u-${expertId}`,
  expertVetting: "approved",
  creatorAcceptedTerms: true,
  creatorBookings: [],
  holdMinutes: 15,
});

describe("double booking under a race", () => {
  it(`${ROUNDS} rounds of ${PER_ROUND} overlapping requests through five handlers: exactly one booking per round`, async () => {
    const t0 = performance.now();
    const refusals = new Map<string, number>();
    const badRounds: string[] = [];
    let accepted = 0;
    let next = 0;
    const round = async () => {
      const r = next++;
      const expertId = `race-${r}-${randomUUID().slice(0, 8)}`;
      const set = await handlers[r % handlers.length]!.handle(calendarStream(expertId), {
        type: "SetSchedule",
        expertId,
        actor: { userId: `u-${expertId}`, role: "expert" },
        schedule,
      });
      if (!set.ok) throw new Error(`schedule refused: ${set.refusal.code}`);
      const results = await Promise.all(
        Array.from({ length: PER_ROUND }, (_, i) =>
          handlers[(r + i) % handlers.length]!.handle(calendarStream(expertId), request(expertId, SHAPES[i % SHAPES.length]!)),
        ),
      );
      const won = results.filter((x) => x.ok).length;
      accepted += won;
      for (const x of results)
        if (!x.ok)
          refusals.set(
            `${x.refusal.code}: ${refusalMessage(x.refusal)}`,
            (refusals.get(`${x.refusal.code}: ${refusalMessage(x.refusal)}`) ?? 0) + 1,
          );
      const stored = (await stores[0]!.readStream(calendarStream(expertId))).events.filter((e) => e.type === "BookingRequested").length;
      if (won !== 1 || stored !== 1) badRounds.push(`round ${r}: ${won} accepted, ${stored} stored`);
    };
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < ROUNDS) await round();
      }),
    );
    printFigure("double-booking race", {
      rounds: ROUNDS,
      requests: ROUNDS * PER_ROUND,
      accepted,
      "double bookings (rounds with more than one accepted or stored)": badRounds.filter((b) => !b.includes(": 0 accepted")).length,
      "rounds with no booking": badRounds.filter((b) => b.includes(": 0 accepted")).length,
      refusals: Object.fromEntries(refusals),
      time: elapsed(t0),
    });
    expect(badRounds).toEqual([]);
    expect(accepted).toBe(ROUNDS);
    expect([...refusals.keys()]).toEqual(["slot_unavailable: That time slot is no longer available. Please pick another."]);
  });
});
