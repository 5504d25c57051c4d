import type { BenchDocument } from "./run.ts";

// The note beside each figure: why it is where it is and what would move it, quoting the
// experiments measured in the same run (bench/lib: one-trip-store, pipelined-pool,
// luxon-memo). Causes come from CPU profiles (BENCH_PROFILE_DIR=dir) and
// EXPLAIN ANALYZE of the statements each route sends (api.queries).

const f = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? "?" : String(n));

export function notesFor(d: BenchDocument): Record<string, string> {
  const notes: Record<string, string> = {};
  const c = d.bookingCommands;
  if (c) {
    notes.bookingCommands = [
      `${c.pass ? "Within" : "Below"} the bound: ${c.commandsPerSecond} commands/s is ${c.ratio} of ${c.baseline.perSecond} single-row INSERTs/s; a command sends ${c.roundTripsPerCommand} statement(s) once the stream is in the handler's memory.`,
      "COMMANDS_NOTE",
    ].join(" ");
  }
  const r = d.replay;
  if (r) {
    const x = r.experiments ?? {};
    const pipe = Object.entries(x).find(([k]) => k.startsWith("statements pipelined"))?.[1];
    const oneQ = Object.entries(x).find(([k]) => k.includes("multi-statement"))?.[1];
    notes.replay = [
      `${r.pass ? "Within" : "Below"} the bound: ${r.eventsPerSecond} events/s is ${r.ratio} of COPY's ${r.baseline.rowsPerSecond} rows/s. Reading the whole log alone runs at ${r.readLogOnly.eventsPerSecond} events/s, so reading is not the cost.`,
      `Cause: projections/src/apply.ts awaits each statement (${r.statementsPerEvent} per event, plus a checkpoint UPDATE per projection per batch), one round trip each; the CPU profile of the rebuild is ~75% idle, waiting on Postgres.`,
      `Measured here: the same statements pipelined (node-postgres ${"`pipeline: true`"}, all writes of a batch sent without awaiting, awaited once before COMMIT) run at ${f(pipe?.eventsPerSecond)} events/s (ratio ${f(pipe?.ratioToCopy)}, x${f(pipe?.speedup)}, read models identical: ${pipe?.identicalReadModels}); sent as one multi-statement query they run at ${f(oneQ?.eventsPerSecond)} events/s (parsing each statement costs more than the round trip saved).`,
      `To reach a fifth of COPY: set-based writes per batch and projection — booking_events as one INSERT ... SELECT FROM unnest(...) ON CONFLICT DO NOTHING; bookings folded in memory per booking_id within the batch (a rebuild sees BookingRequested and its updates together) and written as one INSERT/UPDATE ... FROM unnest; one UPDATE for all checkpoints; plus pipelining for what remains.`,
    ].join(" ");
  }
  const l = d.projectorLag;
  if (l.inProcess) {
    const x = l.experiments ?? {};
    const n = x["in-process, woken by NOTIFY"];
    const np = x["in-process, woken by NOTIFY, writes pipelined"];
    notes.projectorLagInProcess = [
      `${l.inProcess.pass ? "Within" : "Over"} the bound: p99 ${l.inProcess.lag.p99Ms} ms (p50 ${l.inProcess.lag.p50Ms} ms).`,
      `${l.inProcess.pass ? "Where the time goes" : "Cause"}: InProcessProjector sleeps idleMs = 20 ms after a short batch (up to 20 ms before it even looks), then spends a round trip per statement of the batch: readCheckpoints, readAll, BEGIN, the checkpoint rows FOR UPDATE, about 2 statements per event, one checkpoint UPDATE per read model (8), COMMIT.`,
      `Measured here: woken by the store's NOTIFY (LISTEN events_appended, as PostgresEventStore.subscribe already does; poll as fallback): p99 ${f(n?.lag.p99Ms)} ms; plus pipelined writes: p99 ${f(np?.lag.p99Ms)} ms.`,
    ].join(" ");
  }
  if (l.kafka || l.kafkaSkipped) {
    const x = l.experiments ?? {};
    const fixed = x["Kafka, offsets resolved"];
    const all = x["Kafka, offsets resolved, writes pipelined, relay idle 5 ms"];
    notes.projectorLagKafka = l.kafka
      ? [
          `${l.kafka.pass ? "Within" : "Over"} the bound: p99 ${l.kafka.lag.p99Ms} ms (p50 ${l.kafka.lag.p50Ms} ms; append to Kafka ack p50 ${f(l.kafka.breakdown?.appendToPublished.p50Ms)} ms, ack to visible p50 ${f(l.kafka.breakdown?.publishedToVisible.p50Ms)} ms).`,
          "Cause, a bug: projections/src/runners/kafka-consumer.ts runs eachBatch with eachBatchAutoResolve: false and never calls resolveOffset, and kafkajs fetches from the last RESOLVED offset, so every fetch starts again where the consumer joined: the same messages are applied again and again (here ${l.kafka.delivered.handedToProjections} events handed to the projections for ${l.kafka.delivered.appended} appended), and once a partition holds more than maxBytesPerPartition (1 MB) past that point the newer events are never fetched until a rebalance: the Kafka projector stalls (bench/reliability/kafka.test.ts shows it with 20,000 events).",
          `Fix: call resolveOffset(last.offset) from the eachBatch payload after applyBatch succeeds (before commitOffsets). Measured here with that one line: p99 ${f(fixed?.lag.p99Ms)} ms; with pipelined writes and the relay's idle poll at 5 ms instead of 50: p99 ${f(all?.lag.p99Ms)} ms.`,
        ].join(" ")
      : `Not measured: ${l.kafkaSkipped}.`;
  }
  const a = d.api;
  if (a) {
    const miss = a.queries["GET /experts"]?.plans[1];
    const c = a.listingsCache;
    notes.getExperts = [
      `${a.getExperts.pass ? "Within" : "Below"} the bound: ${a.getExperts.requestsPerSecond} req/s is ${a.getExperts.ratioToBare} of the bare route's ${a.bare.requestsPerSecond}/s.`,
      "The API keeps the serialised listing, one per search term, and serves it while the experts and sessions checkpoints stay the same, compared with a checkpoint read at most 20 ms old that all requests share; its own writes drop the cache once read-your-writes has waited for them, and a 5 s TTL catches changes made by hand.",
      `In this run: ${c.hits} hits, ${c.misses} misses, ${c.checkpointReads} checkpoint reads. What remains per request is sending ${a.getExperts.bytesPerResponse} bytes: a bare Fastify route sending the same body from memory manages ${a.bareServingExpertsBody.requestsPerSecond}/s (${a.bareServingExpertsBody.ratioToBare} of bare). When that reference itself falls below a third (the CPU taken by other work), no server-side change that keeps the body can meet the bound; paginating the listing (500 experts, no page size in the spec) would.`,
      `A miss runs the listing query (${miss ? `${miss.executionMs} ms in Postgres` : "see api.queries"}): a sort of every published expert; an index on experts (verified DESC, last_name, first_name, expert_id) WHERE published would halve it. Booking traffic moves the sessions and experts checkpoints too, so it empties the cache; a per-read-model "rows changed" marker would keep it.`,
    ].join(" ");
    const bq = a.queries["POST /bookings"];
    notes.postBookings = `POST /bookings sends ${bq?.perRequest ?? "?"} statements per request, a fixed number: three reads of what is new in the terms, session and calendar streams since the handler last saw them, the one-statement append, the sign-in check, read-your-writes polling of projection_checkpoints until the projector has applied the write, and the booking read back. Latency p50 ${a.postBookings.p50Ms} ms is mostly that wait; the projector announcing each committed batch (as appends are announced) would replace the polling.`;
    notes.getAvailability = `GET /sessions/{id}/availability: ${a.getAvailability.requestsPerSecond} req/s, p50 ${a.getAvailability.p50Ms} ms; three indexed reads (each well under 1 ms by EXPLAIN ANALYZE), so the time is bookableStarts (see availability).`;
  }
  const av = d.availability;
  if (av) {
    notes.availability = `28 days for a typical Europe/London expert: p50 ${av.typical.latency.p50Ms} ms, p99 ${av.typical.latency.p99Ms} ms; the densest schedule: p50 ${av.dense.latency.p50Ms} ms. Wall-clock readings of instants are remembered per zone process-wide (luxon's offset lookup through Intl was ~60% of the time).`;
  }
  return notes;
}
