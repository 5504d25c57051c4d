import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel, type Admin } from "kafkajs";
import pg from "pg";
import { KafkaBusPublisher, PostgresEventStore, encodeBusMessage, type StoredEvent } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { waitFor } from "../../api/test/processes.ts";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { processCpuSeconds, startTopology, type Member, type Topology } from "../../scripts/topology/topology.ts";
import { fetchCall, seedBookingParties, startTopologyLoad } from "../lib/topology-load.ts";
import { round, say, sleep } from "../lib/stats.ts";

// Scale-out on one machine (issue 20): the topology's processes (scripts/topology) measured one
// and two at a time. Projector events/s with 1 and 2 consumers in one group on the 6-partition
// topic; bookings/s through 1 API process and through 2 behind the proxy, on the same store;
// relay events/s into Kafka. Each with the CPU seconds every process spent per event (from
// /proc/<pid>/stat), since on a shared 2-core machine the ratio of rates says little about what
// a second machine would add, while CPU per event does. And the sizes a capacity model needs:
// events per booking, bytes per event in Postgres (data, and on disk with indexes) and in Kafka.

type Cpu = Record<string, number>;
export type Throughput = {
  consumers?: number;
  apis?: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  cpuMsPerEvent: Cpu;
  loadAverage: number;
};
export type ApiRound = {
  apis: number;
  seconds: number;
  bookings: number;
  bookingsPerSecond: number;
  postBookingsPerSecond: number;
  events: number;
  failed: number;
  firstFailure: string | null;
  cpuMsPerBooking: Cpu;
  cpuMsPerEvent: Cpu;
  loadAverage: number;
};
export type ScaleFigure = {
  projector: Throughput[];
  relay: Throughput[];
  api: ApiRound[];
  /** CPU ms per second each process spends with no traffic (sweepers, polling, heartbeats): the fixed part of the per-booking figures. */
  idleCpuMsPerSecond: Cpu;
  sizes: {
    eventsPerBooking: number;
    events: number;
    dataAndMetadataBytesPerEvent: number;
    postgresBytesPerEvent: { eventsTable: number; eventsAndStreams: number };
    kafkaMessageBytesPerEvent: number;
    kafkaLogBytesPerEvent: number | null;
    kafkaLogDir: string | null;
  };
  loadAverage: { start: number[]; end: number[] };
};

const load1 = () => round(loadavg()[0]!);

/**
 * CPU seconds per process now, so that two readings give each one's share of a stretch; with the
 * Postgres backends serving `database` (pg_stat_activity) as one figure, "postgres".
 */
async function cpuOf(members: Member[], postgres?: { server: pg.Pool; database: string }): Promise<Record<string, number>> {
  const cpu = Object.fromEntries(members.map((m) => [m.name, m.cpuSeconds() ?? Number.NaN]));
  if (postgres) {
    const { rows } = await postgres.server.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [
      postgres.database,
    ]);
    for (const { pid } of rows) cpu[`postgres:${pid}`] = processCpuSeconds(pid) ?? 0;
  }
  return cpu;
}
function cpuPer(before: Record<string, number>, after: Record<string, number>, units: number): Cpu {
  const per: Cpu = {};
  for (const [k, v] of Object.entries(after)) {
    // A backend that connected during the stretch spent all its CPU in it.
    const name = k.startsWith("postgres:") ? "postgres" : k;
    per[name] = (per[name] ?? 0) + ((v - (before[k] ?? (name === "postgres" ? 0 : Number.NaN))) * 1000) / Math.max(units, 1);
  }
  return Object.fromEntries(Object.entries(per).map(([k, v]) => [k, round(v)]));
}

const sum = (offsets: { offset: string }[]) => offsets.reduce((n, o) => n + Math.max(0, Number(o.offset)), 0);

