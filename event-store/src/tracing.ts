import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type TextMapGetter,
} from "@opentelemetry/api";
import type { EventMetadata } from "@booking/contracts";

// Tracing's seam for the packages below the API (issue 35.3). Only @opentelemetry/api is imported: it is a no-op until a
// process registers an SDK (api/src/tracing/telemetry.ts), so with tracing off every call here costs a function call.
// An event carries the W3C trace context of the span that appended it in its metadata (`traceparent`, `tracestate`).

/** The tracer of the event store, the relay, the projectors and the reactors. */
export const logTracer = trace.getTracer("@booking/event-store");

type TraceFields = Pick<EventMetadata, "traceparent" | "tracestate">;

const fromMetadata: TextMapGetter<TraceFields> = {
  keys: (carrier) => Object.keys(carrier).filter((k) => k === "traceparent" || k === "tracestate"),
  get: (carrier, key) => (key === "traceparent" ? carrier.traceparent : key === "tracestate" ? carrier.tracestate : undefined),
};

/** The trace context an event was appended under (ROOT_CONTEXT when it carries none, or tracing is off). */
export function eventTraceContext(metadata: TraceFields): Context {
  return metadata.traceparent ? propagation.extract(ROOT_CONTEXT, metadata, fromMetadata) : ROOT_CONTEXT;
}

/** The active trace context as metadata fields; empty when there is none (or tracing is off: no propagator is registered). */
export function activeTraceFields(): TraceFields {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return {
    ...(carrier.traceparent && { traceparent: carrier.traceparent }),
    ...(carrier.tracestate && { tracestate: carrier.tracestate }),
  };
}

/** One link per distinct appending span of the events, so a batch span names every trace it carried on. */
export function linksToEvents(events: readonly { metadata: TraceFields }[]): Link[] {
  const seen = new Set<string>();
  const links: Link[] = [];
  for (const e of events) {
    if (!e.metadata.traceparent || seen.has(e.metadata.traceparent)) continue;
    seen.add(e.metadata.traceparent);
    const spanContext = trace.getSpanContext(eventTraceContext(e.metadata));
    if (spanContext) links.push({ context: spanContext });
  }
  return links;
}

/** Runs `work` in an active span, ended with its outcome: an error marks the span and is thrown again. */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; links?: Link[]; parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const { parent, ...spanOptions } = options;
  return logTracer.startActiveSpan(name, spanOptions, parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (e) {
      span.recordException(e instanceof Error ? e : String(e));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw e;
    } finally {
      span.end();
    }
  });
}

/**
 * A span over a batch of the log. A batch holds events of many requests, so it is one span linked to each event's
 * appending span (OpenTelemetry's convention for batch consumers), not a child of any one of them: one span per
 * batch costs the same however large the batch, and each request's trace still reaches it through its link.
 */
export function inBatchSpan<T>(
  name: string,
  events: readonly { metadata: TraceFields }[],
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.CONSUMER,
): Promise<T> {
  return inSpan(name, { kind, links: linksToEvents(events), attributes: { "log.batch.size": events.length, ...attributes } }, work);
}

export { SpanKind };
