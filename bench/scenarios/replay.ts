import pg from "pg";
import { PostgresEventStore, type StoredEvent } from "@booking/event-store";
import { allProjections, copyIn, migrateReadModels, rebuildProjections } from "@booking/projections";
import { createTestDatabase } from "@booking/testkit";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { copyChunks } from "../lib/pg-copy.ts";
import { profiled } from "../lib/cpuprofile.ts";
import { now, ratio, round, say } from "../lib/stats.ts";

// Replay: events per second rebuilding every read model from 100,000 events, beside COPY rows
// per second of the same events into a table shaped like `events`.

export type ReplayFigure = {
  events: number;
  /** Rebuilds and COPYs measured, interleaved; rates are over all of them, seconds per one. */
  rounds: number;
  seconds: number;
  eventsPerSecond: number;
  baseline: { what: string; rows: number; seconds: number; rowsPerSecond: number };
  ratio: number;
  bound: string;
  pass: boolean;
  /** Diagnosis: reading the whole log alone, and the statements the rebuild sent to the read models per event (all of them: BEGIN, reads, writes, checkpoints, COMMIT). */
  readLogOnly: { seconds: number; eventsPerSecond: number };
  statementsPerEvent: number;
  /** None left: the set-based writes that the pipelining experiments pointed to are in projections/src/apply.ts. */
  experiments: Record<string, { eventsPerSecond: number; ratioToCopy: number; speedup: number; identicalReadModels: boolean }> | null;
};

const REPLAY_ROUNDS = 2;

export async function benchReplay(serverUrl: string, options: { events: number; experiments: boolean }): Promise<ReplayFigure> {
  const db = await createTestDatabase(serverUrl, "bench_replay");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 10 });
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on("error", () => undefined);
  // Statements per event: every query the rebuild sends on the read-model pool, one round trip each.
  let statements = 0;
  let counting = false;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (counting) statements++;
      return query(...args);
    };
  });
  try {
    say(`  appending ${options.events.toLocaleString("en-US")} synthetic events`);
    const writers = 4;
    await Promise.all(
      Array.from({ length: writers }, (_, w) => appendSynthetic(store, Math.ceil(options.events / writers), w * 1_000_000)),
    );
    const total = await store.countEvents();
    await pool.query("VACUUM ANALYZE events");
    await migrateReadModels(pool);

    // The whole log, read the way a rebuild reads it: a floor for any replay.
    const r0 = now();
    const all: StoredEvent[] = [];
    for (let after = null as StoredEvent["position"] | null; ;) {
      const batch = await store.readAll(after, 2000);
      if (!batch.length) break;
      all.push(...batch);
      after = batch[batch.length - 1]!.position;
    }
    const readSeconds = (now() - r0) / 1000;

    // Baseline: COPY the same rows into a table like `events` (same columns and indexes), into a
    // fresh table each time.
    const chunks = copyChunks(
      all.map((e) => [
        e.streamId,
        e.version,
        e.eventId,
        e.type,
        e.schemaVersion,
        JSON.stringify(e.data),
        JSON.stringify(e.metadata),
        e.recordedAt,
      ]),
    );
    const copyOnce = async (): Promise<{ rows: number; seconds: number }> => {
      await pool.query("DROP TABLE IF EXISTS bench_copy");
      await pool.query("CREATE TABLE bench_copy (LIKE events INCLUDING ALL)");
      const client = await pool.connect();
      try {
        const c0 = now();
        const rows = await copyIn(
          client,
          "bench_copy (stream_id, version, event_id, type, schema_version, data, metadata, recorded_at)",
          chunks,
        );
        return { rows, seconds: (now() - c0) / 1000 };
      } finally {
        client.release();
      }
    };

    // Interleaved (COPY, rebuild, COPY, rebuild), so a change in the machine's load shifts both
    // alike; the first rebuild is the one profiled and whose statements are counted.
    const rebuilds: { events: number; seconds: number }[] = [];
    const copies: { rows: number; seconds: number }[] = [];
    for (let slice = 0; slice < REPLAY_ROUNDS; slice++) {
      say(`  COPY baseline (${slice + 1}/${REPLAY_ROUNDS})`);
      copies.push(await copyOnce());
      say(`  rebuilding all read models from ${total.toLocaleString("en-US")} events (${slice + 1}/${REPLAY_ROUNDS})`);
      counting = slice === 0;
      const rebuild = () => rebuildProjections(store, pool, allProjections);
      rebuilds.push(slice === 0 ? await profiled("replay", rebuild) : await rebuild());
      counting = false;
    }
    const rebuildSeconds = rebuilds.reduce((n, r) => n + r.seconds, 0);
    const copySeconds = copies.reduce((n, c) => n + c.seconds, 0);
    const eventsPerSecond = rebuilds.reduce((n, r) => n + r.events, 0) / rebuildSeconds;
    const rowsPerSecond = copies.reduce((n, c) => n + c.rows, 0) / copySeconds;

    const r = ratio(eventsPerSecond, rowsPerSecond);
    return {
      events: rebuilds[0]!.events,
      rounds: REPLAY_ROUNDS,
      seconds: round(rebuildSeconds / REPLAY_ROUNDS),
      eventsPerSecond: round(eventsPerSecond),
      baseline: {
        what: "COPY FROM STDIN (node-postgres copy protocol, no pg-copy-streams) of the same events into a table like `events`",
        rows: copies[0]!.rows,
        seconds: round(copySeconds / REPLAY_ROUNDS),
        rowsPerSecond: round(rowsPerSecond),
      },
      ratio: r,
      bound: ">= 0.2 of the COPY rate",
      pass: r >= 0.2,
      readLogOnly: { seconds: round(readSeconds), eventsPerSecond: round(all.length / readSeconds) },
      statementsPerEvent: round(statements / Math.max(all.length, 1)),
      experiments: null,
    };
  } finally {
    await pool.end();
    await store.close();
    await db.drop();
  }
}
