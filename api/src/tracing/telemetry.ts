import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider, type SpanProcessor } from "@opentelemetry/sdk-trace";

// Traces across processes (issue 35.3). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then no SDK is loaded into the
// globals, @opentelemetry/api stays its no-op self (no span processor, no context manager, no propagator), and the
// API registers no request hooks. On, each process exports its spans by OTLP over HTTP in batches.

/** A process's tracing, to flush and stop on shutdown. */
export type Tracing = { shutdown(): Promise<void> };

const OFF: Tracing = { shutdown: async () => undefined };
let installed: TracerProvider | null = null;

/** Whether a tracer provider was installed in this process (the API adds its request hooks only then). */
export function tracingIsOn(): boolean {
  return installed !== null;
}

/**
 * Registers a tracer provider over `processors` as the process's global one, with the async-local context (spans
 * follow awaits) and W3C trace context propagation. Tests pass an in-memory exporter's processor.
 */
export function installTracing(service: string, processors: SpanProcessor[]): Tracing {
  if (installed) throw new Error("tracing is installed already in this process");
  const provider = new TracerProvider({ resource: resourceFromAttributes({ "service.name": service }), spanProcessors: processors });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  installed = provider;
  return {
    shutdown: async () => {
      await provider.shutdown();
      // Back to the no-op API, so a later install (the next test) starts clean.
      trace.disable();
      propagation.disable();
      context.disable();
      installed = null;
    },
  };
}

/** The process's tracing from its environment: OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT is set, else off. */
export function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Tracing {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return OFF;
  // The OTLP rule: traces go to the endpoint's /v1/traces unless OTEL_EXPORTER_OTLP_TRACES_ENDPOINT names the whole URL.
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${endpoint.replace(/\/+$/, "")}/v1/traces`;
  const exporter = new OTLPTraceExporter({ url });
  // OTEL_SERVICE_NAME may rename the process (two API replicas, say).
  const tracing = installTracing(env.OTEL_SERVICE_NAME ?? service, [new BatchSpanProcessor({ exporter })]);
  return {
    // A collector that cannot be reached loses the last spans, never the process's clean exit.
    shutdown: () =>
      tracing
        .shutdown()
        .catch((e: unknown) => console.warn(`tracing: last spans not exported: ${e instanceof Error ? e.message : String(e)}`)),
  };
}

let processTracing: Tracing = OFF;

/** Starts this process's tracing once (the entrypoints call it first); `stopProcessTracing` flushes it on shutdown. */
export function startProcessTracing(service: string): void {
  processTracing = startTracing(service);
}

export async function stopProcessTracing(): Promise<void> {
  await processTracing.shutdown();
  processTracing = OFF;
}
