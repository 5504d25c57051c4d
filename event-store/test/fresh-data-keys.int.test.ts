import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASED_FIRST_NAME } from "@booking/contracts";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";
import { PostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import { WrongExpectedVersion, type NewEvent } from "../src/port.ts";
import { NO_PARTIES, PostgresKeyRing, SealedEventStore } from "../src/personal-data/index.ts";

// A new person's data key written with their first event (issue 33): the `data_keys` row goes in the transaction of the
// append of the first event sealed with it, so a sign-up is one statement and the key exists exactly when the event
// does. Each test looks at the tables: the key row's transaction (xmin) is the event's, a refused append leaves no key,
// a key another process made first (or an erasure) is found and used, and erasure destroys keys made this way.

let db: TestDatabase;
let pool: pg.Pool;
const masterKey = randomBytes(32);
const closing: { close: () => Promise<void> }[] = [];

const ring = async () => {
  const r = await PostgresKeyRing.connect(db.url, masterKey);
  closing.push(r);
  return r;
};
/** A process: the Postgres store and its key ring in the same database, as the API runs them. */
const process = async (options: { groupCommit?: boolean } = {}) => {
  const stored = await PostgresEventStore.connect(db.url, { pollIntervalMs: 20, ...options });
  const keys = await ring();
  const sealed = new SealedEventStore(stored, keys, NO_PARTIES);
  closing.push(sealed);
  return { stored, keys, sealed };
};
const person = () => `u-${randomUUID()}`;
const registered = (userId: string, firstName = "Philippa"): NewEvent => ({
  type: "UserRegistered",
  data: { userId, email: `${userId}@example.com`, role: "creator", firstName, lastName: "Abernathy" },
  metadata: { at: "2026-03-01T10:00:00.000Z" },
});

/** The key row's writing transaction, and each event's of the stream. */
async function transactions(userId: string, streamId = `user-${userId}`): Promise<{ key: string | null; events: string[] }> {
  const key = await pool.query<{ xid: string }>("SELECT xmin::text AS xid FROM data_keys WHERE owner_id = $1", [userId]);
  const events = await pool.query<{ xid: string }>("SELECT transaction_id::text AS xid FROM events WHERE stream_id = $1 ORDER BY version", [
    streamId,
  ]);
  return { key: key.rows[0]?.xid ?? null, events: events.rows.map((r) => r.xid) };
}

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "fresh_keys");
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  // The tables, as a process's connect makes them.
  await process();
});
afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
  await pool.end();
  await db.drop();
});

