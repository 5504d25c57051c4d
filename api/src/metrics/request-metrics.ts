import type { FastifyInstance } from "fastify";
import { httpRequestSeconds, httpRequests } from "./registry.ts";

/** The label of a request no route matched: its raw URL would carry whatever a client sent (ids, scans, tokens). */
const UNMATCHED = "unmatched";

/**
 * Counts every reply by its route's pattern (`/api/v1/bookings/:bookingId`), never the URL itself,
 * so a label holds no id and the series stay as few as the routes.
 */
export function installRequestMetrics(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED, status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpRequestSeconds.observe(labels, reply.elapsedTime / 1000);
  });
}
