import type { BenchDocument } from "./run.ts";

// The note beside each figure: why it is where it is and what would move it, quoting the
// experiments measured in the same run (bench/lib/pipelined-pool.ts). Causes come from CPU
// profiles (BENCH_PROFILE_DIR=dir) and EXPLAIN ANALYZE of the statements each route sends
// (api.queries).

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
    notes.replay = [
      `${r.pass ? "Within" : "Below"} the bound: ${r.eventsPerSecond} events/s is ${r.ratio} of COPY's ${r.baseline.rowsPerSecond} rows/s (measured interleaved, ${r.rounds} of each; reading the log alone: ${r.readLogOnly.eventsPerSecond} events/s).`,
      "It was 3,085 events/s (0.067) while projections/src/apply.ts awaited about 2 statements per event.",
      "Now each read model is a pure function from events to rows; a batch reads the rows it concerns once per read model, folds its events onto them in memory (the stream_version guard before evolve and again in SQL), and writes each changed row once (INSERT ... SELECT FROM jsonb_populate_recordset ... ON CONFLICT), with one UPDATE for all checkpoints:",
      `${r.statementsPerEvent} statements per event. Row reads are planned each time, because a plan cached while a rebuilt table was empty scanned the whole table.`,
      "The rebuild reads and parses the next batch while writing the current one, and writes the facts and entity read models in two transactions at once, each with its checkpoints (in one transaction, Postgres and Node each spent about 2 s of CPU per 100k events, taking turns).",
      "What remains is Postgres inserting about 130k rows and Node validating events with zod and folding them.",
    ].join(" ");
  }
  const l = d.projectorLag;
  const x = l.experiments ?? {};
  if (l.inProcess) {
    const own = x["projector in a process of its own (woken by NOTIFY)"];
    const ownPipelined = x["projector in a process of its own, writes pipelined"];
    notes.projectorLagInProcess = [
      `${l.inProcess.pass ? "Within" : "Over"} the bound: p99 ${l.inProcess.lag.p99Ms} ms (p50 ${l.inProcess.lag.p50Ms} ms); it was 57 ms while InProcessProjector slept 20 ms after every short batch.`,
      "It now wakes on the store's watchAppends (at once for appends of this process, by a NOTIFY sent after commit for others). An append announced during a batch makes it go again; one not yet readable because an older transaction is still open is looked for again after 10 ms; polling (250 ms) is only the fallback.",
      "A batch costs about 5 statements plus at most 2 per read model it touches.",
      `Measured here: a projector on a store of its own, woken only by NOTIFY as a separate projector process is: p99 ${f(own?.lag.p99Ms)} ms; with pipelined writes as well: p99 ${f(ownPipelined?.lag.p99Ms)} ms.`,
    ].join(" ");
  }
  if (l.kafka || l.kafkaSkipped) {
    const tuned = x["Kafka, writes pipelined, relay idle 5 ms"];
    notes.projectorLagKafka = l.kafka
      ? [
          `${l.kafka.pass ? "Within" : "Over"} the bound: p99 ${l.kafka.lag.p99Ms} ms (p50 ${l.kafka.lag.p50Ms} ms; append to Kafka ack p50 ${f(l.kafka.breakdown?.appendToPublished.p50Ms)} ms, ack to visible p50 ${f(l.kafka.breakdown?.publishedToVisible.p50Ms)} ms).`,
          `The relay wakes on appends, the consumer resolves its offsets (${l.kafka.delivered.handedToProjections} events handed to the projections for ${l.kafka.delivered.appended} appended; before that fix every fetch started over and a partition past 1 MB stalled), and each batch from Kafka is one transaction with set-based writes.`,
          `What remains per batch: the Postgres transaction, then commitOffsets, awaited before the next fetch. Measured here with pipelined writes and the relay's poll at 5 ms: p99 ${f(tuned?.lag.p99Ms)} ms.`,
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
      `Requests ask for gzip, as browsers do: the cached reply's gzip form is made once per entry, so a request sends ${a.getExperts.bytesPerResponse} bytes instead of ${a.getExpertsUncompressed.bytesPerResponse}. Without Accept-Encoding: ${a.getExpertsUncompressed.requestsPerSecond}/s (${a.getExpertsUncompressed.ratioToBare} of bare); a bare route sending the uncompressed body from memory manages ${a.bareServingExpertsBody.requestsPerSecond}/s (${a.bareServingExpertsBody.ratioToBare}), so for a client that takes no gzip the size of the body (500 experts, no page size in the spec) is the limit, and paginating would lift it.`,
      `In this run: ${c.hits} hits, ${c.misses} misses, ${c.checkpointReads} checkpoint reads.`,
      `A miss runs the listing query (${miss ? `${miss.executionMs} ms in Postgres` : "see api.queries"}), which reads published experts in order from the experts_listing index. Booking traffic moves the sessions and experts checkpoints too, so it empties the cache; a per-read-model "rows changed" marker would keep it.`,
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
