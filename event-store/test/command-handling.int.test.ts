import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { comparePositions, refusalMessage, type CalendarCommand, type CalendarEvent } from "@booking/contracts";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { calendarDecider, calendarStream, type CalendarState } from "@booking/engine";
import { CommandHandler } from "../src/commands/command-handler.ts";
import { PostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import type { EventStore } from "../src/port.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

const NOW = "2026-03-02T08:00:00.000Z";
const clock = () => NOW;
const schedule = { timezone: "Europe/London", slots: [{ weekday: "tuesday" as const, start_local: "09:00", end_local: "17:00" }] };
const session = (lengthMinutes: 30 | 90) => ({
  sessionId: `s${lengthMinutes}`,
  title: `${lengthMinutes} minutes`,
  lengthMinutes,
  priceCents: 10_000,
  published: true,
  prepQuestions: ["Why?"],
});

let db: TestDatabase;
const stores: PostgresEventStore[] = [];
let handlers: CommandHandler<CalendarCommand, CalendarEvent, CalendarState>[];

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "cmd");
  // Five stores with their own pools and five handlers with their own caches: five processes, in effect.
  for (let i = 0; i < 5; i++) stores.push(await PostgresEventStore.connect(db.url, { poolSize: 6 }));
  handlers = stores.map((s) => new CommandHandler(s as EventStore, calendarDecider, { clock }));
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await db.drop();
});

async function newExpert(): Promise<string> {
  const expertId = randomUUID();
  const r = await handlers[0]!.handle(calendarStream(expertId), {
    type: "SetSchedule",
    expertId,
    actor: { userId: `u-${expertId}`, role: "expert" },
    schedule,
  });
  expect(r.ok).toBe(true);
  return expertId;
}

const request = (expertId: string, lengthMinutes: 30 | 90, scheduledTime: string, creator = `c-${randomUUID()}`): CalendarCommand => ({
  type: "RequestBooking",
  expertId,
  bookingId: randomUUID(),
  actor: { userId: creator, role: "creator" },
  scheduledTime,
  session: { ...session(lengthMinutes), expertId },
  expertUserId: `u-${expertId}`,
  expertVetting: "approved",
  creatorAcceptedTerms: true,
  creatorBookings: [],
  holdMinutes: 15,
});

