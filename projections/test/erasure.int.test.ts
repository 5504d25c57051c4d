import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREATOR, EXPERT, MemoryLog, ReadModels, logWithKeyDestroyed, plainLog, type Digest } from "./erasure-logs.ts";

// Erasure in the read models (issue 33.2). What a UserErased event does to the read models, applied live, must equal
// what the log makes of them once the person's data key is destroyed: the log is sealed here with the real envelope,
// the key destroyed and the events read back, each of the person's fields then reading as its erased marker
// (contracts' personal-data). A field the erasure forgets, or one it erases that the log keeps, makes them differ.
// Nothing of theirs is left in any read model; the other party's words, the bookings and the money stay.

let readModels: ReadModels;
beforeAll(async () => {
  readModels = await ReadModels.open();
});
afterAll(async () => readModels?.close());

const BOOKINGS_AND_MONEY =
  "SELECT booking_id, status, paid_cents, refunded_cents, payment_state, scheduled_time FROM bookings ORDER BY booking_id";
/** Read models that name nobody: erasing anyone leaves them as they were. */
const NAMING_NOBODY = ["ledger_books", "earnings", "sessions", "terms_acceptances", "conversation_readers"];

describe.each([
  ["a creator", CREATOR],
  ["an expert", EXPERT],
])("erasing %s", (_who, person) => {
  let live: Digest;
  let rows: string;
  let user: Record<string, unknown>;
  let bookings: unknown[];

  beforeAll(async () => {
    live = await readModels.applyLive(plainLog(person));
    rows = await readModels.everyRow();
    user = (await readModels.pool.query("SELECT email, first_name, last_name, erased_at FROM users WHERE user_id = $1", [person.userId]))
      .rows[0];
    bookings = (await readModels.pool.query(BOOKINGS_AND_MONEY)).rows;
  });

  it("leaves no trace of their name, address or words in any read model, and keeps the other party's", () => {
    for (const trace of person.traces) expect(rows, `a trace of ${person.userId}: ${trace}`).not.toContain(trace);
    for (const kept of person.kept) expect(rows, `kept: ${kept}`).toContain(kept);
    expect(user).toMatchObject({ email: `deleted-user-${person.userId}@erased.invalid`, first_name: "Deleted", last_name: "user" });
    expect((user.erased_at as Date).toISOString()).toBe("2030-03-01T00:00:00.000Z");
  });

  it("keeps the bookings, their amounts and the ledger as they were", async () => {
    const before = await readModels.applyLive(plainLog(person).slice(0, -1));
    expect(bookings).toEqual((await readModels.pool.query(BOOKINGS_AND_MONEY)).rows);
    for (const table of NAMING_NOBODY) expect(live[table], table).toEqual(before[table]);
  });

  it("equals the read models of the log once their data key is destroyed, applied live or rebuilt", async () => {
    const shredded = await logWithKeyDestroyed(person);
    expect(await readModels.applyLive(shredded)).toEqual(live);
    expect(await readModels.rebuild(new MemoryLog(shredded))).toEqual(live);
  });
});
