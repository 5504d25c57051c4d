import { isDeclaredEventType, personalFieldsOf, type AppendListener, type LogPosition, type StoredEvent } from "@booking/contracts";
import {
  RowAlreadyWritten,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type StreamRead,
  type SubscribeOptions,
  type Subscription,
} from "../port.ts";
import type { KeyRing } from "./data-keys.ts";
import { KEY_ROW_TABLE } from "./data-keys-table.ts";
import { AppendKeys, makesFreshKeys } from "./fresh-keys.ts";
import { envelopeOwners, isEnvelope, openEventWith, sealEvent, type EventParties } from "./envelope.ts";

// Personal data on the store's paths (issue 33.1): an EventStore around another that seals every personal field of an
// event on its way in (envelope.ts, with its owner's data key) and opens it on every way out (readStream, readAll,
// subscribe). Everything above it (command handlers, projections, reactors, time travel, replay) reads plain text,
// and an erased person's fields as their markers; the store beneath holds only envelopes, and so does the bus, since
// the relay publishes the log as stored (the Kafka projector opens what it consumes: `openEvents`).
//
// A field's owner is often a party of the booking the event is about, which the event does not name: an
// EventPartySource tells (BookingPartyBook reads the booking's request: ./event-parties.ts).

/** What sealing and opening need of an event: its type and data (a NewEvent, a StoredEvent, a bus message, a table row). */
export type EventBody = { readonly type: string; readonly data: unknown };

/** Who the parties of an event about to be written are, where its personal fields are theirs and it does not name them. */
export interface EventPartySource {
  /** The parties of `event`, about to be appended to `streamId`; `earlier`: the events before it in the same append. */
  partiesOf(streamId: string, event: EventBody, earlier: readonly EventBody[]): Promise<EventParties>;
  /** The events of an append that committed (a booking's request names its parties: a source may keep them). */
  written?(streamId: string, events: readonly EventBody[]): void;
}

/**
 * A key ring that reads many owners' keys in one go (the Postgres one) before a batch of events is opened, and tells
 * which it holds in memory (undefined: not held; null: erased).
 */
export type BatchKeyRing = KeyRing & {
  prefetch?(ownerIds: Iterable<string>): Promise<void>;
  knownKey?(ownerId: string): Buffer | null | undefined;
};

const partyOwned = new Map<string, boolean>();
/** Whether an event type has a field owned by a party of its booking or an expert (not by an id the event holds). */
function needsParties(type: string): boolean {
  let needs = partyOwned.get(type);
  if (needs === undefined) partyOwned.set(type, (needs = personalFieldsOf(type).some((f) => !("idIn" in f.owner))));
  return needs;
}

const hasPersonalFields = (type: string): boolean => isDeclaredEventType(type) && personalFieldsOf(type).length > 0;

/**
 * Events as readers see them: every envelope opened (an erased owner's field as its marker, a field stored in plain
 * text before sealing began as itself). Types declared nowhere pass as they are (no reader of ours knows them). Throws
 * EnvelopeError for an envelope that was altered or moved: loud, never read as something else.
 */
export async function openEvents<E extends EventBody>(events: readonly E[], keys: BatchKeyRing): Promise<E[]> {
  const owners = new Set<string>();
  for (const e of events) if (hasPersonalFields(e.type)) envelopeOwners(e, owners);
  if (owners.size === 0) return [...events];
  // Every key the batch needs, looked up once: from memory, then the rest in one statement, then one by one; the
  // events are then opened without a wait each (a replay opens thousands a batch).
  const found = new Map<string, Buffer | null>();
  const lookUp = () => {
    for (const ownerId of owners) {
      const key = found.has(ownerId) ? undefined : keys.knownKey?.(ownerId);
      if (key !== undefined) found.set(ownerId, key);
    }
  };
  lookUp();
  if (found.size < owners.size && keys.prefetch) {
    await keys.prefetch([...owners].filter((o) => !found.has(o)));
    lookUp();
  }
  for (const ownerId of owners) if (!found.has(ownerId)) found.set(ownerId, await keys.keyFor(ownerId, false));
  return events.map((e) => (hasPersonalFields(e.type) ? openEventWith(e, (ownerId) => found.get(ownerId) ?? null) : e));
}

export class SealedEventStore implements EventStore {
  readonly kind: EventStore["kind"];
  readonly watchAppends?: (listener: AppendListener) => () => void;
  /** Whether a new owner's key row is written by the append of their first event (fresh-keys.ts); null: not asked yet. */
  private keysWithEvents: Promise<boolean> | null = null;

  /**
   * `stored`: the store beneath (it is closed with this one); `keys`: the data keys (owned by the caller, who closes
   * them); `parties`: who the parties of an event are.
   */
  constructor(
    readonly stored: EventStore,
    readonly keys: BatchKeyRing,
    private readonly parties: EventPartySource,
  ) {
    this.kind = stored.kind;
    if (stored.watchAppends) this.watchAppends = (listener) => stored.watchAppends!(listener);
  }

