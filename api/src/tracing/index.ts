export { installTracing, startTracing, startProcessTracing, stopProcessTracing, tracingIsOn, type Tracing } from "./telemetry.ts";
export { appendsTraced, TracedCommandHandler } from "./traced-commands.ts";
export { installRequestSpans } from "./request-spans.ts";
