import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { calendarDecider, calendarSnapshots, calendarStream } from "@booking/engine";
import { CommandHandler, PostgresEventStore, PostgresSnapshotStore, type EventStore, type NewEvent } from "@booking/event-store";
import { createTestDatabase } from "@booking/testkit";
import { ALL_WEEK_UTC, midnightUtc, requestBooking, type SeededExpert } from "../lib/seed.ts";
import { ratio, round, say, sleep } from "../lib/stats.ts";

// A cold decision on a long calendar: a handler with an empty cache (a new process, or the first
// command on that expert since the process started) books a free hour for an expert with 1,000,
// 10,000 or 50,000 past bookings, folding the whole stream (without snapshots) or reading the
// calendar's snapshot and the events after it (with). Past bookings are written straight to the
// store in batches, four events each (requested, paid under an idempotency key, confirmed,
// completed), long closed; 20 upcoming confirmed bookings stay open. Without and with alternate,
// each on a fresh handler over the same warm pool, so load shifts both alike.

export type ColdDecisionSize = {
  pastBookings: number;
  events: number;
  without: { medianMs: number; maxMs: number; cpuMs: number; eventsRead: number };
  with: { medianMs: number; maxMs: number; cpuMs: number; eventsRead: number; snapshotBytes: number };
};

export type ColdDecisionFigure = { sizes: ColdDecisionSize[]; rounds: number; ratioAt50k: number | null; bound: string; pass: boolean };

const PER_BOOKING = 4;
const BATCH = 2_000;

/** Writes an expert's calendar with `past` closed bookings and 20 open ones; returns the expert. */
export async function longCalendar(store: EventStore, past: number, now: Date): Promise<SeededExpert> {
  const expert = { expertId: `cold-${past}-${randomUUID().slice(0, 8)}`, sessionId: `cold-s-${past}`, priceCents: 5_000 };
  const { expertId } = expert;
  const metadata = { at: new Date(now.getTime() - 400 * 86_400_000).toISOString() };
  const booking = (i: number, scheduledTime: string, closed: boolean): NewEvent[] => {
    const bookingId = `${expertId}-${i}`;
    const events: NewEvent[] = [
      {
        type: "BookingRequested",
        data: {
          bookingId,
          expertId,
          expertUserId: expertId,
          creatorId: `cold-c-${i % 997}`,
          sessionId: expert.sessionId,
          sessionTitle: "Brand deal review",
          lengthMinutes: 60,
          priceCents: 5_000,
          prepQuestions: ["Goal?"],
          scheduledTime,
          heldUntil: scheduledTime,
        },
        metadata,
      },
      {
        type: "PaymentSucceeded",
        data: { bookingId, paymentId: `pi-${bookingId}`, amountCents: 5_000, provider: "bench" },
        metadata: { ...metadata, idempotencyKey: `payment-pi-${bookingId}` },
      },
      { type: "Confirmed", data: { bookingId, by: "expert" }, metadata },
    ];
    if (closed) events.push({ type: "Completed", data: { bookingId }, metadata });
    return events;
  };
  const stream = calendarStream(expertId);
  let version = 0;
  let batch: NewEvent[] = [{ type: "ScheduleSet", data: { expertId, ...ALL_WEEK_UTC }, metadata }];
  const flush = async () => {
    await store.append(stream, batch, version === 0 ? "no_stream" : version);
    version += batch.length;
    batch = [];
  };
  // Past hours, the newest 60 days ago, going back one hour each (50,000 reach back about six years).
  const newestPast = now.getTime() - 60 * 86_400_000;
  for (let i = 0; i < past; i++) {
    batch.push(...booking(i, new Date(newestPast - i * 3_600_000).toISOString(), true));
    if (batch.length >= BATCH) await flush();
  }
  const tomorrow = midnightUtc(now, 1).getTime();
  for (let i = 0; i < 20; i++) batch.push(...booking(past + i, new Date(tomorrow + (i * 2 + 1) * 3_600_000).toISOString(), false));
  await flush();
  return expert;
}

