import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";
import { calendarDecider, calendarSnapshots, calendarStream } from "@booking/engine";
import { CommandHandler } from "../src/commands/command-handler.ts";
import { PostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import { PostgresSnapshotStore } from "../src/snapshots/postgres-snapshot-store.ts";
import { SnapshotSeal, snapshotKeyFromSecret } from "../src/snapshots/snapshot-seal.ts";
import { snapshotStoreContract } from "./snapshot-store-contract.ts";

// Snapshots sealed as a whole (issue 33.1): a decider's state holds people's text, so the `snapshots` table holds only
// ciphertext under a key derived from DATA_KEY_SECRET; a state copied to another row, sealed under another secret or
// written in plain text before sealing is not believed (a shortcut is only ever skipped); and forgetting the
// snapshots that mention a person opens each sealed state to look.

const SECRET = "snapshot-test-secret-long-enough-for-hkdf-0123456789";
const shape = "handler-1/calendar-test";
let db: TestDatabase;
let sealed: PostgresSnapshotStore;
let plain: PostgresSnapshotStore;

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "snap_sealed");
  sealed = await PostgresSnapshotStore.connect(db.url, { seal: new SnapshotSeal(snapshotKeyFromSecret(SECRET)) });
  plain = await PostgresSnapshotStore.connect(db.url);
});
afterAll(async () => {
  await sealed.close();
  await plain.close();
  await db.drop();
});

snapshotStoreContract("postgres, sealed", () => sealed);

const stateText = async (streamId: string) =>
  (await sealed.pool.query<{ t: string }>("SELECT state::text AS t FROM snapshots WHERE stream_id = $1", [streamId])).rows[0]?.t;

describe("sealed snapshots", () => {
  it("hold ciphertext in the table and give the state back", async () => {
    const id = `s-${randomUUID()}`;
    const state = { bookings: [{ bookingId: "b1", creatorId: "c-1", note: "My daughter's wedding" }] };
    await sealed.write({ streamId: id, version: 3, shape, state });
    const text = await stateText(id);
    expect(text).toMatch(/^"ss1:/);
    expect(text).not.toContain("wedding");
    expect(text).not.toContain("c-1");
    expect((await sealed.read(id, shape))?.state).toEqual(state);
  });

  it("do not believe a state moved to another row, sealed under another secret, or stored in plain text", async () => {
    const [from, to] = [`s-${randomUUID()}`, `s-${randomUUID()}`];
    await sealed.write({ streamId: from, version: 3, shape, state: { a: 1 } });
    await sealed.write({ streamId: to, version: 3, shape, state: { a: 2 } });
    await sealed.pool.query("UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE stream_id = $1) WHERE stream_id = $2", [
      from,
      to,
    ]);
    expect(await sealed.read(to, shape)).toBeNull();
    const other = new PostgresSnapshotStore(sealed.pool, false, new SnapshotSeal(snapshotKeyFromSecret(`${SECRET}-rotated`)));
    expect(await other.read(from, shape)).toBeNull();
    const old = `s-${randomUUID()}`;
    await plain.write({ streamId: old, version: 3, shape, state: { a: 3 } });
    expect(await plain.read(old, shape)).not.toBeNull();
    expect(await sealed.read(old, shape)).toBeNull();
  });

  it("forget the sealed ones that mention a person, and the plain ones too", async () => {
    const person = `c-${randomUUID()}`;
    const [mentions, plainMentions, other] = [`s-${randomUUID()}`, `s-${randomUUID()}`, `s-${randomUUID()}`];
    await sealed.write({ streamId: mentions, version: 4, shape, state: { bookings: [{ creatorId: person }] } });
    await plain.write({ streamId: plainMentions, version: 4, shape, state: { bookings: [{ creatorId: person }] } });
    await sealed.write({ streamId: other, version: 4, shape, state: { bookings: [{ creatorId: "someone else" }] } });
    // At least those two: a sealed state that does not open (moved, another secret) cannot be vouched for and goes too.
    expect(await sealed.forgetMentioning(person)).toBeGreaterThanOrEqual(2);
    expect(await stateText(mentions)).toBeUndefined();
    expect(await stateText(plainMentions)).toBeUndefined();
    expect(await sealed.read(other, shape)).not.toBeNull();
  });

  it("serve a command handler's cold load as plain ones do", async () => {
    const store = await PostgresEventStore.connect(db.url);
    try {
      const expertId = randomUUID();
      const stream = calendarStream(expertId);
      const metadata = { at: "2026-03-01T10:00:00.000Z" };
      const slots = [{ weekday: "tuesday" as const, start_local: "09:00", end_local: "17:00" }];
      const events = Array.from({ length: 12 }, (_, i) => ({
        type: "ScheduleSet",
        data: { expertId, timezone: i % 2 ? "Europe/London" : "UTC", slots },
        metadata,
      }));
      await store.append(stream, events, "no_stream");
      const clock = () => metadata.at;
      const handler = () =>
        new CommandHandler(store, calendarDecider, { clock, snapshots: { store: sealed, codec: calendarSnapshots, every: 5 } });
      const writer = handler();
      const whole = await writer.load(stream);
      await writer.snapshotsWritten();
      expect(await stateText(stream)).toMatch(/^"ss1:/);
      // The state a cold handler starts from is what the snapshot encoded, opened.
      const cold = await handler().load(stream);
      expect(cold).toEqual({ version: 12, state: calendarSnapshots.decode(calendarSnapshots.encode(whole.state, clock())) });
    } finally {
      await store.close();
    }
  });
});
