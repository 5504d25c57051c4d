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
      "A rebuild fills a new generation (blue-green, projections/src/rebuild.ts): its tables are made without indexes, the log is read in batches of 5,000 and folded in memory with each read model's own rule (fold.ts, as the runners' batches do), facts are written with COPY after each batch and entity rows once at the end, then the indexes are built and the tables analyzed, two at a time, before the switch.",
      "Past 250,000 held rows the fill writes what it holds and goes on batch by batch. Issue 19's goal is 0.5: what remains is Node's CPU, about 1.35 s per 100,000 events (reading and parsing the log about 0.65 s, zod validation 0.18 s, folding 0.3 s, COPY encoding 0.3 s), with Postgres at about 1 s.",
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
    const pb = a.postBookings;
    notes.postBookings = [
      `POST /bookings: ${pb.requestsPerSecond} req/s, p50 ${pb.p50Ms} ms, p99 ${pb.p99Ms} ms (goals >= ${pb.goals.requestsPerSecond} req/s, p99 <= ${pb.goals.p99Ms} ms); ${pb.statements} statements per request once the expert's calendar is in the handler's memory (${pb.statementsColdCalendar} on the first booking of an expert; goal <= ${pb.goals.statements}).`,
      "Counted as the pool sends them: the creator's lock with the previous turn's write, the checkpoints and every read the booking needs (the creator's other bookings, the session, the terms acceptance, both names) in one round trip, the append (group commit: concurrent bookings share it), the NOTIFY announcing the append, and the turn's end (its position, in a transaction committed before the unlock: issue 34.2) with the unlock in one round trip.",
      "Since issue 34.1 the reply does not wait for the projection (the next request of the same creator does, under the lock, if the read models are behind); the rate did not move with it (313 req/s before, 297-402 after in quick runs), so the projection wait was not what held it: on 2 cores the load generator, the API with its projector and reactors, and Postgres share them, and the API's process was a third idle in a profile of this scenario.",
    ].join(" ");
    notes.getAvailability = `GET /sessions/{id}/availability: ${a.getAvailability.requestsPerSecond} req/s, p50 ${a.getAvailability.p50Ms} ms, p99 ${a.getAvailability.p99Ms} ms (goals >= 3,000 req/s, p99 <= 10 ms). The session and the calendar come from their streams, kept in memory while no append is announced (api/src/availability/stream-states.ts; another process's appends arrive by NOTIFY, and 5 s bounds a lost one), and the answer's serialised reply is remembered per calendar version and range: 0 statements while nothing is appended, one round trip after an append (the statement count above is taken right after a booking). Announcements name the streams they cover (a NOTIFY too large to name them, over 7,000 bytes, says "any stream"), so a booking sends only its expert's calendar to the store again; the mixed row (1 POST /bookings per 9 GETs about other experts) measures the route under booking traffic.`;
  }
  const av = d.availability;
  if (av) {
    notes.availability = `28 days for a typical Europe/London expert: p50 ${av.typical.latency.p50Ms} ms, p99 ${av.typical.latency.p99Ms} ms; the densest schedule: p50 ${av.dense.latency.p50Ms} ms. Wall-clock readings of instants are remembered per zone process-wide (luxon's offset lookup through Intl was ~60% of the time).`;
  }
  const sa = d.storeAppends;
  if (sa) {
    notes.storeAppends = [
      `Store appends with ${sa.clients} clients: ${sa.appendsPerSecond}/s with group commit, ${sa.withoutGroupCommit.perSecond}/s without; single-row INSERT transactions ${sa.insert.perSecond}/s, Emmett's PostgreSQL store ${sa.emmett.perSecond}/s.`,
      `Ratios: ${sa.ratioToInsert} of INSERT (goal ${sa.bounds.insert}), ${sa.ratioToEmmett} of Emmett (goal ${sa.bounds.emmett}).`,
      "Group commit sends appends that arrive while a batch is written as the next batch: one statement and one commit, each stream's expectation decided on its own. With only 8 clients, Postgres already flushes the 8 concurrent INSERT commits together, so the batch saves commits that the baseline does not pay either, and adds a round trip in which nothing else is sent.",
    ].join(" ");
  }
  const cd = d.coldDecision;
  if (cd) {
    notes.coldDecision = `A cold decision (a new handler, one booking request) on calendars of ${cd.sizes.map((z) => z.pastBookings.toLocaleString("en-US")).join(" / ")} past bookings: ${cd.sizes.map((z) => `${z.without.medianMs} ms folding the whole stream (${z.without.eventsRead.toLocaleString("en-US")} events), ${z.with.medianMs} ms from the snapshot (${z.with.eventsRead} events)`).join("; ")}. The snapshot holds the calendar without its closed bookings (completed or cancelled, nothing owed, ended over 30 days ago), their ids in a fixed-size filter; a command that may be about one is decided on the whole stream.`;
  }
  return notes;
}