describe("a new person's data key, written with their first event", () => {
  it("is written in the append's own transaction, and opens their event in another process", async () => {
    for (const groupCommit of [true, false]) {
      const { sealed } = await process({ groupCommit });
      const id = person();
      const written = await sealed.append(`user-${id}`, [registered(id)], "no_stream");
      expect(written.events[0]!.data).toMatchObject({ firstName: "Philippa" });
      const { key, events } = await transactions(id);
      // One transaction: no crash can leave the event without its key, nor the key's commit wait apart from the event's.
      expect(key).not.toBeNull();
      expect(events).toEqual([key]);
      const elsewhere = await process();
      expect((await elsewhere.sealed.readStream(`user-${id}`)).events[0]!.data).toMatchObject({ firstName: "Philippa" });
    }
  });

  it("is not kept when the append is refused: no key row, none served, and the next append makes and writes one", async () => {
    const { sealed, keys } = await process();
    const id = person();
    await sealed.append(`user-${id}`, [registered(id)], "no_stream");
    const other = person();
    // Written to a stream whose version is not the one expected: refused, and nothing of it stays.
    await expect(sealed.append(`user-${id}`, [registered(other)], "no_stream")).rejects.toThrow(WrongExpectedVersion);
    expect((await transactions(other)).key).toBeNull();
    expect(await keys.keyFor(other, false)).toBeNull();
    await sealed.append(`user-${other}`, [registered(other, "Quentin")], "no_stream");
    const { key, events } = await transactions(other);
    expect(events).toEqual([key]);
    expect((await sealed.readStream(`user-${other}`)).events[0]!.data).toMatchObject({ firstName: "Quentin" });
  });

  it("uses the key another process made first, and writes an erased person's fields as markers", async () => {
    const [here, there] = [await process(), await process()];
    const [known, erased] = [person(), person()];
    const key = await there.keys.keyFor(known, true);
    await there.keys.erase(erased);
    // This process knows nothing of either: its fresh key's row is there already, so the append is sealed again.
    await here.sealed.append(`user-${known}`, [registered(known, "Rosalind")], "no_stream");
    await here.sealed.append(`user-${erased}`, [registered(erased, "Sebastian")], "no_stream");
    expect((await here.keys.keyFor(known, false))!.equals(key!)).toBe(true);
    expect((await there.sealed.readStream(`user-${known}`)).events[0]!.data).toMatchObject({ firstName: "Rosalind" });
    const table = await pool.query<{ data: unknown }>("SELECT data FROM events WHERE stream_id = $1", [`user-${erased}`]);
    expect(JSON.stringify(table.rows)).not.toContain("Sebastian");
    expect((await here.sealed.readStream(`user-${erased}`)).events[0]!.data).toMatchObject({ firstName: ERASED_FIRST_NAME });
  });

  it("is destroyed by erasure like any other key, in every process", async () => {
    const [here, there] = [await process(), await process()];
    const id = person();
    await here.sealed.append(`user-${id}`, [registered(id, "Theodora")], "no_stream");
    expect((await there.sealed.readStream(`user-${id}`)).events[0]!.data).toMatchObject({ firstName: "Theodora" });
    await there.keys.erase(id);
    const row = await pool.query<{ wrapped_key: string | null }>("SELECT wrapped_key FROM data_keys WHERE owner_id = $1", [id]);
    expect(row.rows).toEqual([{ wrapped_key: null }]);
    expect(await here.keys.erasedAt(id)).not.toBeNull();
    const until = Date.now() + 5_000;
    let read = (await here.sealed.readStream(`user-${id}`)).events[0]!.data;
    while (JSON.stringify(read).includes("Theodora") && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
      read = (await here.sealed.readStream(`user-${id}`)).events[0]!.data;
    }
    expect(read).toMatchObject({ firstName: ERASED_FIRST_NAME });
  });

  it("goes with its event in group commit: many sign-ups at once, a person's two first events at once, a batch that fails", async () => {
    const { sealed, stored } = await process();
    const ids = Array.from({ length: 40 }, person);
    const twice = person();
    const duplicate = randomUUID();
    await stored.append(`dup-${randomUUID()}`, [{ ...registered(person()), eventId: duplicate }], "any");
    const results = await Promise.allSettled([
      ...ids.map((id) => sealed.append(`user-${id}`, [registered(id)], "no_stream")),
      sealed.append(`user-${twice}`, [registered(twice, "Ursula")], "no_stream"),
      sealed.append(`profile-${twice}`, [registered(twice, "Ursula")], "no_stream"),
      // A duplicate event id fails its batch's statement: the others are written all the same.
      sealed.append(`user-${person()}`, [{ ...registered(person()), eventId: duplicate }], "no_stream"),
    ]);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    for (const id of ids) {
      const { key, events } = await transactions(id);
      expect(events).toEqual([key]);
    }
    const reader = await process();
    for (const stream of [`user-${twice}`, `profile-${twice}`])
      expect((await reader.sealed.readStream(stream)).events[0]!.data).toMatchObject({ firstName: "Ursula" });
    const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM data_keys WHERE owner_id = $1", [twice]);
    expect(rows[0]!.n).toBe("1");
  });

  it("is made before its event, as before, when the store writes to another database than the key ring's", async () => {
    const elsewhere = await createTestDatabase(testPostgresUrl(), "fresh_keys_events");
    const stored = await PostgresEventStore.connect(elsewhere.url);
    const keys = await ring();
    const sealed = new SealedEventStore(stored, keys, NO_PARTIES);
    try {
      const id = person();
      await sealed.append(`user-${id}`, [registered(id, "Valentina")], "no_stream");
      expect((await transactions(id)).key).not.toBeNull();
      const events = await stored.pool.query("SELECT to_regclass('data_keys') AS t");
      expect(events.rows).toEqual([{ t: null }]);
      expect((await sealed.readStream(`user-${id}`)).events[0]!.data).toMatchObject({ firstName: "Valentina" });
    } finally {
      await sealed.close();
      await elsewhere.drop();
    }
  });
});