  /**
   * Seals each event's personal fields and appends; an event type declared nowhere is refused (its fields' owners are
   * unknown), as is a personal field whose owner cannot be told (PersonalDataOwnerError). The result's events are
   * opened, as a reader would read them, for the writer's own state (a command handler folds them).
   */
  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const ring = this.keys;
    if (options.alongside || !makesFreshKeys(ring) || !(await this.writesKeysWithEvents())) {
      return this.appendSealed(streamId, events, expected, options, ring);
    }
    // A new owner's key is made here and its row written by this append, in its transaction: one statement.
    const keys = new AppendKeys(ring);
    let result: AppendResult;
    try {
      result = await this.appendSealed(streamId, events, expected, {}, keys);
    } catch (e) {
      keys.settle(false);
      // Another process made one of these keys first, or erased its owner: sealed again with the key in the table.
      if (e instanceof RowAlreadyWritten && e.table === KEY_ROW_TABLE) return this.appendSealed(streamId, events, expected, options, ring);
      throw e;
    }
    keys.settle(true);
    return result;
  }

  private async appendSealed(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
    options: AppendOptions,
    keys: KeyRing,
  ): Promise<AppendResult> {
    const sealed = await this.seal(streamId, events, keys);
    const rows = keys instanceof AppendKeys ? keys.rows() : undefined;
    const result = await this.stored.append(streamId, sealed, expected, rows ? { alongside: rows } : options);
    this.parties.written?.(streamId, events);
    // What a reader would read, without opening what was just sealed: each envelope is the writer's own value.
    const asRead = await Promise.all(
      result.events.map(async (e, i) => {
        const data = e.data === events[i]!.data ? e.data : asWritten(e.data, events[i]!.data);
        return data === undefined ? (await this.open([e]))[0]! : { ...e, data };
      }),
    );
    return { ...result, events: asRead };
  }

  async readStream(streamId: string, options?: { afterVersion?: number }): Promise<StreamRead> {
    const read = await this.stored.readStream(streamId, options);
    return { version: read.version, events: await this.open(read.events) };
  }

  async readAll(after: LogPosition | null, limit: number): Promise<StoredEvent[]> {
    return this.open(await this.stored.readAll(after, limit));
  }

  subscribe(options: SubscribeOptions): Subscription {
    return this.stored.subscribe({ ...options, onEvents: async (events) => options.onEvents(await this.open(events)) });
  }

  headPosition(): Promise<LogPosition | null> {
    return this.stored.headPosition();
  }

  countEvents(): Promise<number> {
    return this.stored.countEvents();
  }

  close(): Promise<void> {
    return this.stored.close();
  }

  /** Events read from the log as stored (a table row, a bus message) opened as this store's readers see them. */
  open<E extends EventBody>(events: readonly E[]): Promise<E[]> {
    return openEvents(events, this.keys);
  }

  /** Whether the store beneath writes rows alongside its appends into the database of the key ring's table. */
  private writesKeysWithEvents(): Promise<boolean> {
    const ring = this.keys;
    const rowsIn = this.stored.rowsWrittenWithAppendsIn?.bind(this.stored);
    if (!rowsIn || !makesFreshKeys(ring)) return Promise.resolve(false);
    this.keysWithEvents ??= Promise.all([ring.databaseIdentity(), rowsIn()]).then(
      ([keys, events]) => keys === events,
      () => {
        // Asked again next time; meanwhile keys are made as before, each committed before its event.
        this.keysWithEvents = null;
        return false;
      },
    );
    return this.keysWithEvents;
  }

  private seal(streamId: string, events: readonly NewEvent[], keys: KeyRing): Promise<NewEvent[]> {
    return Promise.all(
      events.map(async (event, i) => {
        if (personalFieldsOf(event.type).length === 0) return event;
        const parties = needsParties(event.type) ? await this.parties.partiesOf(streamId, event, events.slice(0, i)) : {};
        return sealEvent(event, keys, parties);
      }),
    );
  }
}

/**
 * `sealed` with each envelope replaced by the value at the same place in `written` (sealing changes only strings in
 * place: an envelope of what was written, or an erased owner's marker, which stays). Undefined when an envelope was
 * written as it is (sealed before: only opening tells what it holds).
 */
function asWritten(sealed: unknown, written: unknown): unknown {
  if (typeof sealed === "string") return !isEnvelope(sealed) ? sealed : sealed === written ? undefined : written;
  if (Array.isArray(sealed)) {
    const items = sealed.map((item, i) => asWritten(item, Array.isArray(written) ? written[i] : undefined));
    return items.includes(undefined) ? undefined : items;
  }
  if (typeof sealed !== "object" || sealed === null) return sealed;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(sealed)) {
    const read = asWritten(value, (written as Record<string, unknown> | null)?.[name]);
    if (read === undefined && value !== undefined) return undefined;
    out[name] = read;
  }
  return out;
}

/** The log as stored beneath a sealing store (envelopes: what the relay publishes), or the store itself. */
export const storedLogOf = (store: EventStore): EventStore => (store instanceof SealedEventStore ? store.stored : store);

/** Events read from `store`'s log as stored (raw SQL) opened as its readers see them; as they are when it does not seal. */
export const openStoredEvents = <E extends EventBody>(store: EventStore, events: readonly E[]): Promise<E[]> =>
  store instanceof SealedEventStore ? store.open(events) : Promise.resolve([...events]);

/** A source for stores whose events name every owner (tests, tools): no party is ever known. */
export const NO_PARTIES: EventPartySource = { partiesOf: async (): Promise<EventParties> => ({}) };