export async function benchColdDecision(serverUrl: string, options: { sizes: number[]; rounds: number }): Promise<ColdDecisionFigure> {
  const db = await createTestDatabase(serverUrl, "bench_cold");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 4 });
  const snapshots = await PostgresSnapshotStore.connect(store.pool);
  const clock = () => new Date().toISOString();
  const sizes: ColdDecisionSize[] = [];
  try {
    for (const past of options.sizes) {
      const t0 = performance.now();
      const expert = await longCalendar(store, past, new Date());
      const stream = calendarStream(expert.expertId);
      // The snapshot a running process writes after folding the calendar once.
      const writer = new CommandHandler(store, calendarDecider, { clock, snapshots: { store: snapshots, codec: calendarSnapshots } });
      await writer.load(stream);
      await writer.snapshotsWritten();
      const snapshotBytes = Number(
        (await store.pool.query<{ n: string }>("SELECT pg_column_size(state) AS n FROM snapshots WHERE stream_id = $1", [stream])).rows[0]
          ?.n ?? 0,
      );
      say(
        `   ${past.toLocaleString("en")} past bookings written and snapshotted in ${Math.round(performance.now() - t0)} ms (snapshot ${snapshotBytes} bytes)`,
      );

      const samples = { without: [] as number[], with: [] as number[] };
      const read = { without: 0, with: 0 };
      // This process's CPU per decision (the database's is not in it): steadier than wall time on a loaded machine.
      const cpuMs = { without: [] as number[], with: [] as number[] };
      // Free hours on day 3 onward, one per decision: no decision is refused.
      const day3 = midnightUtc(new Date(), 3).getTime();
      let hour = 0;
      // 00:00 to 22:00 each day: a 60-minute session at 23:00 would end past the schedule's 23:30.
      const freeHour = (n: number) => new Date(day3 + (Math.floor(n / 23) * 24 + (n % 23)) * 3_600_000).toISOString();
      for (let r = 0; r < options.rounds; r++) {
        // Three decisions from the snapshot for each whole fold: the short figure needs more samples to be steady under load.
        for (const variant of ["without", "with", "with", "with"] as const) {
          let eventsRead = 0;
          const counting: EventStore = Object.assign(Object.create(store) as EventStore, {
            readStream: async (id: string, o?: { afterVersion?: number }) => {
              const result = await store.readStream(id, o);
              eventsRead += result.events.length;
              return result;
            },
          });
          // A pause first, so the collector has put away what the last whole fold left behind.
          await sleep(200);
          const handler = new CommandHandler(counting, calendarDecider, {
            clock,
            ...(variant === "with" && { snapshots: { store: snapshots, codec: calendarSnapshots } }),
          });
          const cpu = process.cpuUsage();
          const start = performance.now();
          const result = await handler.handle(stream, requestBooking(expert, `cold-c-${r}`, freeHour(hour++)));
          const ms = performance.now() - start;
          const used = process.cpuUsage(cpu);
          cpuMs[variant].push((used.user + used.system) / 1000);
          if (!result.ok) throw new Error(`cold decision refused: ${result.refusal.code}`);
          samples[variant].push(ms);
          read[variant] = eventsRead;
          await handler.snapshotsWritten();
        }
      }
      const med = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
      const size: ColdDecisionSize = {
        pastBookings: past,
        events: past * PER_BOOKING + 1 + 20 * 3,
        without: {
          medianMs: med(samples.without),
          maxMs: round(Math.max(...samples.without)),
          cpuMs: med(cpuMs.without),
          eventsRead: read.without,
        },
        with: {
          medianMs: med(samples.with),
          maxMs: round(Math.max(...samples.with)),
          cpuMs: med(cpuMs.with),
          eventsRead: read.with,
          snapshotBytes,
        },
      };
      say(
        `   ${past.toLocaleString("en")}: without snapshots ${size.without.medianMs} ms (max ${size.without.maxMs}, CPU ${size.without.cpuMs} ms, ${size.without.eventsRead} events read); with ${size.with.medianMs} ms (max ${size.with.maxMs}, CPU ${size.with.cpuMs} ms, ${size.with.eventsRead} events read); load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")}`,
      );
      sizes.push(size);
    }
  } finally {
    await store.close();
    await db.drop();
  }
  const at50k = sizes.find((s) => s.pastBookings === 50_000);
  return {
    sizes,
    rounds: options.rounds,
    ratioAt50k: at50k ? ratio(at50k.with.medianMs, at50k.without.medianMs) : null,
    bound: "with snapshots at 50,000 past bookings <= 10 ms",
    pass: at50k ? at50k.with.medianMs <= 10 : false,
  };
}
