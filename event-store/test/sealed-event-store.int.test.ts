import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASED_FIRST_NAME, ERASED_LAST_NAME, ERASED_TEXT, erasedEmail, type StoredEvent } from "@booking/contracts";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";
import { calendarDecider, calendarStream } from "@booking/engine";
import { CommandHandler } from "../src/commands/command-handler.ts";
import { PostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import type { NewEvent } from "../src/port.ts";
import {
  EnvelopeError,
  InMemoryKeyRing,
  PersonalDataOwnerError,
  SealedEventStore,
  openEvents,
  openStoredEvents,
  storedLogOf,
  type EventPartySource,
} from "../src/personal-data/index.ts";

// The sealing store (issue 33.1) around the Postgres store: what an append writes to the `events` table holds no
// personal text, every read path (readStream, readAll, subscribe) gives it back in plain text, an erased owner reads as
// their markers and is never written again, an owner it cannot tell refuses the append, and an altered envelope fails
// loudly. Without the decorator (the store beneath) the table would hold the text: each test asserts on the table.

let db: TestDatabase;
let stored: PostgresEventStore;
let keys: InMemoryKeyRing;
let sealed: SealedEventStore;
const asked: { stream: string; type: string }[] = [];

const CREATOR = `c-${randomUUID()}`;
const EXPERT = `e-${randomUUID()}`;
/** A booking's parties, as the API's source reads them from its request. */
const parties: EventPartySource = {
  partiesOf: async (stream, event) => {
    asked.push({ stream, type: event.type });
    return { creator: CREATOR, expert: EXPERT };
  },
};

const at = { at: "2026-03-01T10:00:00.000Z" };
const registered = (userId: string, firstName = "Anastasia"): NewEvent => ({
  type: "UserRegistered",
  data: { userId, email: `${firstName.toLowerCase()}@example.com`, role: "creator", firstName, lastName: "Okonkwo-Lindqvist" },
  metadata: at,
});
const prep = (bookingId: string, answers = ["Reach 50k subscribers by June", "Stuck since March"]): NewEvent => ({
  type: "PrepSubmitted",
  data: { bookingId, answers },
  metadata: at,
});

/** The rows of a stream as the table holds them, as text. */
async function tableText(streamId: string): Promise<string> {
  const { rows } = await stored.pool.query<{ data: unknown }>("SELECT data FROM events WHERE stream_id = $1 ORDER BY version", [streamId]);
  return JSON.stringify(rows.map((r) => r.data));
}

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "sealed");
  stored = await PostgresEventStore.connect(db.url, { pollIntervalMs: 20 });
  keys = new InMemoryKeyRing(randomBytes(32));
  sealed = new SealedEventStore(stored, keys, parties);
});
afterAll(async () => {
  await sealed.close();
  await db.drop();
});

