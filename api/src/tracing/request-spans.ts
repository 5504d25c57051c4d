import { SpanKind, SpanStatusCode, context, propagation, trace, type Span } from "@opentelemetry/api";
import type { FastifyInstance, FastifyRequest } from "fastify";

// A span per request (issue 35.3), named by its route's pattern (`POST /api/v1/bookings`), never its URL, and with no
// attribute that names a person: ids in paths, queries and bodies stay out. A caller's `traceparent` header is
// honoured, so a trace may start in front of the API (the proxy, a browser).

const UNMATCHED = "unmatched";
const tracer = trace.getTracer("@booking/api");
const spans = new WeakMap<FastifyRequest, Span>();

/** Adds the request span hooks; the API calls it only while tracing is on, so a process without it pays nothing. */
export function installRequestSpans(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const parent = propagation.extract(context.active(), request.headers);
    const attributes = { "http.request.method": request.method, "http.route": route };
    spans.set(request, tracer.startSpan(`${request.method} ${route}`, { kind: SpanKind.SERVER, attributes }, parent));
    done();
  });
  // Active from the handler on: the body is parsed on the socket's own async context, so onRequest's would be lost.
  app.addHook("preHandler", (request, _reply, done) => {
    const span = spans.get(request);
    if (span) context.with(trace.setSpan(context.active(), span), done);
    else done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute("http.response.status_code", reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      spans.delete(request);
    }
    done();
  });
  // A client gone before the reply: the span still ends, marked so.
  app.addHook("onRequestAbort", (request, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute("http.request.aborted", true);
      span.end();
      spans.delete(request);
    }
    done();
  });
}
