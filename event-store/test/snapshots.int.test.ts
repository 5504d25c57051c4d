import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CalendarCommand, CalendarEvent } from "@booking/contracts";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { calendarDecider, calendarSnapshots, calendarStream, encodeLeftOut, nothingLeftOut, type CalendarState } from "@booking/engine";
import { CommandHandler } from "../src/commands/command-handler.ts";
import { PostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import type { EventStore, NewEvent } from "../src/port.ts";
import { PostgresSnapshotStore } from "../src/snapshots/postgres-snapshot-store.ts";
import { InMemorySnapshotStore, type SnapshotStore } from "../src/snapshots/snapshot-store.ts";
import { snapshotStoreContract } from "./snapshot-store-contract.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Cold loads from snapshots: a handler that starts from a calendar's snapshot (its open bookings)
// and the events after it decides as one that folds the whole stream, reads only that tail, and
// turns to the whole stream for a command about a closed booking or an answered idempotency key.

const NOW = "2026-03-02T08:00:00.000Z";
const clock = () => NOW;
const TUESDAY_10 = "2026-03-03T10:00:00.000Z";
const schedule = { timezone: "Europe/London", slots: [{ weekday: "tuesday" as const, start_local: "09:00", end_local: "17:00" }] };
const session = { sessionId: "s60", title: "An hour", lengthMinutes: 60 as const, priceCents: 10_000, published: true, prepQuestions: [] };
const expertActor = (expertId: string) => ({ userId: `u-${expertId}`, role: "expert" as const });

type Calendar = CommandHandler<CalendarCommand, CalendarEvent, CalendarState>;

let db: TestDatabase;
let store: PostgresEventStore;
let snapshots: PostgresSnapshotStore;

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "snap");
  store = await PostgresEventStore.connect(db.url, { poolSize: 8 });
  snapshots = await PostgresSnapshotStore.connect(store.pool);
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

snapshotStoreContract("postgres", () => snapshots);
snapshotStoreContract("in memory", () => new InMemorySnapshotStore());

/** Counts the events a handler reads: a cold load from a snapshot reads only the tail. */
function counting(inner: EventStore): { store: EventStore; read: number[] } {
  const read: number[] = [];
  const store: EventStore = Object.assign(Object.create(inner) as EventStore, {
    readStream: async (id: string, o?: { afterVersion?: number }) => {
      const r = await inner.readStream(id, o);
      read.push(r.events.length);
      return r;
    },
  });
  return { store, read };
}

const withSnapshots = (s: EventStore = store, snapshotStore: SnapshotStore = snapshots, onError?: (e: unknown) => void): Calendar =>
  new CommandHandler(s, calendarDecider, {
    clock,
    snapshots: { store: snapshotStore, codec: calendarSnapshots, every: 50, ...(onError && { onError }) },
  });
const withoutSnapshots = (s: EventStore = store): Calendar => new CommandHandler(s, calendarDecider, { clock });

/**
 * A calendar with `past` bookings completed in 2025 (long closed), each paid under an idempotency
 * key, and one confirmed booking on Tuesday 10:00, written straight to the store.
 */
