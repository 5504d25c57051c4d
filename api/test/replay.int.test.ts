import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { createTestDatabase, testPool } from "@booking/testkit";
import { PostgresEventStore } from "@booking/event-store";
import { InProcessProjector, allProjections, claimRebuild, migrateReadModels, readModelDigest } from "@booking/projections";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A database with the event store and the read models' tables, dropped after the file. */
async function database(prefix: string) {
  const db = await createTestDatabase(testPostgresUrl(), prefix);
  cleanups.push(db.drop);
  const store = await PostgresEventStore.connect(db.url);
  cleanups.push(() => store.close());
  const pool = testPool(db.url, 4);
  cleanups.push(() => pool.end());
  await migrateReadModels(pool);
  return { db, store, pool };
}

function replay(databaseUrl: string, args: string[] = []) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn("npm", ["run", "--silent", "replay", ...(args.length ? ["--", ...args] : [])], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

it("`npm run replay` over 100,000 events shows progress, prints its rate and ends with the live digest", async () => {
  const { db, store, pool } = await database("replay");

  const written = await appendSynthetic(store, 100_000);
  const live = new InProcessProjector(store, pool, allProjections, { batchSize: 2000 });
  while ((await live.runOnce()) > 0);
  const liveDigest = await readModelDigest(pool);
  expect(liveDigest.bookings!.rows).toBeGreaterThan(20_000);

  const run = await replay(db.url);
  expect(run.code, run.stderr).toBe(0);
  const progress = run.stderr.split("\n").filter((l) => l.includes("ev/s"));
  expect(progress.length).toBeGreaterThan(1);
  expect(progress.at(-1)).toMatch(new RegExp(`${written.toLocaleString("en-US")}/${written.toLocaleString("en-US")} events`));
  const summary = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { events: number; eventsPerSecond: number; seconds: number };
  expect(summary.events).toBe(written);
  console.log(`[replay] ${summary.events} events in ${summary.seconds}s: ${summary.eventsPerSecond} events/s`);
  expect(summary.eventsPerSecond).toBeGreaterThan(0);
  expect(await readModelDigest(pool)).toEqual(liveDigest);
});

it("`npm run replay` refuses a read model that is being rebuilt elsewhere (the admin console, another replay), and touches nothing", async () => {
  const { db, store, pool } = await database("replay_claim");
  await appendSynthetic(store, 200);
  const live = new InProcessProjector(store, pool, allProjections);
  while ((await live.runOnce()) > 0);
  const before = await readModelDigest(pool);

  const claim = await claimRebuild(pool, ["bookings"]);
  expect(claim).not.toBeNull();
  const refused = await replay(db.url, ["--projection", "bookings"]);
  expect(refused.code, refused.stderr).toBe(75);
  expect(refused.stderr).toContain("replay: a rebuild of bookings is already running");
  expect(await readModelDigest(pool)).toEqual(before);
  // Every read model at once is refused too while one of them is claimed; once released, it runs.
  expect((await replay(db.url)).code).toBe(75);
  await claim!.release();
  expect((await replay(db.url, ["--projection", "bookings"])).code).toBe(0);
  expect(await readModelDigest(pool)).toEqual(before);
});
