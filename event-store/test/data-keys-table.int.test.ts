import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";
import { DataKeyError, PostgresKeyRing, type PostgresKeyRingOptions } from "../src/personal-data/index.ts";

// The product's key ring over the `data_keys` table (issue 33.1): keys made once per person and shared by every
// process, kept wrapped in the table, cached unwrapped in memory; an erasure in one process stops every other from
// serving the key it holds (NOTIFY, heard at once; the time to live as a backstop when a notice is missed), and an
// erased person never gets a key again.

let db: TestDatabase;
let pool: pg.Pool;
const masterKey = randomBytes(32);
const rings: PostgresKeyRing[] = [];
const ring = async (options: PostgresKeyRingOptions = {}, key = masterKey) => {
  const r = await PostgresKeyRing.connect(db.url, key, options);
  rings.push(r);
  return r;
};
const owner = () => `u-${randomUUID()}`;
const within = async (ms: number, check: () => Promise<boolean>) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    // A key from memory answers without I/O: let the listening connection's notices in.
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
};

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "data_keys");
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
});
afterAll(async () => {
  for (const r of rings) await r.close();
  await pool.end();
  await db.drop();
});

describe("the data keys table", () => {
  it("makes one key per person, shared by every process, and keeps it wrapped: the table alone opens nothing", async () => {
    // `a` commits new keys without waiting for the disk (the events sealed with them carry it), for that insert alone.
    const [a, b] = [await ring({ keysCommitBeforeTheirEvents: true }), await ring()];
    const id = owner();
    expect(await b.keyFor(id, false)).toBeNull();
    const [made, alsoMade] = await Promise.all([a.keyFor(id, true), b.keyFor(id, true)]);
    expect(made).toHaveLength(32);
    expect(alsoMade!.equals(made!)).toBe(true);
    const { rows } = await pool.query<{ wrapped_key: string; erased_at: Date | null }>(
      "SELECT wrapped_key, erased_at FROM data_keys WHERE owner_id = $1",
      [id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.wrapped_key).toMatch(/^dk1:/);
    expect(Buffer.from(rows[0]!.wrapped_key).includes(made!.toString("base64url"))).toBe(false);
    expect(rows[0]!.erased_at).toBeNull();
    for (let i = 0; i < 4; i++) expect((await a.pool.query("SHOW synchronous_commit")).rows[0]).toEqual({ synchronous_commit: "on" });
    // Another master key (another DATA_KEY_SECRET) does not unwrap it: loud, not a wrong key.
    await expect((await ring({}, randomBytes(32))).keyFor(id, false)).rejects.toThrow(DataKeyError);
  });

  it("stops serving an erased key in another process at once (NOTIFY), though it was cached for an hour", async () => {
    const [eraser, reader] = [await ring(), await ring({ ttlMs: 3_600_000 })];
    const id = owner();
    const key = await eraser.keyFor(id, true);
    const heard: string[][] = [[], []];
    eraser.onErasure((ownerId) => heard[0]!.push(ownerId));
    reader.onErasure((ownerId) => heard[1]!.push(ownerId));
    // Cached for an hour from here: only the erasure's notice can make it go (the backstop's test is below).
    expect((await reader.keyFor(id, false))!.equals(key!)).toBe(true);
    await eraser.erase(id);
    expect(await eraser.keyFor(id, false)).toBeNull();
    expect(await within(5_000, async () => (await reader.keyFor(id, false)) === null)).toBe(true);
    // Each process is told, so it drops what it holds folded in memory (the API's calendar handler does).
    expect(heard).toEqual([[id], [id]]);
    expect(await eraser.erasedAt(id)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await reader.erasedAt(owner())).toBeNull();
  });

  it("never gives an erased person a key again, nor one erased before they ever had one", async () => {
    const r = await ring();
    const [had, never] = [owner(), owner()];
    await r.keyFor(had, true);
    await r.erase(had);
    await r.erase(never);
    const fresh = await ring();
    expect(await fresh.keyFor(had, true)).toBeNull();
    expect(await fresh.keyFor(never, true)).toBeNull();
    const { rows } = await pool.query(
      "SELECT owner_id FROM data_keys WHERE owner_id = ANY($1) AND wrapped_key IS NULL AND erased_at IS NOT NULL",
      [[had, never]],
    );
    expect(rows).toHaveLength(2);
    // Erasing twice keeps the first time.
    const first = await r.erasedAt(had);
    await r.erase(had);
    expect(await r.erasedAt(had)).toBe(first);
  });

  it("reads a cached key again after its time to live: the backstop for an erasure whose notice was never heard", async () => {
    let now = 1_000_000;
    const reader = await ring({ ttlMs: 60_000, now: () => now });
    const id = owner();
    expect(await reader.keyFor(id, true)).not.toBeNull();
    // Destroyed behind its back, with no NOTIFY (as a notice lost with its connection would be).
    await pool.query("UPDATE data_keys SET wrapped_key = NULL, erased_at = now() WHERE owner_id = $1", [id]);
    now += 59_000;
    expect(await reader.keyFor(id, false)).not.toBeNull();
    now += 2_000;
    expect(await reader.keyFor(id, false)).toBeNull();
  });

  it("forgets every cached key when its listening connection is lost, and listens again", async () => {
    const reader = await ring({ ttlMs: 3_600_000 });
    const id = owner();
    await reader.keyFor(id, true);
    await pool.query("UPDATE data_keys SET wrapped_key = NULL, erased_at = now() WHERE owner_id = $1", [id]);
    await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'LISTEN data_key_erased%' AND pid <> pg_backend_pid()`,
    );
    expect(await within(5_000, async () => (await reader.keyFor(id, false)) === null)).toBe(true);
    // Listening again: a later erasure elsewhere is heard.
    const other = owner();
    await reader.keyFor(other, true);
    await (await ring()).erase(other);
    expect(await within(5_000, async () => (await reader.keyFor(other, false)) === null)).toBe(true);
  });

  it("reads many owners' keys in one statement before a batch is opened", async () => {
    const writer = await ring();
    const ids = Array.from({ length: 5 }, owner);
    for (const id of ids) await writer.keyFor(id, true);
    await writer.erase(ids[4]!);
    const reader = await ring();
    let statements = 0;
    const query = reader.pool.query.bind(reader.pool) as (...args: unknown[]) => unknown;
    (reader.pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => (statements++, query(...args));
    await reader.prefetch([...ids, owner()]);
    const keys = await Promise.all(ids.map((id) => reader.keyFor(id, false)));
    expect(statements).toBe(1);
    expect(keys.map((k) => k?.length ?? null)).toEqual([32, 32, 32, 32, null]);
  });
});