async function longCalendar(past: number): Promise<{ expertId: string; closedId: string; openId: string }> {
  const expertId = randomUUID();
  const metadata = { at: "2025-01-01T00:00:00.000Z" };
  const booking = (bookingId: string, scheduledTime: string): NewEvent[] => [
    {
      type: "BookingRequested",
      data: {
        bookingId,
        expertId,
        expertUserId: `u-${expertId}`,
        creatorId: "c-past",
        sessionId: "s60",
        sessionTitle: "An hour",
        lengthMinutes: 60,
        priceCents: 10_000,
        prepQuestions: [],
        scheduledTime,
        heldUntil: scheduledTime,
      },
      metadata,
    },
    {
      type: "PaymentSucceeded",
      data: { bookingId, paymentId: `pi-${bookingId}`, amountCents: 10_000, provider: "test" },
      metadata: { ...metadata, idempotencyKey: `payment-pi-${bookingId}` },
    },
    { type: "Confirmed", data: { bookingId, by: "expert" }, metadata },
  ];
  const events: NewEvent[] = [{ type: "ScheduleSet", data: { expertId, ...schedule }, metadata }];
  for (let i = 0; i < past; i++) {
    const bookingId = `${expertId}-past-${i}`;
    events.push(...booking(bookingId, new Date(Date.parse("2025-01-07T10:00:00.000Z") + i * 3_600_000).toISOString()), {
      type: "Completed",
      data: { bookingId },
      metadata,
    });
  }
  const openId = `${expertId}-open`;
  events.push(...booking(openId, TUESDAY_10));
  for (let i = 0; i < events.length; i += 500)
    await store.append(calendarStream(expertId), events.slice(i, i + 500), i === 0 ? "no_stream" : i);
  return { expertId, closedId: `${expertId}-past-0`, openId };
}

const request = (expertId: string, scheduledTime: string, bookingId: string = randomUUID()): CalendarCommand => ({
  type: "RequestBooking",
  expertId,
  bookingId,
  actor: { userId: `c-${randomUUID()}`, role: "creator" },
  scheduledTime,
  session: { ...session, expertId },
  expertUserId: `u-${expertId}`,
  expertVetting: "approved",
  creatorAcceptedTerms: true,
  creatorBookings: [],
  holdMinutes: 15,
});

/** A snapshot written by a handler that folded the whole calendar (as after a deploy). */
async function snapshotted(expertId: string): Promise<void> {
  const writer = withSnapshots();
  await writer.load(calendarStream(expertId));
  await writer.snapshotsWritten();
  expect(await snapshots.read(calendarStream(expertId), `handler-1/${calendarSnapshots.shape}`)).not.toBeNull();
}

const outcome = (r: Awaited<ReturnType<Calendar["handle"]>>) =>
  r.ok ? { types: r.value.events.map((e) => e.type), replayed: r.value.replayed } : r.refusal.code;

