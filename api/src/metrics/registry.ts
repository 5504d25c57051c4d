import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

// What this process counts as it works (requests, commands, appends, batches, snapshot reads): one
// registry per process, since prom-client's counters are module state. What lives in Postgres
// (outbox, refunds, payouts, holds, lag) is read at scrape time instead (table-gauges.ts), so any
// process reports it without wiring. Labels are route patterns, command types, outcomes and
// catalogue codes only: never an id, an address or anything a person typed.

export const processMetrics = new Registry();
// CPU, memory, event-loop delay and GC of this process, under their usual names.
collectDefaultMetrics({ register: processMetrics });

export const httpRequests = new Counter({
  name: "booking_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status code",
  labelNames: ["method", "route", "status"] as const,
  registers: [processMetrics],
});

export const httpRequestSeconds = new Histogram({
  name: "booking_http_request_duration_seconds",
  help: "Time from a request's arrival to its reply, by method, route pattern and status code",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processMetrics],
});

/** accepted: events written or nothing to write; replayed: an idempotent repeat; refused: a rule said no; conflict: retries ran out; error: it threw. */
export type CommandOutcome = "accepted" | "replayed" | "refused" | "conflict" | "error";

export const commandsHandled = new Counter({
  name: "booking_commands_total",
  help: "Commands decided, by handler, command type and outcome (refused carries the catalogue code as reason)",
  labelNames: ["handler", "command", "outcome", "reason"] as const,
  registers: [processMetrics],
});

export const commandConflicts = new Counter({
  name: "booking_command_conflicts_retried_total",
  help: "Appends that lost a race to another writer and were decided again, by handler and command type",
  labelNames: ["handler", "command"] as const,
  registers: [processMetrics],
});

const SIZES = [1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000, 5000];

export const appendSizes = new Histogram({
  name: "booking_append_events",
  help: "Events written per append by the command handlers, by handler",
  labelNames: ["handler"] as const,
  buckets: SIZES,
  registers: [processMetrics],
});

export const projectorBatchSizes = new Histogram({
  name: "booking_projector_batch_events",
  help: "Events per batch read from the log by this process's projector (empty reads are not counted)",
  buckets: SIZES,
  registers: [processMetrics],
});

export const relayBatchSizes = new Histogram({
  name: "booking_relay_batch_events",
  help: "Events per batch the relay published to the bus",
  buckets: SIZES,
  registers: [processMetrics],
});

export const snapshotReads = new Counter({
  name: "booking_snapshot_reads_total",
  help: "Cold loads of a calendar that asked for its snapshot: hit (one was read) or miss (folded from the first event)",
  labelNames: ["result"] as const,
  registers: [processMetrics],
});
