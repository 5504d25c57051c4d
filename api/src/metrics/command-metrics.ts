import { AsyncLocalStorage } from "node:async_hooks";
import type { DomainEvent, Result } from "@booking/contracts";
import type { Decider } from "@booking/engine";
import {
  CommandHandler,
  WrongExpectedVersion,
  type CommandHandlerOptions,
  type CommandMeta,
  type CommandResult,
  type EventStore,
  type SnapshotStore,
} from "@booking/event-store";
import { appendSizes, commandConflicts, commandsHandled, snapshotReads } from "./registry.ts";

// Commands are counted from the API's side of the event store: a handler that reports each
// decision's outcome, over a store that reports appends and the conflicts the handler retries.
// The event store's CommandHandler stays as it is.

/** The command being decided, for the store's append to name when it meets a conflict (the handler's queue keeps the context). */
const deciding = new AsyncLocalStorage<{ handler: string; command: string }>();

/** A command's type, the one thing of it a label or a span may carry (its data may hold people's details). */
export function commandType(command: unknown): string {
  return typeof command === "object" && command !== null && "type" in command && typeof command.type === "string"
    ? command.type
    : "unknown";
}

/** `target` with one method replaced, every other member its own (methods bound to it): a store seen through a counter or a tracer. */
export function withMethod<T extends object, K extends keyof T>(target: T, name: K, replacement: T[K]): T {
  return new Proxy(target, {
    get: (of, property) => {
      if (property === name) return replacement;
      const value: unknown = Reflect.get(of, property, of);
      return typeof value === "function" ? value.bind(of) : value;
    },
  });
}

/** The store as a handler sees it: every append's size counted, and a lost race counted before the handler decides again. */
function appendsCounted(store: EventStore, handler: string): EventStore {
  const append: EventStore["append"] = async (streamId, events, expected, options) => {
    try {
      const written = await store.append(streamId, events, expected, options);
      appendSizes.observe({ handler }, events.length);
      return written;
    } catch (e) {
      if (e instanceof WrongExpectedVersion) commandConflicts.inc({ handler, command: deciding.getStore()?.command ?? "unknown" });
      throw e;
    }
  };
  return withMethod(store, "append", append);
}

/** The snapshot store as a handler sees it: each read counted as a hit or a miss. */
export function snapshotReadsCounted(snapshots: SnapshotStore): SnapshotStore {
  const read: SnapshotStore["read"] = async (streamId, shape) => {
    const snapshot = await snapshots.read(streamId, shape);
    snapshotReads.inc({ result: snapshot ? "hit" : "miss" });
    return snapshot;
  };
  return withMethod(snapshots, "read", read);
}

/** A CommandHandler whose every decision is counted by command type and outcome (`booking_commands_total`). */
export class CountedCommandHandler<C, E extends DomainEvent, S> extends CommandHandler<C, E, S> {
  constructor(
    private readonly handlerName: string,
    store: EventStore,
    decider: Decider<C, E, S>,
    options: CommandHandlerOptions<C, S> = {},
  ) {
    super(appendsCounted(store, handlerName), decider, options);
  }

  override async handle(streamId: string, command: C, meta: CommandMeta = {}): Promise<Result<CommandResult>> {
    const labels = { handler: this.handlerName, command: commandType(command) };
    try {
      const result = await deciding.run(labels, () => super.handle(streamId, command, meta));
      if (result.ok) commandsHandled.inc({ ...labels, outcome: result.value.replayed ? "replayed" : "accepted", reason: "" });
      else {
        const code = result.refusal.code;
        commandsHandled.inc({ ...labels, outcome: code === "concurrency_conflict" ? "conflict" : "refused", reason: code });
      }
      return result;
    } catch (e) {
      commandsHandled.inc({ ...labels, outcome: "error", reason: "" });
      throw e;
    }
  }
}
