import { randomUUID } from "node:crypto";
import {
  ANY,
  END,
  EventStoreDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamRecordedEvent,
  type AppendExpectedRevision,
  type JSONType,
  type Position,
} from "@eventstore/db-client";
import type { EventMetadata } from "@booking/contracts";
import {
  WrongExpectedVersion,
  comparePositions,
  type AppendListener,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type LogPosition,
  type NewEvent,
  type StoredEvent,
  type StreamRead,
  type SubscribeOptions,
  type Subscription,
} from "../port.ts";

// EventStoreDB keeps 0-based stream revisions; the port counts versions from 1 (version = revision + 1).
// Our metadata travels in the event's metadata, with the schema version beside it.

type StoredMetadata = EventMetadata & { schemaVersion?: number };

function expectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === "no_stream" || expected === 0) return NO_STREAM;
  if (expected === "any") return ANY;
  if (expected === "stream_exists") return STREAM_EXISTS;
  return BigInt(expected - 1);
}

const toLogPosition = (p: Position): LogPosition => ({ commit: p.commit, prepare: p.prepare });

function toStored(
  e:
    | AllStreamRecordedEvent
    | {
        streamId: string;
        id: string;
        revision: bigint;
        type: string;
        created: Date;
        data: unknown;
        metadata: unknown;
        position?: Position;
      },
): StoredEvent {
  const { schemaVersion, ...metadata } = (e.metadata ?? {}) as StoredMetadata;
  const position = e.position ? toLogPosition(e.position) : { commit: 0n, prepare: 0n };
  return {
    eventId: e.id,
    streamId: e.streamId,
    version: Number(e.revision) + 1,
    position,
    type: e.type,
    schemaVersion: schemaVersion ?? 1,
    data: e.data,
    metadata: metadata as EventMetadata,
    recordedAt: e.created.toISOString(),
  };
}

export class EventStoreDBEventStore implements EventStore {
  readonly kind = "eventstoredb" as const;
  private readonly subscriptions = new Set<Subscription>();
  private readonly watchers = new Set<AppendListener>();
  /** One live subscription to $all from its end, shared by every watcher, while anyone watches. */
  private watch: Subscription | null = null;

  constructor(readonly client: EventStoreDBClient) {}

  /** `connectionString` like `esdb://localhost:2113?tls=false`. */
  static connect(connectionString: string): EventStoreDBEventStore {
    return new EventStoreDBEventStore(EventStoreDBClient.connectionString`${connectionString}`);
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error("append needs at least one event");
    // No Postgres transaction here to write them in (no rowsWrittenWithAppendsIn): refused, never dropped.
    if (options.alongside?.rows.length) throw new Error(`EventStoreDB cannot write rows in ${options.alongside.table} with an append`);
    const data = events.map((e) =>
      jsonEvent({
        id: e.eventId ?? randomUUID(),
        type: e.type,
        data: e.data as JSONType,
        metadata: { ...e.metadata, schemaVersion: e.schemaVersion ?? 1 } as JSONType,
      }),
    );
    try {
      const result = await this.client.appendToStream(streamId, data, { expectedRevision: expectedRevision(expected) });
      const nextVersion = Number(result.nextExpectedRevision) + 1;
      // The append's reply has the commit's position; the events themselves are read back for their own.
      const written = await this.readStream(streamId, { afterVersion: nextVersion - events.length });
      const mine = written.events.slice(0, events.length);
      const position = result.position ? toLogPosition(result.position) : mine[mine.length - 1]!.position;
      return { nextVersion, position, events: mine };
    } catch (e) {
      if (e instanceof WrongExpectedVersionError) {
        const actual = typeof e.actualVersion === "bigint" ? Number(e.actualVersion) + 1 : null;
        throw new WrongExpectedVersion(streamId, expected, actual);
      }
      throw e;
    }
  }

