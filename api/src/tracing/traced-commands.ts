import type { DomainEvent, Result } from "@booking/contracts";
import type { Decider } from "@booking/engine";
import {
  SpanKind,
  activeTraceFields,
  inSpan,
  type CommandHandlerOptions,
  type CommandMeta,
  type CommandResult,
  type EventStore,
} from "@booking/event-store";
import { CountedCommandHandler, commandType, withMethod } from "../metrics/index.ts";

// A command and its append as spans, from the API's side of the event store (as the metrics count them): the
// command span around the handler's load, decide and append; the append span around the store's append, whose
// trace context each appended event carries in its metadata for the relay, the projectors and the reactors.

/** The store as a traced handler sees it: each append a span, and each event stamped with that span's trace context. */
export function appendsTraced(store: EventStore): EventStore {
  const append: EventStore["append"] = (streamId, events, expected, options) =>
    inSpan("append", { kind: SpanKind.CLIENT, attributes: { "append.events": events.length } }, async () => {
      const trace = activeTraceFields();
      // Nothing to add while tracing is off: the events are written exactly as before.
      const stamped = trace.traceparent ? events.map((e) => ({ ...e, metadata: { ...e.metadata, ...trace } })) : events;
      return store.append(streamId, stamped, expected, options);
    });
  return withMethod(store, "append", append);
}

/** A counted handler whose every command is a span (`command`, its type), its appends spans beneath it. */
export class TracedCommandHandler<C, E extends DomainEvent, S> extends CountedCommandHandler<C, E, S> {
  constructor(
    private readonly tracedName: string,
    store: EventStore,
    decider: Decider<C, E, S>,
    options: CommandHandlerOptions<C, S> = {},
  ) {
    super(tracedName, appendsTraced(store), decider, options);
  }

  override handle(streamId: string, command: C, meta: CommandMeta = {}): Promise<Result<CommandResult>> {
    const attributes = { "command.handler": this.tracedName, "command.type": commandType(command) };
    return inSpan(`command ${attributes["command.type"]}`, { attributes }, async (span) => {
      const result = await super.handle(streamId, command, meta);
      span.setAttribute("command.outcome", result.ok ? (result.value.replayed ? "replayed" : "accepted") : result.refusal.code);
      return result;
    });
  }
}
