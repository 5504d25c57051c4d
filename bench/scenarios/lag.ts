import { randomUUID } from "node:crypto";
import pg from "pg";
import { calendarStream } from "@booking/engine";
import {
  KafkaBusPublisher,
  PostgresEventStore,
  type BusPublisher,
  PostgresRelayCheckpoints,
  Relay,
  type NewEvent,
} from "@booking/event-store";
import { InProcessProjector, allProjections, migrateReadModels, startKafkaProjector, type RunnerHandle } from "@booking/projections";
import { createTestDatabase } from "@booking/testkit";
import { profiled } from "../lib/cpuprofile.ts";
import { batchingPool } from "../lib/pipelined-pool.ts";
import { now, say, sleep, summarise, type LatencySummary } from "../lib/stats.ts";

// Projector lag: from an append's commit (append() resolved) to the moment its row is visible in
// the read model, at a steady rate. Appends are BookingRequested events on 100 calendar streams;
// a watcher polls the bookings read model (one indexed query per millisecond or so) for the
// bookings still pending, so a lag carries up to about one poll (~1 ms) of measuring error.

export type LagFigure = {
  runner: string;
  ratePerSecond: number;
  events: number;
  lost: number;
  lag: LatencySummary;
  bound: string;
  pass: boolean;
  appendLatency: LatencySummary;
  /** Events the projections were handed (projection_checkpoints.events_applied) for the events appended: above 1x means redeliveries. */
  delivered: { appended: number; handedToProjections: number };
  /** Through Kafka: append to the relay's publish acknowledged, and from there to visible. */
  breakdown?: { appendToPublished: LatencySummary; publishedToVisible: LatencySummary };
};

/** When each booking's event was acknowledged by the bus (Kafka runner only). */
type Published = Map<string, number>;

type Runner = {
  name: string;
  start: (dbUrl: string, pool: pg.Pool, store: PostgresEventStore, published: Published) => Promise<{ stop: () => Promise<void> }>;
};

export const inProcessRunner: Runner = {
  name: "in-process (InProcessProjector, defaults as in the API process: woken by the store's appends, 250 ms poll as fallback)",
  start: async (_url, pool, store) => {
    const handle: RunnerHandle = new InProcessProjector(store, pool, allProjections, {
      onError: (e) => say(`  projector: ${(e as Error).message}`),
    }).start();
    return { stop: () => handle.stop() };
  },
};

export type InProcessExperiment = { name: string; idleMs?: number; pipelined?: boolean; wakeOnNotify?: boolean };

/**
 * The in-process runner in another setting, to measure it in the same run. The product's
 * InProcessProjector wakes on the store's announcements of appends (watchAppends) by itself now;
 * `wakeOnNotify` has it follow a store of its own, which hears the appends only through Postgres
 * NOTIFY, as a projector in a process of its own would. `pipelined`: its writes go through
 * node-postgres's pipeline mode (bench/lib/pipelined-pool.ts). `idleMs`: its fallback poll.
 */
export function inProcessExperiment(experiment: InProcessExperiment): Runner {
  return {
    name: `in-process, ${experiment.name}`,
    start: async (url, realPool, store) => {
      const batching = experiment.pipelined ? batchingPool(url, "pipeline") : null;
      const pool = batching?.pool ?? realPool;
      const own = experiment.wakeOnNotify ? await PostgresEventStore.connect(url, { poolSize: 2 }) : null;
      const handle = new InProcessProjector(own ?? store, pool, allProjections, {
        ...(experiment.idleMs !== undefined && { idleMs: experiment.idleMs }),
      }).start();
      return {
        stop: async () => {
          await handle.stop();
          await own?.close();
          await batching?.end();
        },
      };
    },
  };
}

export type KafkaExperiment = { name: string; pipelined?: boolean; relayIdleMs?: number };

export function kafkaRunner(brokers: string[], experiment?: KafkaExperiment): Runner {
  return {
    name: experiment
      ? `Kafka, ${experiment.name}`
      : "Kafka (Relay -> KafkaBusPublisher -> topic -> startKafkaProjector, defaults as in the relay and projector processes)",
    start: async (url, realPool, store, published) => {
      const batching = experiment?.pipelined ? batchingPool(url, "pipeline") : null;
      const pool = batching?.pool ?? realPool;
      const topic = `bench-lag-${randomUUID()}`;
      const publisher = await KafkaBusPublisher.connect({ brokers, topic });
      const checkpoints = await PostgresRelayCheckpoints.connect(pool);
      const timed: BusPublisher = {
        publish: async (events) => {
          await publisher.publish(events);
          const t = now();
          for (const e of events) {
            const id = (e.data as { bookingId?: string }).bookingId;
            if (id) published.set(id, t);
          }
        },
        close: () => publisher.close(),
      };
      const relay = new Relay(store, timed, checkpoints, {
        warn: (l) => say(`  ${l}`),
        ...(experiment?.relayIdleMs !== undefined && { idleMs: experiment.relayIdleMs }),
      }).start();
      // The offset fix is in the product now: both runs use the real runner.
      const consumer = await startKafkaProjector(pool, allProjections, {
        brokers,
        topic,
        groupId: `bench-${topic}`,
        onError: (e) => say(`  projector: ${(e as Error).message}`),
      });
      return {
        stop: async () => {
          await relay.stop();
          await consumer.stop();
          await publisher.close();
          await batching?.end();
        },
      };
    },
  };
}

/** A card payment of the booking, appended with its request (`paid`): a money event the ledger posts. */
function paymentEvent(bookingId: string, at: string): NewEvent {
  return {
    type: "PaymentSucceeded",
    data: { bookingId, paymentId: `sp-${bookingId}`, amountCents: 9_900, currency: "USD", feeBasisPoints: 1500, provider: "test" },
    metadata: { at, actor: { userId: "payments", role: "system" } },
  };
}

