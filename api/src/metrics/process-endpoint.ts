import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import type { Readiness } from "../health/index.ts";
import { metricsAccess } from "./access.ts";
import type { MetricsSettings } from "./settings.ts";

// The background processes (relay, projector, mail, refunds) serve no HTTP of their own: this small
// server on METRICS_PORT gives each its /metrics, and /healthz and /readyz for the orchestrator.
// The API uses it too when METRICS_PORT keeps its metrics off the public port.

export type MetricsEndpoint = { url: string; close: () => Promise<void> };

export type MetricsEndpointOptions = {
  settings: MetricsSettings & { port: number };
  registries: readonly Registry[];
  /** Absent: /readyz is not served (the API's own /api/v1/readyz is the one to ask). */
  readiness?: () => Promise<Readiness>;
};

/** The registries as one scrape (prom-client refuses one metric name registered twice). */
export async function scrape(registries: readonly Registry[]): Promise<{ contentType: string; body: string }> {
  const merged = Registry.merge([...registries]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}

function send(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { "content-type": contentType, "cache-control": "no-store" });
  response.end(body);
}

const json = (response: ServerResponse, status: number, body: unknown) => send(response, status, "application/json", JSON.stringify(body));

async function answer(options: MetricsEndpointOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? "/").split("?")[0];
  if (request.method !== "GET") return json(response, 405, { code: "method_not_allowed" });
  if (path === "/healthz") return json(response, 200, { status: "ok" });
  if (path === "/readyz" && options.readiness) {
    const { ready, checks, lagEvents } = await options.readiness();
    return json(response, ready ? 200 : 503, { status: ready ? "ready" : "not_ready", checks, lagEvents });
  }
  if (path !== "/metrics") return json(response, 404, { code: "not_found" });
  const access = metricsAccess(options.settings, {
    authorization: request.headers.authorization,
    remoteAddress: request.socket.remoteAddress,
    onMetricsPort: true,
  });
  if (access === "unauthorized") {
    response.setHeader("www-authenticate", "Bearer");
    return json(response, 401, { code: "unauthorized" });
  }
  if (access === "hidden") return json(response, 404, { code: "not_found" });
  const { contentType, body } = await scrape(options.registries);
  send(response, 200, contentType, body);
}

export async function serveMetrics(options: MetricsEndpointOptions): Promise<MetricsEndpoint> {
  const server = createServer((request, response) => {
    answer(options, request, response).catch((e: unknown) => {
      if (!response.headersSent) json(response, 500, { code: "internal", message: e instanceof Error ? e.message : String(e) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.settings.port, options.settings.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.settings.host === "0.0.0.0" ? "127.0.0.1" : options.settings.host;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