describe("command handling from snapshots", () => {
  it("a cold handler from a snapshot reads only the events after it and decides as one that folded everything", async () => {
    // Two calendars alike: one decided on from its snapshot, the other folded whole.
    const a = await longCalendar(300);
    const b = await longCalendar(300);
    await snapshotted(a.expertId);
    const tail = "2026-03-03T13:00:00.000Z";
    await withoutSnapshots().handle(calendarStream(a.expertId), request(a.expertId, tail));
    await withoutSnapshots().handle(calendarStream(b.expertId), request(b.expertId, tail));

    const { store: countingStore, read } = counting(store);
    const cold = withSnapshots(countingStore);
    const whole = withoutSnapshots();
    const script = (c: { expertId: string; closedId: string; openId: string }): [CalendarCommand, { idempotencyKey?: string }][] => [
      [request(c.expertId, TUESDAY_10), {}], // the open booking's time
      [request(c.expertId, tail), {}], // booked after the snapshot
      [request(c.expertId, "2026-03-03T15:00:00.000Z"), {}],
      [request(c.expertId, "2026-03-03T16:00:00.000Z", c.closedId), {}], // a closed booking's id
      [
        {
          type: "AddNotes",
          expertId: c.expertId,
          bookingId: c.closedId,
          actor: expertActor(c.expertId),
          notes: { summary: "Late notes", recap: "", takeaways: [], suggestedActions: [] },
        },
        {},
      ],
      [{ type: "CancelBooking", expertId: c.expertId, bookingId: c.closedId, actor: expertActor(c.expertId), reason: "" }, {}],
      [
        {
          type: "RecordPayment",
          expertId: c.expertId,
          bookingId: c.closedId,
          actor: { userId: "payments", role: "system" },
          paymentId: `pi-${c.closedId}`,
          amountCents: 10_000,
          provider: "test",
        },
        { idempotencyKey: `payment-pi-${c.closedId}` },
      ],
      [{ type: "CancelBooking", expertId: c.expertId, bookingId: c.openId, actor: expertActor(c.expertId), reason: "" }, {}],
    ];
    const fromSnapshot = [];
    for (const [command, meta] of script(a)) fromSnapshot.push(outcome(await cold.handle(calendarStream(a.expertId), command, meta)));
    const fromWhole = [];
    for (const [command, meta] of script(b)) fromWhole.push(outcome(await whole.handle(calendarStream(b.expertId), command, meta)));
    expect(fromSnapshot).toEqual(fromWhole);
    expect(fromSnapshot.slice(0, 4)).toEqual([
      "slot_unavailable",
      "slot_unavailable",
      { types: ["BookingRequested"], replayed: false },
      "booking_already_exists",
    ]);
    expect(fromSnapshot[6]).toMatchObject({ replayed: true });
    // Loads read the events after the snapshot (1, then 3), not 1,200; the four commands about the
    // closed booking each read the whole stream once, and the whole stream is not kept: the next
    // command starts from the snapshot again. (Reads of nothing: a refusal from memory checked against the store.)
    expect(read.filter((n) => n > 0)).toEqual([1, 1206, 1206, 3, 1207, 1207]);
  });

  it("a query about a command (a cancellation's preview) gets the whole state when the snapshot may lack what the command is about", async () => {
    const c = await longCalendar(60);
    await snapshotted(c.expertId);
    const cancelClosed: CalendarCommand = {
      type: "CancelBooking",
      expertId: c.expertId,
      bookingId: c.closedId,
      actor: expertActor(c.expertId),
      reason: "",
    };
    expect((await withSnapshots().load(calendarStream(c.expertId))).state.bookings.has(c.closedId)).toBe(false);
    const about = await withSnapshots().load(calendarStream(c.expertId), { about: cancelClosed });
    expect(about.state.bookings.get(c.closedId)?.status).toBe("completed");
    // The open booking is in the snapshot: asking about it reads no more than the tail.
    const { store: countingStore, read } = counting(store);
    const cancelOpen: CalendarCommand = { ...cancelClosed, bookingId: c.openId };
    expect((await withSnapshots(countingStore).load(calendarStream(c.expertId), { about: cancelOpen })).state.bookings.has(c.openId)).toBe(
      true,
    );
    expect(read).toEqual([0]);
  });

  it("a snapshot older than the stream is caught up: a time booked after it is taken", async () => {
    const c = await longCalendar(100);
    await snapshotted(c.expertId);
    const later = "2026-03-03T14:00:00.000Z";
    expect((await withoutSnapshots().handle(calendarStream(c.expertId), request(c.expertId, later))).ok).toBe(true);
    const r = await withSnapshots().handle(calendarStream(c.expertId), request(c.expertId, later));
    expect(outcome(r)).toBe("slot_unavailable");
  });

  it("a snapshot of another shape is ignored, and an unreadable one costs the whole fold, not a wrong decision", async () => {
    const c = await longCalendar(20);
    const stream = calendarStream(c.expertId);
    const version = (await store.readStream(stream)).version;
    // A readable calendar without bookings at the head: believed, it would let Tuesday 10:00 be booked twice.
    const none = encodeLeftOut(nothingLeftOut());
    const empty = {
      decider: {
        expertId: c.expertId,
        schedule,
        timeOff: [],
        dateOverrides: [],
        rules: { bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minNoticeHours: 0 },
        bookings: [],
        leftOut: none,
      },
      keysLeftOut: none,
    };
    await snapshots.write({ streamId: stream, version, shape: "handler-1/calendar-0:old", state: empty });
    expect(outcome(await withSnapshots().handle(stream, request(c.expertId, TUESDAY_10)))).toBe("slot_unavailable");
    await snapshots.write({
      streamId: stream,
      version: version + 1,
      shape: `handler-1/${calendarSnapshots.shape}`,
      state: { decider: { bookings: "not a list" } },
    });
    const errors: unknown[] = [];
    expect(outcome(await withSnapshots(store, snapshots, (e) => errors.push(e)).handle(stream, request(c.expertId, TUESDAY_10)))).toBe(
      "slot_unavailable",
    );
    expect(errors).toHaveLength(1);
    // One of this shape ahead of its stream (a database restored from an older backup) is not believed either.
    await snapshots.write({ streamId: stream, version: version + 100, shape: `handler-1/${calendarSnapshots.shape}`, state: empty });
    expect(outcome(await withSnapshots().handle(stream, request(c.expertId, TUESDAY_10)))).toBe("slot_unavailable");
  });

  it("snapshots are written off the command's path once a stream has grown by `every` events", async () => {
    // A snapshot store that holds every write until released: the command's answer must not wait for it.
    const memory = new InMemorySnapshotStore();
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const slow: SnapshotStore = {
      read: (id, shape) => memory.read(id, shape),
      write: async (s) => (await held, memory.write(s)),
      forgetMentioning: (id) => memory.forgetMentioning(id),
      close: async () => {},
    };
    const c = await longCalendar(30);
    const handler = withSnapshots(store, slow);
    expect((await handler.handle(calendarStream(c.expertId), request(c.expertId, "2026-03-03T15:00:00.000Z"))).ok).toBe(true);
    expect(memory.writes).toBe(0);
    release();
    await handler.snapshotsWritten();
    const snapshot = await memory.read(calendarStream(c.expertId), `handler-1/${calendarSnapshots.shape}`);
    // Written from the cold load's fold (121 events, over `every`), before the request was appended.
    expect(snapshot?.version).toBe((await store.readStream(calendarStream(c.expertId))).version - 1);
    // The 30 closed bookings are left out, the open one is kept.
    expect((snapshot!.state as { decider: { bookings: unknown[] } }).decider.bookings).toHaveLength(1);
  });

  it("a process that folded a whole calendar keeps only its open part once the snapshot is written", async () => {
    const c = await longCalendar(300);
    const { store: countingStore, read } = counting(store);
    const handler = withSnapshots(countingStore);
    await handler.load(calendarStream(c.expertId));
    await handler.snapshotsWritten();
    expect(outcome(await handler.handle(calendarStream(c.expertId), request(c.expertId, "2026-03-03T15:00:00.000Z")))).toMatchObject({
      types: ["BookingRequested"],
    });
    // Notes on a closed booking: no longer in memory, so the whole stream is read for it.
    const notes: CalendarCommand = {
      type: "AddNotes",
      expertId: c.expertId,
      bookingId: c.closedId,
      actor: expertActor(c.expertId),
      notes: { summary: "Late notes", recap: "", takeaways: [], suggestedActions: [] },
    };
    expect(outcome(await handler.handle(calendarStream(c.expertId), notes))).toMatchObject({ types: ["NotesAdded"] });
    expect(read).toEqual([1204, 1205]);
  });

  it("50 concurrent requests for one time on a long calendar, five cold processes from its snapshot: exactly one is accepted, over 5 rounds", async () => {
    for (let round = 0; round < 5; round++) {
      const c = await longCalendar(200);
      await snapshotted(c.expertId);
      const stores = await Promise.all(Array.from({ length: 5 }, () => PostgresEventStore.connect(db.url, { poolSize: 4 })));
      try {
        const handlers = stores.map((s) => withSnapshots(s));
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            handlers[i % 5]!.handle(calendarStream(c.expertId), request(c.expertId, "2026-03-03T11:00:00.000Z")),
          ),
        );
        expect(
          results.filter((r) => r.ok),
          `round ${round}`,
        ).toHaveLength(1);
        expect(new Set(results.flatMap((r) => (r.ok ? [] : [r.refusal.code])))).toEqual(new Set(["slot_unavailable"]));
        await Promise.all(handlers.map((h) => h.snapshotsWritten()));
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    }
  });
});
