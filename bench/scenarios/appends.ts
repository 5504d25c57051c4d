import pg from "pg";
import { getPostgreSQLEventStore } from "@event-driven-io/emmett-postgresql";
import { PostgresEventStore, type NewEvent } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { profiled } from "../lib/cpuprofile.ts";
import { bookingRequested, clientStreams, insertContender } from "../lib/insert-baseline.ts";
import { interleave, type Contender } from "../lib/interleave.ts";
import { ratio, say, type LatencySummary } from "../lib/stats.ts";

// Store appends per second, 8 clients, each appending one real BookingRequested event at a time to
// a stream of its own with the version it expects (as a booking does): through PostgresEventStore
// with group commit and without, beside single-row INSERT transactions of the same event and
// beside Emmett's PostgreSQL event store. Each contender has its own database on the same server;
// they run in interleaved slices so that a change in machine load shifts them alike.

export type AppendsFigure = {
  clients: number;
  seconds: number;
  appendsPerSecond: number;
  latency: LatencySummary;
  withoutGroupCommit: { perSecond: number; latency: LatencySummary };
  insert: { what: string; perSecond: number; latency: LatencySummary };
  emmett: { what: string; perSecond: number; latency: LatencySummary };
  /** With group commit (the product's default); `withoutGroupCommit` ratios beside them for comparison. */
  ratioToInsert: number;
  ratioToEmmett: number;
  ratioToInsertWithoutGroupCommit: number;
  ratioToEmmettWithoutGroupCommit: number;
  bounds: { insert: string; emmett: string };
  pass: { insert: boolean; emmett: boolean };
};

type Options = { clients: number; rounds: number; sliceSeconds: number; warmupSeconds: number };

type Setup = { contender: Contender; close: () => Promise<void> };

async function storeContender(serverUrl: string, name: string, event: NewEvent, clients: number, groupCommit: boolean): Promise<Setup> {
  const db = await createTestDatabase(serverUrl, "bench_app_store");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 10, groupCommit });
  const { streamOf, versions } = clientStreams(clients, "calendar");
  const op = async (client: number) => {
    const r = await store.append(streamOf(client), [event], versions[client]!);
    versions[client] = r.nextVersion;
    return true;
  };
  return { contender: { name, op }, close: () => closeBoth(store, db) };
}

/** Emmett's PostgreSQL event store (its own schema, migrated on first use) appending the same event. */
async function emmettContender(serverUrl: string, event: NewEvent, clients: number): Promise<Setup> {
  const db = await createTestDatabase(serverUrl, "bench_app_emmett");
  // Our pool, the same size as the store's: ended before the database is dropped, and an idle
  // connection that the drop ends is not an unhandled error.
  const pool = new pg.Pool({ connectionString: db.url, max: 10 });
  pool.on("error", () => undefined);
  const emmett = getPostgreSQLEventStore(db.url, { connectionOptions: { pool } });
  const { streamOf, versions } = clientStreams(clients, "calendar");
  const append = async (client: number) => {
    const r = await emmett.appendToStream(
      streamOf(client),
      [{ type: event.type, data: event.data as Record<string, unknown>, metadata: event.metadata }],
      { expectedStreamVersion: BigInt(versions[client]!) },
    );
    versions[client] = Number(r.nextExpectedStreamVersion);
  };
  await emmett.schema.migrate();
  return {
    contender: { name: "Emmett", op: async (client) => (await append(client), true) },
    close: async () => {
      await emmett.close();
      await pool.end();
      await db.drop();
    },
  };
}

async function closeBoth(store: PostgresEventStore, db: TestDatabase): Promise<void> {
  await store.close();
  await db.drop();
}

export async function benchAppends(serverUrl: string, options: Options): Promise<AppendsFigure> {
  const event = await bookingRequested(serverUrl);
  const setups: Setup[] = [
    await insertContender(serverUrl, event, options.clients),
    await storeContender(serverUrl, "store", event, options.clients, true),
    await storeContender(serverUrl, "store without group commit", event, options.clients, false),
    await emmettContender(serverUrl, event, options.clients),
  ];
  try {
    say(`  ${options.clients} clients, ${options.rounds} interleaved rounds of ${options.sliceSeconds} s per contender`);
    const results = await profiled("store-appends", () =>
      interleave(
        setups.map((s) => s.contender),
        options,
      ),
    );
    const insert = results.INSERT!;
    const store = results.store!;
    const off = results["store without group commit"]!;
    const emmett = results.Emmett!;
    const ratioToInsert = ratio(store.perSecond, insert.perSecond);
    const ratioToEmmett = ratio(store.perSecond, emmett.perSecond);
    return {
      clients: options.clients,
      seconds: store.seconds,
      appendsPerSecond: store.perSecond,
      latency: store.latency,
      withoutGroupCommit: { perSecond: off.perSecond, latency: off.latency },
      insert: {
        what: "single-row INSERT (autocommit) of the same event into a table like `events`, same clients",
        perSecond: insert.perSecond,
        latency: insert.latency,
      },
      emmett: {
        what: "@event-driven-io/emmett-postgresql appendToStream with the expected stream version, same clients",
        perSecond: emmett.perSecond,
        latency: emmett.latency,
      },
      ratioToInsert,
      ratioToEmmett,
      ratioToInsertWithoutGroupCommit: ratio(off.perSecond, insert.perSecond),
      ratioToEmmettWithoutGroupCommit: ratio(off.perSecond, emmett.perSecond),
      bounds: { insert: ">= 1.0 of the INSERT rate", emmett: ">= 2.5 of Emmett's rate" },
      pass: { insert: ratioToInsert >= 1, emmett: ratioToEmmett >= 2.5 },
    };
  } finally {
    for (const s of setups) await s.close();
  }
}