describe("the sealing store", () => {
  it("seals personal fields on append, keeps ids and everything not personal in clear, and answers the writer in plain text", async () => {
    const user = `u-${randomUUID()}`;
    const written = await sealed.append(`user-${user}`, [registered(user)], "no_stream");
    expect(written.events[0]!.data).toMatchObject({ firstName: "Anastasia", email: "anastasia@example.com" });
    const table = await tableText(`user-${user}`);
    for (const text of ["Anastasia", "Okonkwo", "anastasia@example.com"]) expect(table).not.toContain(text);
    expect(table).toContain(user);
    expect(table).toContain(`"pd1:${user}:`);
    expect(table).toContain('"role":"creator"');
  });

  it("opens on readStream, readAll and subscribe, beside events with nothing personal", async () => {
    const user = `u-${randomUUID()}`;
    await sealed.append(`user-${user}`, [registered(user, "Bartholomew")], "no_stream");
    await sealed.append(
      `terms-${user}`,
      [{ type: "TermsAccepted", data: { userId: user, versionId: "v1", acceptedAt: at.at }, metadata: at }],
      "no_stream",
    );
    const plain = { firstName: "Bartholomew", email: "bartholomew@example.com" };
    expect((await sealed.readStream(`user-${user}`)).events[0]!.data).toMatchObject(plain);
    const all = await sealed.readAll(null, 10_000);
    expect(all.find((e) => e.streamId === `user-${user}`)!.data).toMatchObject(plain);
    expect(all.find((e) => e.streamId === `terms-${user}`)!.data).toMatchObject({ versionId: "v1" });
    const heard: StoredEvent[] = [];
    const subscription = sealed.subscribe({ after: null, onEvents: async (batch) => void heard.push(...batch) });
    while (!heard.some((e) => e.streamId === `user-${user}`)) await new Promise((r) => setTimeout(r, 10));
    await subscription.stop();
    expect(heard.find((e) => e.streamId === `user-${user}`)!.data).toMatchObject(plain);
    // The store beneath (the relay's) and the bus see envelopes; the Kafka projector's openEvents opens them.
    const raw = (await storedLogOf(sealed).readStream(`user-${user}`)).events;
    expect(JSON.stringify(raw.map((e) => e.data))).not.toContain("Bartholomew");
    expect((await openEvents(raw, keys))[0]!.data).toMatchObject(plain);
    expect((await openStoredEvents(sealed, raw))[0]!.data).toMatchObject(plain);
  });

  it("asks the party source only for fields owned by a booking's party, with the events before it in the append", async () => {
    const bookingId = `b-${randomUUID()}`;
    asked.length = 0;
    const stream = calendarStream(EXPERT);
    await sealed.append(stream, [{ type: "Completed", data: { bookingId }, metadata: at }, prep(bookingId)], "any");
    expect(asked).toEqual([{ stream, type: "PrepSubmitted" }]);
    const table = await tableText(stream);
    expect(table).not.toContain("Reach 50k");
    expect(table).toContain(`"pd1:${CREATOR}:`);
    expect((await sealed.readStream(stream)).events.at(-1)!.data).toEqual({
      bookingId,
      answers: ["Reach 50k subscribers by June", "Stuck since March"],
    });
  });

  it("reads an erased owner's fields as their markers, and writes a new event of theirs with markers, never their text", async () => {
    const user = `u-${randomUUID()}`;
    await sealed.append(`user-${user}`, [registered(user, "Cordelia")], "no_stream");
    keys.erase(user);
    const [event] = (await sealed.readStream(`user-${user}`)).events;
    expect(event!.data).toMatchObject({ userId: user, firstName: ERASED_FIRST_NAME, lastName: ERASED_LAST_NAME, email: erasedEmail(user) });
    const renamed = await sealed.append(
      `user-${user}`,
      [{ type: "UserRenamed", data: { userId: user, firstName: "Cordelia", lastName: "Again" }, metadata: at }],
      1,
    );
    // The writer is answered as a reader would read it: the markers, not what it asked to write.
    expect(renamed.events[0]!.data).toEqual({ userId: user, firstName: ERASED_FIRST_NAME, lastName: ERASED_LAST_NAME });
    const table = await tableText(`user-${user}`);
    expect(table).not.toContain("Cordelia");
    expect(table).toContain(`"firstName":"${ERASED_FIRST_NAME}"`);
    // A booking party erased: their prep answers read as "[erased]".
    const erasedCreator = `c-${randomUUID()}`;
    const bookingId = `b-${randomUUID()}`;
    const store = new SealedEventStore(stored, keys, { partiesOf: async () => ({ creator: erasedCreator }) });
    await store.append(calendarStream(`x-${bookingId}`), [prep(bookingId)], "no_stream");
    keys.erase(erasedCreator);
    expect((await store.readStream(calendarStream(`x-${bookingId}`))).events[0]!.data).toEqual({
      bookingId,
      answers: [ERASED_TEXT, ERASED_TEXT],
    });
  });

  it("refuses an append whose field's owner it cannot tell, or whose type is declared nowhere, and stores nothing", async () => {
    const bookingId = `b-${randomUUID()}`;
    const blind = new SealedEventStore(stored, keys, { partiesOf: async () => ({}) });
    const stream = calendarStream(`blind-${bookingId}`);
    await expect(blind.append(stream, [prep(bookingId)], "no_stream")).rejects.toThrow(PersonalDataOwnerError);
    await expect(blind.append(stream, [{ type: "SomethingNew", data: { note: "who knows" }, metadata: at }], "no_stream")).rejects.toThrow(
      /no personal data declaration/,
    );
    expect((await stored.readStream(stream)).version).toBe(0);
  });

  it("reads events stored in plain text before sealing began as they are, and types it does not know untouched", async () => {
    const user = `u-${randomUUID()}`;
    await stored.append(`user-${user}`, [registered(user, "Delphine")], "no_stream");
    await stored.append(`other-${user}`, [{ type: "NotOurs", data: { note: "pd1:nobody:x" }, metadata: at }], "no_stream");
    expect((await sealed.readStream(`user-${user}`)).events[0]!.data).toMatchObject({ firstName: "Delphine" });
    expect((await sealed.readStream(`other-${user}`)).events[0]!.data).toEqual({ note: "pd1:nobody:x" });
  });

  it("fails loudly (EnvelopeError) on an envelope altered in the table, on every read path", async () => {
    const user = `u-${randomUUID()}`;
    await sealed.append(`user-${user}`, [registered(user, "Evangeline")], "no_stream");
    await stored.pool.query(
      `UPDATE events SET data = jsonb_set(data, '{lastName}', data->'firstName') WHERE stream_id = $1`, // moved to another field
      [`user-${user}`],
    );
    await expect(sealed.readStream(`user-${user}`)).rejects.toThrow(EnvelopeError);
    await expect(sealed.readAll(null, 100_000)).rejects.toThrow(/UserRegistered\.lastName/);
    await stored.pool.query("DELETE FROM events WHERE stream_id = $1", [`user-${user}`]);
  });

  it("gives a command handler plain state: it decides on what it wrote, and a cold handler on what it reads", async () => {
    const expertId = `e-${randomUUID()}`;
    const stream = calendarStream(expertId);
    const handler = new CommandHandler(sealed, calendarDecider, { clock: () => at.at });
    const bookingId = `b-${randomUUID()}`;
    await sealed.append(
      stream,
      [
        { type: "ScheduleSet", data: { expertId, timezone: "UTC", slots: [] }, metadata: at },
        {
          type: "BookingRequested",
          data: {
            bookingId,
            expertId,
            expertUserId: EXPERT,
            creatorId: CREATOR,
            sessionId: "s1",
            sessionTitle: "An hour",
            lengthMinutes: 60,
            priceCents: 10_000,
            prepQuestions: ["Your goal?"],
            scheduledTime: "2026-03-03T10:00:00.000Z",
            heldUntil: "2026-03-01T10:15:00.000Z",
          },
          metadata: at,
        },
      ],
      "no_stream",
    );
    const actor = { userId: CREATOR, role: "creator" as const };
    const r = await handler.handle(stream, { type: "SubmitPrep", expertId, bookingId, actor, answers: ["Grow on Sundays"] });
    expect(r.ok && r.value.events[0]!.data).toEqual({ bookingId, answers: ["Grow on Sundays"] });
    expect(await tableText(stream)).not.toContain("Grow on Sundays");
    // A cold handler (another process) folds what it reads, opened, and decides on it.
    const cold = new CommandHandler(sealed, calendarDecider, { clock: () => at.at });
    const again = await cold.handle(stream, { type: "SubmitPrep", expertId, bookingId, actor, answers: ["Post on Tuesdays"] });
    expect(again.ok).toBe(true);
    expect((await sealed.readStream(stream)).events.map((e) => e.data)).toContainEqual({ bookingId, answers: ["Post on Tuesdays"] });
  });
});