/** From the first event seen to the last: when `progress` first exceeds 0, and when it reaches `total`; the CPU at both moments. */
async function timeThrough(
  total: number,
  progress: () => Promise<number>,
  members: Member[],
  postgres: { server: pg.Pool; database: string },
  timeoutMs: number,
) {
  let first: { at: number; done: number; cpu: Record<string, number> } | null = null;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = await progress();
    if (!first && done > 0) first = { at: performance.now(), done, cpu: await cpuOf(members, postgres) };
    if (first && done >= total) {
      const seconds = (performance.now() - first.at) / 1000;
      const events = total - first.done;
      return {
        events,
        seconds: round(seconds),
        eventsPerSecond: round(events / Math.max(seconds, 1e-9)),
        cpuMsPerEvent: cpuPer(first.cpu, await cpuOf(members, postgres), events),
      };
    }
    if (Date.now() > deadline) throw new Error(`only ${done} of ${total} events went through in ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}

async function readLog(store: PostgresEventStore): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (let after: StoredEvent["position"] | null = null; ;) {
    const batch = await store.readAll(after, 5000);
    if (!batch.length) return all;
    all.push(...batch);
    after = batch[batch.length - 1]!.position;
  }
}

type Context = { serverUrl: string; server: pg.Pool; brokers: string[]; admin: Admin; mediaDir: string; jwtSecret: string };

/** `consumers` projector processes joined in one group first, then the log published to their topic: the group's committed offsets, first to last. */
async function projectorRound(c: Context, events: StoredEvent[], consumers: number): Promise<Throughput> {
  const db = await createTestDatabase(c.serverUrl, "bench_scale_projector");
  const topic = `bench-scale-${randomUUID()}`;
  const group = `${topic}-projectors`;
  let topology: Topology | null = null;
  const publisher = await KafkaBusPublisher.connect({ brokers: c.brokers, topic });
  try {
    topology = await startTopology({
      databaseUrl: db.url,
      brokers: c.brokers,
      topic,
      group,
      jwtSecret: c.jwtSecret,
      mediaDir: c.mediaDir,
      apis: 0,
      projectors: consumers,
      relay: false,
    });
    await waitFor(
      `${consumers} projectors in the group`,
      async () => {
        const g = (await c.admin.describeGroups([group])).groups[0]!;
        return g.state === "Stable" && g.members.length === consumers;
      },
      120_000,
    );
    const publishing = (async () => {
      for (let i = 0; i < events.length; i += 1000) await publisher.publish(events.slice(i, i + 1000));
    })();
    const committed = async () => sum((await c.admin.fetchOffsets({ groupId: group, topics: [topic] }))[0]!.partitions);
    const t = await timeThrough(events.length, committed, topology.projectors, { server: c.server, database: db.name }, 600_000);
    await publishing;
    return { consumers, ...t, loadAverage: load1() };
  } finally {
    await publisher.close();
    await topology?.stop();
    await db.drop();
  }
}

/** The relay process publishing a log it has not published yet, to a topic of its own: the topic's offsets, first to last. */
async function relayRound(c: Context, db: TestDatabase, pool: pg.Pool, events: number): Promise<Throughput> {
  const topic = `bench-scale-relay-${randomUUID()}`;
  await pool.query("DELETE FROM relay_checkpoints").catch(() => undefined);
  let topology: Topology | null = null;
  try {
    topology = await startTopology({
      databaseUrl: db.url,
      brokers: c.brokers,
      topic,
      group: `${topic}-unused`,
      jwtSecret: c.jwtSecret,
      mediaDir: c.mediaDir,
      apis: 0,
      projectors: 0,
    });
    const published = async () => sum(await c.admin.fetchTopicOffsets(topic).catch(() => []));
    const t = await timeThrough(events, published, [topology.relay!], { server: c.server, database: db.name }, 600_000);
    return { ...t, loadAverage: load1() };
  } finally {
    await topology?.stop();
    await c.admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  }
}

/** The Kafka broker's log directory (scripts/kafka/broker.sh's config), to size a topic on disk. */
function kafkaLogDir(): string | null {
  const dataDir = process.env.KAFKA_DATA_DIR || "/tmp/booking-kafka-data";
  try {
    const dir = join(dataDir, "kraft-logs");
    statSync(dir);
    return dir;
  } catch {
    return null;
  }
}
function topicLogBytes(dir: string, topic: string): number {
  let bytes = 0;
  for (const partition of readdirSync(dir).filter((d) => d.startsWith(`${topic}-`))) {
    for (const file of readdirSync(join(dir, partition)).filter((f) => f.endsWith(".log")))
      bytes += statSync(join(dir, partition, file)).size;
  }
  return bytes;
}

export async function benchScale(
  serverUrl: string,
  brokers: string[],
  options: { events: number; rounds: number; apiSeconds: number; bookers: number },
): Promise<ScaleFigure> {
  const start = loadavg().map(round);
  const kafka = new Kafka({ clientId: "bench-scale", brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const server = new pg.Pool({ connectionString: serverUrl, max: 1 });
  const c: Context = {
    serverUrl,
    server,
    brokers,
    admin,
    mediaDir: await mkdtemp(join(tmpdir(), "bench-scale-media-")),
    jwtSecret: randomBytes(32).toString("hex"),
  };
  const synthetic = await createTestDatabase(serverUrl, "bench_scale_log");
  const syntheticStore = await PostgresEventStore.connect(synthetic.url);
  const syntheticPool = new pg.Pool({ connectionString: synthetic.url, max: 2 });
  const bookingDb = await createTestDatabase(serverUrl, "bench_scale_api");
  const bookingStore = await PostgresEventStore.connect(bookingDb.url);
  const bookingPool = new pg.Pool({ connectionString: bookingDb.url, max: 2 });
  let api: Topology | null = null;
  try {
    say(`  appending ${options.events.toLocaleString("en-US")} events of synthetic expert histories`);
    await appendSynthetic(syntheticStore, options.events, 40_000_000);
    const log = await readLog(syntheticStore);

    const projector: Throughput[] = [];
    const relay: Throughput[] = [];
    for (let r = 0; r < options.rounds; r++) {
      for (const consumers of [1, 2]) {
        const t = await projectorRound(c, log, consumers);
        projector.push(t);
        say(
          `  projector, ${consumers} consumer${consumers > 1 ? "s" : ""}: ${t.eventsPerSecond} events/s over ${t.events} events; CPU ms/event ${JSON.stringify(t.cpuMsPerEvent)}; load ${t.loadAverage}`,
        );
      }
      const t = await relayRound(c, synthetic, syntheticPool, log.length);
      relay.push(t);
      say(
        `  relay: ${t.eventsPerSecond} events/s over ${t.events} events; CPU ms/event ${JSON.stringify(t.cpuMsPerEvent)}; load ${t.loadAverage}`,
      );
    }

    // Bookings through one API process (direct) and through two (the proxy), alternating, with
    // the relay and one projector feeding the read models the APIs read from.
    const parties = await seedBookingParties(bookingStore, c.jwtSecret, { experts: 50, creators: 200 });
    const topic = `bench-scale-api-${randomUUID()}`;
    api = await startTopology({
      databaseUrl: bookingDb.url,
      brokers,
      topic,
      group: `${topic}-projectors`,
      jwtSecret: c.jwtSecret,
      mediaDir: c.mediaDir,
      apis: 2,
      projectors: 1,
    });
    const t = api;
    const lastSession = parties.experts[parties.experts.length - 1]!.sessionId;
    await waitFor(
      "the seeded sessions in the read models",
      async () => (await fetch(`${t.url}/api/v1/sessions/${lastSession}`)).status === 200,
      120_000,
    );
    const direct = fetchCall(`http://127.0.0.1:${t.apis[0]!.port}`);
    const proxied = fetchCall(t.url);
    let target = direct;
    const members = t.all();
    const postgres = { server, database: bookingDb.name };
    const idle0 = await cpuOf(members, postgres);
    const idleFrom = performance.now();
    await sleep(options.apiSeconds * 1000);
    const idleCpuMsPerSecond = cpuPer(idle0, await cpuOf(members, postgres), (performance.now() - idleFrom) / 1000);
    say(`  idle, CPU ms/s: ${JSON.stringify(idleCpuMsPerSecond)}`);
    const traffic = startTopologyLoad((m, p, o) => target(m, p, o), parties, { bookers: options.bookers, listers: 0 });
    const rounds: ApiRound[] = [];
    for (let r = 0; r < options.rounds * 2; r++) {
      const apis = r % 2 === 0 ? 1 : 2;
      target = apis === 1 ? direct : proxied;
      await sleep(1000); // the requests in flight to the other arrangement finish
      const [a, cpu0, e0] = [traffic.report(), await cpuOf(members, postgres), await bookingStore.countEvents()];
      await sleep(options.apiSeconds * 1000);
      const [b, cpu1, e1] = [traffic.report(), await cpuOf(members, postgres), await bookingStore.countEvents()];
      const bookings = b.bookings - a.bookings;
      const posts = b.routes["POST /bookings"]!.requests - a.routes["POST /bookings"]!.requests;
      const seconds = b.seconds - a.seconds;
      const failed = Object.keys(b.routes).reduce((n, k) => n + b.routes[k]!.failed - a.routes[k]!.failed, 0);
      const round_: ApiRound = {
        apis,
        seconds: round(seconds),
        bookings,
        bookingsPerSecond: round(bookings / seconds),
        postBookingsPerSecond: round(posts / seconds),
        events: e1 - e0,
        failed,
        firstFailure: Object.values(b.routes).find((r) => r.firstFailure)?.firstFailure ?? null,
        cpuMsPerBooking: cpuPer(cpu0, cpu1, bookings),
        cpuMsPerEvent: cpuPer(cpu0, cpu1, e1 - e0),
        loadAverage: load1(),
      };
      rounds.push(round_);
      say(
        `  ${apis} API${apis > 1 ? "s" : ""}: ${round_.bookingsPerSecond} bookings/s (${round_.postBookingsPerSecond} POST /bookings/s), ${round_.events} events, ${failed} failed; CPU ms/booking ${JSON.stringify(round_.cpuMsPerBooking)}; load ${round_.loadAverage}`,
      );
    }
    await traffic.stop();
    const booked = rounds.reduce((n, r) => n + r.bookings, 0);
    const bookingEvents = rounds.reduce((n, r) => n + r.events, 0);
    await waitFor(
      "the relay to publish the whole log",
      async () => sum(await admin.fetchTopicOffsets(topic)) >= (await bookingStore.countEvents()),
      120_000,
    ).catch(() => undefined);

    const { rows } = await bookingPool.query<{ n: string; payload: string; events: string; streams: string }>(
      `SELECT count(*) AS n, avg(octet_length(data::text) + octet_length(metadata::text)) AS payload,
              pg_total_relation_size('events') AS events, pg_total_relation_size('streams') AS streams FROM events`,
    );
    const row = rows[0]!;
    const count = Number(row.n);
    const bookingLog = await readLog(bookingStore);
    const dir = kafkaLogDir();
    const sizes: ScaleFigure["sizes"] = {
      eventsPerBooking: round(bookingEvents / Math.max(booked, 1)),
      events: count,
      dataAndMetadataBytesPerEvent: round(Number(row.payload)),
      postgresBytesPerEvent: {
        eventsTable: round(Number(row.events) / count),
        eventsAndStreams: round((Number(row.events) + Number(row.streams)) / count),
      },
      kafkaMessageBytesPerEvent: round(
        bookingLog.reduce((n, e) => n + Buffer.byteLength(encodeBusMessage(e)) + e.streamId.length, 0) / bookingLog.length,
      ),
      kafkaLogBytesPerEvent: dir ? round(topicLogBytes(dir, topic) / count) : null,
      kafkaLogDir: dir,
    };
    say(`  sizes: ${JSON.stringify(sizes)}`);
    return { projector, relay, api: rounds, idleCpuMsPerSecond, sizes, loadAverage: { start, end: loadavg().map(round) } };
  } finally {
    await api?.stop();
    await admin.disconnect();
    await server.end();
    await syntheticPool.end();
    await bookingPool.end();
    await syntheticStore.close();
    await bookingStore.close();
    await synthetic.drop();
    await bookingDb.drop();
    await rm(c.mediaDir, { recursive: true, force: true });
  }
}
