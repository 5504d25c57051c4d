import {
  DomainEvent as DomainEventSchema,
  readDomainEvent,
  currentSchemaVersion,
  refusal,
  type Actor,
  type DomainEvent,
  type Result,
} from "@booking/contracts";
import { decodeLeftOut, encodeLeftOut, leaveOut, mayBeLeftOut, nothingLeftOut, type Decider, type LeftOut } from "@booking/engine";
import { WrongExpectedVersion, type EventStore, type LogPosition, type NewEvent, type StoredEvent } from "../port.ts";
import type { SnapshotCodec, SnapshotStore } from "../snapshots/snapshot-store.ts";

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

type CachedStream<S> = {
  version: number;
  state: S;
  byKey: Map<string, StoredEvent[]>;
  /** Idempotency keys answered before the snapshot this state started from; null when folded from the start. */
  keysLeftOut: LeftOut | null;
  /** The version of the last snapshot read or written for the stream. */
  snapshotAt: number;
};

/** The handler's own part of a snapshot, around the decider's state. */
type SnapshotBody = { decider: unknown; keysLeftOut: { bits: string; count: number } };
const HANDLER_SHAPE = "handler-1";

export type CommandHandlerOptions<C = unknown, S = unknown> = {
  /** Attempts on a version conflict before giving up with `concurrency_conflict`. */
  maxAttempts?: number;
  clock?: () => string;
  /** Streams whose folded state is kept in memory (least recently used are dropped). */
  cacheSize?: number;
  /**
   * Snapshots of folded state: a cold load reads the latest and the events after it. Written off the
   * command's path once a stream has `every` (default 200) events past its last snapshot.
   */
  snapshots?: { store: SnapshotStore; codec: SnapshotCodec<C, S>; every?: number; onError?: (error: unknown) => void };
};

/**
 * Load a stream, decide, append with the expected version; on a conflict, read what the other
 * writer added and decide again. Folded state is cached per stream and brought up to date by
 * reading only the events after the cached version, so a decision's cost stays flat as a stream grows.
 * With snapshots, a cold load (a new process) starts from the stream's latest snapshot instead of its
 * first event; a command the snapshot may lack something for is decided on the whole stream.
 */
export class CommandHandler<C, E extends DomainEvent, S> {
  private readonly cache = new Map<string, CachedStream<S>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly maxAttempts: number;
  private readonly clock: () => string;
  private readonly cacheSize: number;
  private readonly snapshots: CommandHandlerOptions<C, S>["snapshots"];
  private readonly snapshotShape: string;
  private readonly snapshotting = new Set<string>();

  constructor(
    private readonly store: EventStore,
    private readonly decider: Decider<C, E, S>,
    options: CommandHandlerOptions<C, S> = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
    this.clock = options.clock ?? (() => new Date().toISOString());
    this.cacheSize = options.cacheSize ?? 10_000;
    this.snapshots = options.snapshots;
    this.snapshotShape = `${HANDLER_SHAPE}/${options.snapshots?.codec.shape ?? ""}`;
  }

  /**
   * Drop every folded state held in memory (a person was erased: their words may be in it, and a snapshot written from
   * it would keep them); the next command on each stream reads it again, opened as it now reads.
   */
  forgetFoldedState(): void {
    this.cache.clear();
  }

