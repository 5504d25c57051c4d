import { afterEach, describe, expect, it } from "vitest";
import { ProxyTracerProvider, propagation, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { EventStore, NewEvent } from "@booking/event-store";
import { activeTraceFields, inSpan } from "@booking/event-store";
import { appendsTraced, installTracing, startTracing, tracingIsOn, type Tracing } from "../src/tracing/index.ts";

// Issue 35.3: tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and off costs nothing: no tracer provider of the
// SDK (so no span processor), no propagator, and events appended exactly as before. The same checks with tracing on
// show they can tell the difference.

let installed: Tracing | null = null;
afterEach(async () => {
  await installed?.shutdown();
  installed = null;
});

/** The SDK's provider behind the API's global proxy, if one was registered. */
function sdkProvider(): TracerProvider | null {
  const global = trace.getTracerProvider();
  const delegate = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  return delegate instanceof TracerProvider ? delegate : null;
}

/** A store that keeps what it was asked to append. */
function recordingStore(): { store: EventStore; appended: NewEvent[] } {
  const appended: NewEvent[] = [];
  const store = {
    append: async (_streamId: string, events: readonly NewEvent[]) => {
      appended.push(...events);
      return [];
    },
  } as unknown as EventStore;
  return { store, appended };
}

const registered: NewEvent = {
  type: "UserRegistered",
  data: { userId: "u1", email: "a@example.com", role: "creator", firstName: "A", lastName: "B" },
  metadata: { at: "2026-11-28T00:00:00.000Z" },
};

describe("tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  it("registers no tracer provider, so no span processor, and no propagator; spans are the API's no-op ones", async () => {
    installed = startTracing("booking-api", {});
    expect(tracingIsOn()).toBe(false);
    expect(sdkProvider()).toBeNull();
    expect(propagation.fields()).toEqual([]);
    const recorded = await inSpan("command", {}, async (span) => span.isRecording());
    expect(recorded).toBe(false);
    expect(activeTraceFields()).toEqual({});
  });

  it("appends events exactly as given: no trace fields in their metadata", async () => {
    installed = startTracing("booking-api", {});
    const { store, appended } = recordingStore();
    await appendsTraced(store).append("user-u1", [registered], "no_stream");
    expect(appended).toEqual([registered]);
  });
});

describe("tracing on (the same checks see it)", () => {
  it("installs the SDK's provider with the span processor, and stamps appended events with the append span's context", async () => {
    const exporter = new InMemorySpanExporter();
    installed = installTracing("test", [new SimpleSpanProcessor({ exporter })]);
    expect(tracingIsOn()).toBe(true);
    expect(sdkProvider()).not.toBeNull();
    expect(propagation.fields()).toContain("traceparent");
    const { store, appended } = recordingStore();
    await inSpan("command", {}, () => appendsTraced(store).append("user-u1", [registered], "no_stream"));
    const append = exporter.getFinishedSpans().find((s) => s.name === "append")!;
    expect(appended[0]!.metadata.traceparent).toBe(`00-${append.spanContext().traceId}-${append.spanContext().spanId}-01`);
    expect(appended[0]!.data).toEqual(registered.data);
  });

  it("is set up from the environment when OTEL_EXPORTER_OTLP_ENDPOINT is set", async () => {
    installed = startTracing("booking-api", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" });
    expect(tracingIsOn()).toBe(true);
    expect(sdkProvider()).not.toBeNull();
  });
});
