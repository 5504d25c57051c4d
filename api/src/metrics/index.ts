// What other areas use of metrics/: they import it from here, never from its files (eslint.config.js).

export { CountedCommandHandler, commandType, snapshotReadsCounted, withMethod } from "./command-metrics.ts";
export { installMetrics, metricsSummaryRoutes } from "./routes.ts";
export { processRegistries, projectorReadsCounted, relayBatchesCounted, serveProcessMetrics } from "./process-metrics.ts";
export { serveMetrics } from "./process-endpoint.ts";
export type { MetricsEndpoint } from "./process-endpoint.ts";
export { metricsConfig, metricsSettings, metricsSettingsFromEnvironment } from "./settings.ts";
export type { MetricsSettings } from "./settings.ts";
export { MetricsSummaryReply } from "./summary.ts";