describe("command handling on the Postgres store", () => {
  it("50 concurrent requests for overlapping times: exactly one is accepted, over 20 rounds", async () => {
    // Every request covers Tuesday 10:30-11:00 London: a 90-minute session at 10:00 or 10:30, or a 30-minute one at 10:30.
    const shapes: [30 | 90, string][] = [
      [90, "2026-03-03T10:00:00.000Z"],
      [30, "2026-03-03T10:30:00.000Z"],
      [90, "2026-03-03T10:30:00.000Z"],
    ];
    for (let round = 0; round < 20; round++) {
      const expertId = await newExpert();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const [length, time] = shapes[i % shapes.length]!;
          return handlers[i % handlers.length]!.handle(calendarStream(expertId), request(expertId, length, time));
        }),
      );
      const accepted = results.filter((r) => r.ok);
      const refused = results.flatMap((r) => (r.ok ? [] : [r.refusal]));
      expect(accepted, `round ${round}`).toHaveLength(1);
      expect(refused).toHaveLength(49);
      for (const r of refused) expect(refusalMessage(r)).toBe("That time slot is no longer available. Please pick another.");
      const stored = await stores[0]!.readStream(calendarStream(expertId));
      expect(stored.events.filter((e) => e.type === "BookingRequested")).toHaveLength(1);
    }
  });

  it("concurrent requests for different times all succeed: a version conflict is retried on fresh state", async () => {
    const expertId = await newExpert();
    const times = Array.from({ length: 14 }, (_, i) => new Date(Date.parse("2026-03-03T09:00:00.000Z") + i * 30 * 60_000).toISOString());
    const results = await Promise.all(
      times.map((t, i) => handlers[i % handlers.length]!.handle(calendarStream(expertId), request(expertId, 30, t))),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await stores[0]!.readStream(calendarStream(expertId))).version).toBe(1 + times.length);
  });

  it("a command repeated with the same idempotency key returns the first result and writes nothing", async () => {
    const expertId = await newExpert();
    const command = request(expertId, 30, "2026-03-03T13:00:00.000Z");
    const first = await handlers[1]!.handle(calendarStream(expertId), command, { idempotencyKey: "booking-form-123" });
    // Another process, a different cache: the key lives in the stream, not in memory.
    const again = await handlers[2]!.handle(calendarStream(expertId), command, { idempotencyKey: "booking-form-123" });
    expect(first.ok && again.ok).toBe(true);
    if (!first.ok || !again.ok) return;
    expect(again.value.replayed).toBe(true);
    expect(again.value.events.map((e) => e.eventId)).toEqual(first.value.events.map((e) => e.eventId));
    expect(again.value.position).toEqual(first.value.position);
    expect((await stores[0]!.readStream(calendarStream(expertId))).version).toBe(2);
    const withoutKey = await handlers[2]!.handle(calendarStream(expertId), command);
    expect(withoutKey.ok ? "accepted" : withoutKey.refusal.code).toBe("booking_already_exists");
  });

  it("returns the events written, the stream version and their place in the global log", async () => {
    const expertId = await newExpert();
    const r = await handlers[0]!.handle(calendarStream(expertId), request(expertId, 90, "2026-03-03T14:00:00.000Z"), {
      actor: { userId: "c9", role: "creator" },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.version).toBe(2);
    expect(r.value.events.map((e) => e.type)).toEqual(["BookingRequested"]);
    expect(r.value.events[0]!.metadata).toMatchObject({ at: NOW, actor: { userId: "c9", role: "creator" } });
    // Catch-up readers see it once no older transaction (of any database on the server) is open.
    await vi.waitFor(async () => {
      const head = await stores[0]!.headPosition();
      expect(head !== null && comparePositions(r.value.position!, head) <= 0).toBe(true);
    });
  });

  it("a refused command writes nothing", async () => {
    const expertId = await newExpert();
    const r = await handlers[0]!.handle(calendarStream(expertId), request(expertId, 30, "2026-03-03T07:00:00.000Z"));
    expect(r.ok ? "accepted" : r.refusal.code).toBe("slot_unavailable");
    expect((await stores[0]!.readStream(calendarStream(expertId))).version).toBe(1);
  });

  it("a warm handler reads only the events after its cached version", async () => {
    const expertId = await newExpert();
    const reads: number[] = [];
    const counting: EventStore = Object.assign(Object.create(stores[3]!), {
      readStream: async (id: string, o?: { afterVersion?: number }) => {
        const r = await stores[3]!.readStream(id, o);
        reads.push(r.events.length);
        return r;
      },
    });
    const handler = new CommandHandler(counting, calendarDecider, { clock });
    for (let i = 0; i < 10; i++) {
      const r = await handler.handle(
        calendarStream(expertId),
        request(expertId, 30, new Date(Date.parse("2026-03-03T09:00:00.000Z") + i * 30 * 60_000).toISOString()),
      );
      expect(r.ok).toBe(true);
    }
    // The first command folds the stream once; every later one decides on what it wrote last.
    expect(reads).toEqual([1]);
  });

  it("a handler whose memory is stale is corrected by the append's version check, not by luck", async () => {
    const expertId = await newExpert();
    const [a, b] = [handlers[3]!, handlers[4]!];
    // a holds the stream in memory; b (another process) then takes 10:00.
    expect((await a.handle(calendarStream(expertId), request(expertId, 30, "2026-03-03T09:00:00.000Z"))).ok).toBe(true);
    expect((await b.handle(calendarStream(expertId), request(expertId, 30, "2026-03-03T10:00:00.000Z"))).ok).toBe(true);
    const late = await a.handle(calendarStream(expertId), request(expertId, 30, "2026-03-03T10:00:00.000Z"));
    expect(late.ok ? "accepted" : late.refusal.code).toBe("slot_unavailable");
    const stored = await stores[0]!.readStream(calendarStream(expertId));
    expect(stored.events.filter((e) => e.type === "BookingRequested")).toHaveLength(2);
  });

  it("a refusal is never answered from memory alone: a slot freed by another process can be booked", async () => {
    const expertId = await newExpert();
    const [a, b] = [handlers[3]!, handlers[4]!];
    const first = request(expertId, 30, "2026-03-03T11:00:00.000Z");
    expect((await a.handle(calendarStream(expertId), first)).ok).toBe(true);
    // b cancels it; a's memory still shows 11:00 taken.
    const cancelled = await b.handle(calendarStream(expertId), {
      type: "CancelBooking",
      expertId,
      bookingId: (first as { bookingId: string }).bookingId,
      actor: first.actor,
      reason: "",
    });
    expect(cancelled.ok).toBe(true);
    const again = await a.handle(calendarStream(expertId), request(expertId, 30, "2026-03-03T11:00:00.000Z"));
    expect(again.ok ? "accepted" : again.refusal.code).toBe("accepted");
  });
});
