import { DomainEvent as DomainEventSchema, readDomainEvent, currentSchemaVersion, refusal, type Actor, type DomainEvent, type Result } from "@booking/contracts";
import type { Decider } from "@booking/engine";
import { WrongExpectedVersion, type EventStore, type LogPosition, type NewEvent, type StoredEvent } from "../port.ts";

export type CommandMeta = {
  actor?: Actor;
  /** A repeat of a command with the same key returns the first result and writes nothing. */
  idempotencyKey?: string;
  correlationId?: string;
  /** The decision's "now" (ISO). Defaults to the handler's clock. */
  now?: string;
};

export type CommandResult = {
  events: StoredEvent[];
  /** The stream's version after the command. */
  version: number;
  /** Where the last written event sits in the global log: read models can be awaited up to it. */
  position: LogPosition | null;
  /** True when an earlier command with the same idempotency key answered. */
  replayed: boolean;
};

type CachedStream<S> = { version: number; state: S; byKey: Map<string, StoredEvent[]> };

export type CommandHandlerOptions = {
  /** Attempts on a version conflict before giving up with `concurrency_conflict`. */
  maxAttempts?: number;
  clock?: () => string;
  /** Streams whose folded state is kept in memory (least recently used are dropped). */
  cacheSize?: number;
};

/**
 * Load a stream, decide, append with the expected version; on a conflict, read what the other
 * writer added and decide again. Folded state is cached per stream and brought up to date by
 * reading only the events after the cached version, so a decision's cost stays flat as a stream grows.
 */
export class CommandHandler<C, E extends DomainEvent, S> {
  private readonly cache = new Map<string, CachedStream<S>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly maxAttempts: number;
  private readonly clock: () => string;
  private readonly cacheSize: number;

  constructor(
    private readonly store: EventStore,
    private readonly decider: Decider<C, E, S>,
    options: CommandHandlerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
    this.clock = options.clock ?? (() => new Date().toISOString());
    this.cacheSize = options.cacheSize ?? 10_000;
  }

  /** Commands on one stream from this process run one at a time: fewer conflicts, same result. */
  handle(streamId: string, command: C, meta: CommandMeta = {}): Promise<Result<CommandResult>> {
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const run = previous.then(() => this.attempt(streamId, command, meta));
    const settled = run.catch(() => undefined);
    this.queues.set(streamId, settled);
    void settled.then(() => {
      if (this.queues.get(streamId) === settled) this.queues.delete(streamId);
    });
    return run;
  }

  /** The current folded state of a stream (for queries that need the decider's view). */
  async load(streamId: string): Promise<{ version: number; state: S }> {
    const c = await this.catchUp(streamId);
    return { version: c.version, state: c.state };
  }

  private async attempt(streamId: string, command: C, meta: CommandMeta): Promise<Result<CommandResult>> {
    const now = meta.now ?? this.clock();
    // A stream this process holds in memory is decided on without reading it first: the append
    // carries the cached version, so if another process wrote meanwhile it fails and we read and
    // decide again. An answer that writes nothing is never given from memory alone.
    let current = this.cache.get(streamId);
    let fresh = false;
    for (let attempt = 1; ; attempt++) {
      if (!current) {
        current = await this.catchUp(streamId);
        fresh = true;
      }
      const decision = this.decideOn(current, command, now, meta);
      if (!decision.write) {
        if (!fresh) {
          current = undefined;
          continue;
        }
        return decision.result;
      }
      try {
        const written = await this.store.append(streamId, decision.events, current.version === 0 ? "no_stream" : current.version);
        this.remember(streamId, this.fold(current, written.events));
        return { ok: true, value: { events: written.events, version: written.nextVersion, position: written.position, replayed: false } };
      } catch (e) {
        if (!(e instanceof WrongExpectedVersion)) throw e;
        current = undefined;
        // A conflict against a stale cache is not a race lost to another writer.
        if (!fresh) continue;
        if (attempt >= this.maxAttempts) return { ok: false, refusal: refusal("concurrency_conflict") };
        // Another writer got there first: back off a little (with jitter) and decide again on fresh state.
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
    }
  }

  /** The decision on one state: the events to write, or the answer when there is nothing to write. */
  private decideOn(
    current: CachedStream<S>,
    command: C,
    now: string,
    meta: CommandMeta,
  ): { write: true; events: NewEvent[] } | { write: false; result: Result<CommandResult> } {
    if (meta.idempotencyKey) {
      const first = current.byKey.get(meta.idempotencyKey);
      if (first) return { write: false, result: { ok: true, value: { events: first, version: current.version, position: first.at(-1)?.position ?? null, replayed: true } } };
    }
    const decision = this.decider.decide(command, current.state, { now });
    if (!decision.ok) return { write: false, result: decision };
    if (decision.value.length === 0) return { write: false, result: { ok: true, value: { events: [], version: current.version, position: null, replayed: false } } };
    // Events are checked on the way in with the schema readers use on the way out: a malformed
    // event would stop every projection behind it.
    for (const e of decision.value) {
      if (!DomainEventSchema.safeParse(e).success) return { write: false, result: { ok: false, refusal: refusal("invalid_request") } };
    }
    const metadata = {
      at: now,
      ...(meta.actor && { actor: meta.actor }),
      ...(meta.idempotencyKey && { idempotencyKey: meta.idempotencyKey }),
      ...(meta.correlationId && { correlationId: meta.correlationId }),
    };
    return { write: true, events: decision.value.map((e) => ({ type: e.type, schemaVersion: currentSchemaVersion(e.type), data: e.data, metadata })) };
  }

  private async catchUp(streamId: string): Promise<CachedStream<S>> {
    const cached = this.cache.get(streamId) ?? { version: 0, state: this.decider.initialState(), byKey: new Map() };
    const read = await this.store.readStream(streamId, { afterVersion: cached.version });
    const next = this.fold(cached, read.events);
    this.remember(streamId, next);
    return next;
  }

  private fold(c: CachedStream<S>, events: readonly StoredEvent[]): CachedStream<S> {
    if (events.length === 0) return c;
    const domain = events.map((e) => readDomainEvent(e.type, e.schemaVersion, e.data) as E);
    let byKey = c.byKey;
    for (const e of events) {
      const key = e.metadata.idempotencyKey;
      if (!key) continue;
      if (byKey === c.byKey) byKey = new Map(c.byKey);
      byKey.set(key, [...(byKey.get(key) ?? []), e]);
    }
    return { version: events[events.length - 1]!.version, state: this.decider.evolve(c.state, domain), byKey };
  }

  private remember(streamId: string, entry: CachedStream<S>): void {
    const existing = this.cache.get(streamId);
    if (existing && existing.version > entry.version) return;
    this.cache.delete(streamId);
    this.cache.set(streamId, entry);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}
