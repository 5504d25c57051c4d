import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Registry } from "prom-client";
import { requireActor, type RoutePlugin } from "../http/index.ts";
import { metricsAccess } from "./access.ts";
import { serveMetrics, scrape, type MetricsEndpoint } from "./process-endpoint.ts";
import { installRequestMetrics } from "./request-metrics.ts";
import type { MetricsSettings } from "./settings.ts";
import { MetricsSummaryReply, metricsSummary } from "./summary.ts";

export type MetricsRouteDeps = { registries: readonly Registry[]; settings: MetricsSettings };

/**
 * GET /metrics (Prometheus' text format) beside the API, outside /api/v1: on the public port with
 * METRICS_TOKEN (or from loopback outside production), or on METRICS_PORT alone when that is set.
 * Every request is counted from here on, by route pattern and status.
 */
export async function installMetrics(app: FastifyInstance, { registries, settings }: MetricsRouteDeps): Promise<void> {
  installRequestMetrics(app);
  if (settings.port !== null) {
    const port = settings.port;
    let endpoint: MetricsEndpoint | null = null;
    app.addHook("onListen", async () => {
      endpoint = await serveMetrics({ settings: { ...settings, port }, registries });
    });
    app.addHook("onClose", async () => endpoint?.close());
    return;
  }
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    const access = metricsAccess(settings, {
      authorization: request.headers.authorization,
      remoteAddress: request.socket.remoteAddress,
      onMetricsPort: false,
    });
    if (access === "unauthorized") return reply.status(401).header("www-authenticate", "Bearer").send({ code: "unauthorized" });
    if (access === "hidden") return reply.status(404).send({ code: "not_found", message: "Not found." });
    const { contentType, body } = await scrape(registries);
    return reply.header("content-type", contentType).header("cache-control", "no-store").send(body);
  };
  // Answered before the sign-in guard (installed after this): Prometheus' bearer token is METRICS_TOKEN, not an access token.
  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.url === "/metrics" && request.method === "GET") return answer(request, reply);
  });
  app.get("/metrics", { schema: { hide: true } }, answer);
}

/** GET /admin/metrics-summary: the dashboard's live figures, for admins. */
export const metricsSummaryRoutes: RoutePlugin<{ registries: readonly Registry[] }> = async (app, { registries }) => {
  await app.register(async (plain) => {
    plain.addHook("onRequest", requireActor("admin"));
    const admin = plain.withTypeProvider<ZodTypeProvider>();
    admin.get("/admin/metrics-summary", { schema: { response: { 200: MetricsSummaryReply } } }, async () => metricsSummary(registries));
  });
};