  /** Resolves once no snapshot is being written (tests, and a clean shutdown). */
  async snapshotsWritten(): Promise<void> {
    while (this.snapshotting.size > 0) await new Promise((r) => setTimeout(r, 1));
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

  /**
   * The current folded state of a stream (for queries that need the decider's view). With snapshots
   * on, it may be a state from a snapshot, which leaves out what the codec leaves out (for a
   * calendar: bookings closed over 30 days ago). Given `about`, the command a query previews, the
   * state is whole for it: folded from the first event when a snapshot may lack what it needs.
   */
  async load(streamId: string, options: { about?: C } = {}): Promise<{ version: number; state: S }> {
    let c = await this.catchUp(streamId);
    if (options.about !== undefined && this.needsWholeStream(c, options.about, {})) c = await this.foldWholeStream(streamId);
    return { version: c.version, state: c.state };
  }

  private async attempt(streamId: string, command: C, meta: CommandMeta): Promise<Result<CommandResult>> {
    const now = meta.now ?? this.clock();
    // A stream this process holds in memory is decided on without reading it first: the append
    // carries the cached version, so if another process wrote meanwhile it fails and we read and
    // decide again. An answer that writes nothing is never given from memory alone.
    let current = this.cache.get(streamId);
    let fresh = false;
    let whole = false;
    for (let attempt = 1; ; attempt++) {
      if (!current) {
        current = await this.catchUp(streamId);
        fresh = true;
      }
      if (this.needsWholeStream(current, command, meta)) {
        current = await this.foldWholeStream(streamId);
        fresh = true;
        whole = true;
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
        // The whole stream is not kept in memory (every later command would copy all of it): the
        // next command starts again from the snapshot and the events after it.
        if (whole) this.cache.delete(streamId);
        else this.remember(streamId, this.fold(current, written.events));
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
      if (first)
        return {
          write: false,
          result: {
            ok: true,
            value: { events: first, version: current.version, position: first.at(-1)?.position ?? null, replayed: true },
          },
        };
    }
    const decision = this.decider.decide(command, current.state, { now });
    if (!decision.ok) return { write: false, result: decision };
    if (decision.value.length === 0)
      return { write: false, result: { ok: true, value: { events: [], version: current.version, position: null, replayed: false } } };
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
    return {
      write: true,
      events: decision.value.map((e) => ({ type: e.type, schemaVersion: currentSchemaVersion(e.type), data: e.data, metadata })),
    };
  }

  private async catchUp(streamId: string): Promise<CachedStream<S>> {
    const cached = this.cache.get(streamId) ?? (await this.fromSnapshot(streamId)) ?? this.emptyStream();
    const read = await this.store.readStream(streamId, { afterVersion: cached.version });
    // A snapshot ahead of its stream (a database restored from an older backup) is not believed.
    if (read.version < cached.version) {
      const whole = await this.foldWholeStream(streamId);
      this.cache.delete(streamId);
      this.remember(streamId, whole);
      return whole;
    }
    const next = this.fold(cached, read.events);
    this.remember(streamId, next);
    return next;
  }

  private emptyStream(): CachedStream<S> {
    return { version: 0, state: this.decider.initialState(), byKey: new Map(), keysLeftOut: null, snapshotAt: 0 };
  }

  /** The stream's snapshot as a starting point; null when there is none, or it is of another shape or unreadable. */
  private async fromSnapshot(streamId: string): Promise<CachedStream<S> | null> {
    if (!this.snapshots) return null;
    const snapshot = await this.snapshots.store.read(streamId, this.snapshotShape);
    if (!snapshot) return null;
    try {
      const body = snapshot.state as SnapshotBody;
      return {
        version: snapshot.version,
        state: this.snapshots.codec.decode(body.decider),
        byKey: new Map(),
        keysLeftOut: decodeLeftOut(body.keysLeftOut),
        snapshotAt: snapshot.version,
      };
    } catch (e) {
      // A snapshot is a shortcut: one that cannot be read costs the whole fold, never a decision.
      this.snapshots.onError?.(e);
      return null;
    }
  }

  /** A state from a snapshot leaves out what decisions rarely need: a command that may need it is decided on the whole stream. */
  private needsWholeStream(current: CachedStream<S>, command: C, meta: CommandMeta): boolean {
    if (!this.snapshots || !current.keysLeftOut) return false;
    const key = meta.idempotencyKey;
    if (key && !current.byKey.has(key) && mayBeLeftOut(current.keysLeftOut, key)) return true;
    return this.snapshots.codec.needsWholeStream(command, current.state);
  }

  /** For one decision only (see `attempt`). */
  private async foldWholeStream(streamId: string): Promise<CachedStream<S>> {
    const read = await this.store.readStream(streamId);
    return this.fold({ ...this.emptyStream(), snapshotAt: this.cache.get(streamId)?.snapshotAt ?? 0 }, read.events);
  }

  /** Off the command's path: encoding runs after the answer is given, and its failure only costs a longer fold later. */
  private snapshotLater(streamId: string, entry: CachedStream<S>): void {
    const snapshots = this.snapshots;
    if (!snapshots || entry.version - entry.snapshotAt < (snapshots.every ?? 200) || this.snapshotting.has(streamId)) return;
    this.snapshotting.add(streamId);
    entry.snapshotAt = entry.version;
    setImmediate(() => {
      const write = async () => {
        const keys = leaveOut(entry.keysLeftOut ?? nothingLeftOut(), entry.byKey.keys());
        const body: SnapshotBody = { decider: snapshots.codec.encode(entry.state, this.clock()), keysLeftOut: encodeLeftOut(keys) };
        await snapshots.store.write({ streamId, version: entry.version, shape: this.snapshotShape, state: body });
        // A whole stream held in memory (the first load, before there was a snapshot) gives way to
        // what was written: later commands then copy only the open part on each fold.
        if (!entry.keysLeftOut && this.cache.get(streamId) === entry) {
          this.cache.set(streamId, { ...entry, state: snapshots.codec.decode(body.decider), byKey: new Map(), keysLeftOut: keys });
        }
      };
      write()
        .catch((e: unknown) => snapshots.onError?.(e))
        .finally(() => this.snapshotting.delete(streamId));
    });
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
    return { ...c, version: events[events.length - 1]!.version, state: this.decider.evolve(c.state, domain), byKey };
  }

  private remember(streamId: string, entry: CachedStream<S>): void {
    const existing = this.cache.get(streamId);
    if (existing && existing.version > entry.version) return;
    this.cache.delete(streamId);
    this.cache.set(streamId, entry);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    this.snapshotLater(streamId, entry);
  }
}