function bookingEvent(expertId: string, bookingId: string, at: string): NewEvent {
  const scheduled = new Date(Date.parse(at) + 86_400_000).toISOString();
  return {
    type: "BookingRequested",
    data: {
      bookingId,
      expertId,
      expertUserId: expertId,
      creatorId: "bench-creator",
      sessionId: "bench-session",
      sessionTitle: "Bench",
      lengthMinutes: 60,
      priceCents: 9_900,
      prepQuestions: ["Why?"],
      scheduledTime: scheduled,
      heldUntil: at,
    },
    metadata: { at, actor: { userId: "bench-creator", role: "creator" } },
  };
}

export async function benchLag(
  serverUrl: string,
  runner: Runner,
  options: {
    rate: number;
    seconds: number;
    bound: number;
    onSamples?: (lagsMs: readonly number[]) => void;
    /** Each request is appended with its payment (two events per append), so money read models have work. */
    paid?: boolean;
  },
): Promise<LagFigure> {
  const db = await createTestDatabase(serverUrl, "bench_lag");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 8 });
  const pool = new pg.Pool({ connectionString: db.url, max: 6 });
  pool.on("error", () => undefined);
  const watcher = new pg.Pool({ connectionString: db.url, max: 1 });
  watcher.on("error", () => undefined);
  await migrateReadModels(pool);
  const published: Published = new Map();
  const running = await runner.start(db.url, pool, store, published);
  const appendedAt = new Map<string, number>();
  const visibleAt = new Map<string, number>();
  const experts = Array.from({ length: 100 }, (_, i) => `lag${i}-${randomUUID().slice(0, 8)}`);
  const pending = new Map<string, number>();
  const lags: number[] = [];
  const appendTimes: number[] = [];
  let watching = true;
  const watch = (async () => {
    while (watching || pending.size) {
      if (pending.size) {
        const ids = [...pending.keys()];
        const { rows } = await watcher.query<{ booking_id: string }>("SELECT booking_id FROM bookings WHERE booking_id = ANY($1)", [ids]);
        const seen = now();
        for (const r of rows) {
          const appended = pending.get(r.booking_id);
          if (appended !== undefined) {
            lags.push(seen - appended);
            visibleAt.set(r.booking_id, seen);
            pending.delete(r.booking_id);
          }
        }
      }
      await sleep(1);
    }
  })();
  const append = async (n: number, record: boolean) => {
    const bookingId = `lag-${n}-${randomUUID().slice(0, 8)}`;
    const s = now();
    const at = new Date().toISOString();
    const expertId = experts[n % experts.length]!;
    const events = [bookingEvent(expertId, bookingId, at), ...(options.paid ? [paymentEvent(bookingId, at)] : [])];
    await store.append(calendarStream(expertId), events, "any");
    const t = now();
    if (record) {
      appendTimes.push(t - s);
      pending.set(bookingId, t);
      appendedAt.set(bookingId, t);
    }
  };
  try {
    // Warm up until the runner shows an event (Kafka: the consumer has joined its group).
    const first = `lag-warm-${randomUUID().slice(0, 8)}`;
    await store.append(calendarStream(experts[0]!), [bookingEvent(experts[0]!, first, new Date().toISOString())], "any");
    const deadline = now() + 60_000;
    while ((await watcher.query("SELECT 1 FROM bookings WHERE booking_id = $1", [first])).rowCount === 0) {
      if (now() > deadline) throw new Error(`${runner.name}: the warm-up event never became visible`);
      await sleep(5);
    }
    // A steady rate: event i is appended at start + i / rate, whatever the previous one's latency.
    const total = Math.round(options.rate * options.seconds);
    const interval = 1000 / options.rate;
    const warm = Math.round(options.rate); // the first second is not recorded
    const t0 = now();
    const inFlight: Promise<void>[] = [];
    await profiled(`lag-${runner.name.split(" ")[0]}`, async () => {
      for (let i = 0; i < total + warm; i++) {
        const due = t0 + i * interval;
        const wait = due - now();
        if (wait > 0.5) await sleep(wait);
        inFlight.push(append(i, i >= warm));
      }
      await Promise.all(inFlight);
    });
    const drainDeadline = now() + 30_000;
    while (pending.size && now() < drainDeadline) await sleep(10);
    watching = false;
    const lost = pending.size;
    pending.clear();
    await watch;
    const lag = summarise(lags);
    options.onSamples?.(lags);
    const { rows: applied } = await pool.query<{ n: string }>("SELECT max(events_applied) AS n FROM projection_checkpoints");
    const delivered = { appended: total + warm + 1, handedToProjections: Number(applied[0]?.n ?? 0) };
    let breakdown: LagFigure["breakdown"];
    if (published.size) {
      const toPublished: number[] = [];
      const toVisible: number[] = [];
      for (const [id, appended] of appendedAt) {
        const p = published.get(id);
        const v = visibleAt.get(id);
        if (p === undefined || v === undefined) continue;
        toPublished.push(p - appended);
        toVisible.push(v - p);
      }
      breakdown = { appendToPublished: summarise(toPublished), publishedToVisible: summarise(toVisible) };
    }
    return {
      runner: runner.name,
      ratePerSecond: options.rate,
      events: total,
      lost,
      lag,
      bound: `p99 < ${options.bound} ms`,
      pass: lost === 0 && lag.p99Ms < options.bound,
      appendLatency: summarise(appendTimes),
      delivered,
      ...(breakdown && { breakdown }),
    };
  } finally {
    watching = false;
    pending.clear();
    await watch.catch(() => undefined);
    await running.stop();
    await watcher.end();
    await pool.end();
    await store.close();
    await db.drop();
  }
}
