import { z } from "zod";

// Who may read /metrics (issue 35.4). Prometheus sends METRICS_TOKEN as a bearer token; or the
// metrics are served on METRICS_PORT only, a port kept off the public network. Given neither, a
// production process serves them to nobody, and a development one (npm start) to its own machine.

export const metricsConfig = z.object({
  /** The bearer token /metrics asks for (Prometheus' `authorization: { credentials }`); at least 24 characters. */
  METRICS_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
  /** Serve /metrics (and, for the background processes, /healthz and /readyz) on this port instead of the public one. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** Where that port listens (default all interfaces: inside a container network). */
  METRICS_HOST: z.string().default("0.0.0.0"),
  NODE_ENV: z.string().optional(),
});

export type MetricsSettings = {
  token: string | null;
  port: number | null;
  host: string;
  /** Without a token or a port, production serves /metrics to nobody; elsewhere to loopback callers only. */
  production: boolean;
};

export function metricsSettings(config: z.output<typeof metricsConfig>): MetricsSettings {
  return {
    token: config.METRICS_TOKEN ?? null,
    port: config.METRICS_PORT ?? null,
    host: config.METRICS_HOST,
    production: config.NODE_ENV === "production",
  };
}

/** From the environment, for the API's app (its server passes no metrics settings yet): one that does not parse serves nobody. */
export function metricsSettingsFromEnvironment(env: Record<string, string | undefined> = process.env): MetricsSettings {
  const parsed = metricsConfig.safeParse(env);
  return parsed.success ? metricsSettings(parsed.data) : { token: null, port: null, host: "0.0.0.0", production: true };
}
