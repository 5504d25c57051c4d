import type pg from "pg";
import type { Registry } from "prom-client";
import type { z } from "zod";
import type { EventLog } from "@booking/contracts";
import type { BusPublisher, EventStore } from "@booking/event-store";
import type { Readiness } from "../health/index.ts";
import { serveMetrics, type MetricsEndpoint } from "./process-endpoint.ts";
import { processMetrics, projectorBatchSizes, relayBatchSizes } from "./registry.ts";
import { metricsSettings, type metricsConfig } from "./settings.ts";
import { tableGauges } from "./table-gauges.ts";

/** What a process scrapes: its own counters and the tables' gauges over its database and log. */
export function processRegistries(db: pg.Pool, log: EventStore | null): Registry[] {
  return [processMetrics, tableGauges({ db, log })];
}

/**
 * A background process's /metrics, /healthz and /readyz on METRICS_PORT; null when no port is
 * given (then nothing listens: such a process has no public port to fall back on).
 */
export async function serveProcessMetrics(
  config: z.output<typeof metricsConfig>,
  parts: { db: pg.Pool; log: EventStore | null; readiness: () => Promise<Readiness> },
): Promise<MetricsEndpoint | null> {
  const settings = metricsSettings(config);
  if (settings.port === null) return null;
  return serveMetrics({
    settings: { ...settings, port: settings.port },
    registries: processRegistries(parts.db, parts.log),
    readiness: parts.readiness,
  });
}

/** The log as a projector reads it: the size of every batch that brought events is observed. */
export function projectorReadsCounted<L extends EventLog>(log: L): L {
  const readAll: EventLog["readAll"] = async (after, limit) => {
    const batch = await log.readAll(after, limit);
    if (batch.length > 0) projectorBatchSizes.observe(batch.length);
    return batch;
  };
  return new Proxy(log, {
    get: (target, property) => {
      if (property === "readAll") return readAll;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The bus as the relay publishes to it: the size of every batch the bus accepted is observed. */
export function relayBatchesCounted(publisher: BusPublisher): BusPublisher {
  return {
    publish: async (events) => {
      await publisher.publish(events);
      relayBatchSizes.observe(events.length);
    },
    close: () => publisher.close(),
  };
}
