import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresEventStore } from "@booking/event-store";
import { allProjections, migrateReadModels, readCheckpoints, readModelDigest, rebuildProjections } from "@booking/projections";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { projectorCaughtUp, sleep, startProcess, stopGracefully, waitFor, type Running } from "../../api/test/processes.ts";
import { elapsed, printFigure } from "./figure.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// The projector process (api/src/processes/projector.ts, following the event store) is killed
// with SIGKILL ten times while events keep flowing; each kill lands while it is applying (it has
// moved its checkpoints since it started). At the end its read models must equal a clean replay.

const KILLS = 10;
const dbs: TestDatabase[] = [];
const pools: pg.Pool[] = [];
let store: PostgresEventStore;
let pool: pg.Pool;
let url: string;

async function database(prefix: string) {
  const db = await createTestDatabase(testPostgresUrl(), prefix);
  dbs.push(db);
  const p = new pg.Pool({ connectionString: db.url, max: 4 });
  p.on("error", () => undefined);
  pools.push(p);
  return { db, pool: p };
}

beforeAll(async () => {
  const main = await database("rel_kill");
  url = main.db.url;
  pool = main.pool;
  store = await PostgresEventStore.connect(url);
  await migrateReadModels(pool);
});
afterAll(async () => {
  await store?.close();
  await Promise.all(pools.map((p) => p.end()));
  for (const db of dbs) await db.drop();
});

const applied = async () => (await readCheckpoints(pool)).reduce((n, c) => n + c.eventsApplied, 0);

describe("projector killed during load", () => {
  it(`${KILLS} SIGKILLs while events flow: read models equal a clean replay`, async () => {
    const t0 = performance.now();
    let writing = true;
    let written = 0;
    const flow = (async () => {
      for (let n = 0; writing; n++) {
        written += await appendSynthetic(store, 1, 10_000_000 + n);
        await sleep(5);
      }
    })();
    let running: Running = startProcess("projector", { DATABASE_URL: url });
    let killed = 0;
    while (killed < KILLS) {
      // Wait until this process is applying (its checkpoints moved), then kill it a moment later.
      const before = await applied();
      await waitFor("the restarted projector to apply events", async () => (await applied()) > before, 60_000);
      await sleep(50 + Math.random() * 400);
      running.child.kill("SIGKILL");
      await running.exited;
      killed++;
      running = startProcess("projector", { DATABASE_URL: url });
    }
    writing = false;
    await flow;
    const caughtUpFrom = performance.now();
    await waitFor("the projector to catch up", () => projectorCaughtUp(pool, store), 180_000);
    const catchUp = elapsed(caughtUpFrom);
    const exit = await stopGracefully(running, "projector");

    const clean = await database("rel_kill_clean");
    await migrateReadModels(clean.pool);
    await rebuildProjections(store, clean.pool, allProjections);
    const [live, replayed] = [await readModelDigest(pool), await readModelDigest(clean.pool)];
    const differing = Object.keys(replayed).filter((t) => JSON.stringify(live[t]) !== JSON.stringify(replayed[t]));
    printFigure("projector killed during load", {
      kills: killed,
      "events appended": written,
      "events applied per read model (a batch cut short by a kill is rolled back and applied again)": Math.max(
        ...(await readCheckpoints(pool)).map((c) => c.eventsApplied),
      ),
      "catch-up after the last restart": catchUp,
      "read-model tables equal to a clean replay": `${Object.keys(replayed).length - differing.length}/${Object.keys(replayed).length}`,
      "rows per table": Object.fromEntries(Object.entries(live).map(([t, d]) => [t, d.rows])),
      "last projector exit on SIGTERM": exit,
      time: elapsed(t0),
    });
    expect(killed).toBe(KILLS);
    expect(exit).toBe(0);
    expect(differing).toEqual([]);
    expect(live).toEqual(replayed);
  });
});