  async readStream(streamId: string, options: { afterVersion?: number } = {}): Promise<StreamRead> {
    const after = options.afterVersion ?? 0;
    const events: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { fromRevision: after === 0 ? START : BigInt(after) })) {
        if (resolved.event) events.push(toStored(resolved.event as Parameters<typeof toStored>[0]));
      }
    } catch (e) {
      if (e instanceof StreamNotFoundError) return { version: 0, events: [] };
      throw e;
    }
    return { version: events.length ? events[events.length - 1]!.version : after, events };
  }

  async readAll(after: LogPosition | null, limit: number): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    let from: Position | typeof START = after ? { commit: after.commit, prepare: after.prepare } : START;
    // $all includes system events; read pages until `limit` of ours are found or the log ends.
    for (;;) {
      let seen = 0;
      let last: Position | undefined;
      for await (const resolved of this.client.readAll({ fromPosition: from, maxCount: limit + 1 })) {
        seen++;
        const e = resolved.event;
        if (!e?.position) continue;
        last = e.position;
        if (e.type.startsWith("$") || e.streamId.startsWith("$")) continue;
        const stored = toStored(e);
        if (after && comparePositions(stored.position, after) <= 0) continue; // fromPosition is inclusive
        out.push(stored);
        if (out.length >= limit) return out;
      }
      if (seen <= 1 || !last) return out;
      from = last;
    }
  }

  async headPosition(): Promise<LogPosition | null> {
    for await (const resolved of this.client.readAll({ direction: "backwards", fromPosition: "end", maxCount: 200 })) {
      const e = resolved.event;
      if (e?.position && !e.type.startsWith("$") && !e.streamId.startsWith("$")) return toLogPosition(e.position);
    }
    return null;
  }

  /** EventStoreDB keeps no count of $all: walk it once (a replay reads it all anyway). */
  async countEvents(): Promise<number> {
    let n = 0;
    for await (const resolved of this.client.readAll({ fromPosition: START })) {
      const e = resolved.event;
      if (e && !e.type.startsWith("$") && !e.streamId.startsWith("$")) n++;
    }
    return n;
  }

  /** Announce each append, from a live subscription to the end of $all (started by the first watcher, stopped with the last). */
  watchAppends(listener: AppendListener): () => void {
    this.watchers.add(listener);
    this.watch ??= this.subscribeFrom("end", {
      onEvents: async (events) => {
        for (const e of events) for (const w of [...this.watchers]) w(e.position, [e.streamId]);
      },
    });
    return () => {
      this.watchers.delete(listener);
      if (this.watchers.size === 0 && this.watch) {
        const ending = this.watch;
        this.watch = null;
        void ending.stop();
      }
    };
  }

  subscribe(options: SubscribeOptions): Subscription {
    return this.subscribeFrom(options.after, options);
  }

  /** Events strictly after `after` (null: from the start; "end": only those appended from now on). */
  private subscribeFrom(after: LogPosition | null | "end", options: Pick<SubscribeOptions, "onEvents" | "onError">): Subscription {
    let stopped = false;
    let current: ReturnType<EventStoreDBClient["subscribeToAll"]> | null = null;
    let checkpoint: LogPosition | null = after === "end" ? null : after;
    const run = async () => {
      // Resubscribe from the last delivered position whenever the subscription drops.
      while (!stopped) {
        try {
          current = this.client.subscribeToAll({
            fromPosition: checkpoint ? { commit: checkpoint.commit, prepare: checkpoint.prepare } : after === "end" ? END : START,
            filter: excludeSystemEvents(),
          });
          for await (const resolved of current) {
            if (stopped) break;
            if (!resolved.event?.position) continue;
            const stored = toStored(resolved.event);
            if (checkpoint && comparePositions(stored.position, checkpoint) <= 0) continue;
            // A live subscription hands over each event as it arrives.
            await options.onEvents([stored]);
            checkpoint = stored.position;
          }
        } catch (e) {
          if (stopped) break;
          options.onError?.(e);
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    };
    const done = run();
    const subscription: Subscription = {
      done,
      stop: async () => {
        stopped = true;
        await current?.unsubscribe().catch(() => undefined);
        await done;
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    this.watchers.clear();
    this.watch = null;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}
