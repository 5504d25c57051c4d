import { erasedValue, personalFieldsOf, type BookingParty, type DataOwner, type PersonalField } from "@booking/contracts";
import { SEALED_PARTS, openBytes, sealBytes } from "./aes-gcm.ts";
import type { KeyRing } from "./data-keys.ts";

// The envelope of personal data in events (issue 33.1): each personal field (contracts' personal-data declarations) is
// stored as `pd1:<ownerId>:<iv>.<tag>.<ciphertext>`, AES-256-GCM under its owner's data key. The owner's id stays in
// clear so a reader knows which key opens it; the additional data binds the ciphertext to the event type, the field's
// path (with its place in an array) and the owner, so an envelope copied to another field, event type, array place or
// owner does not open. Ids, times, amounts and every field declared not personal are never touched.
//
// Reading never fails for want of a key: a field whose owner was erased reads as its kind's marker (contracts'
// `erasedValue`: "Deleted" and "user" for names, "[erased]" for text, …), and a field still in plain text (stored
// before sealing began) reads as itself, so a store that is partly sealed reads. What does fail, loudly, is an envelope
// that was altered or moved: EnvelopeError, naming the event type, the field and the owner.

/**
 * The user ids of the parties an event is about, which the writer knows and the event may not say: the booking's
 * creator and expert (the calendar stream's booking, a review's or a conversation's), or the expert whose own stream
 * (`expert-`, `calendar-`, `payouts-{expertId}`) the event is on.
 */
export type EventParties = { readonly [P in BookingParty]?: string };

type Event = { readonly type: string; readonly data: unknown };

const PREFIX = "pd1:";
const ENVELOPE = new RegExp(`^pd1:([A-Za-z0-9_-]{1,64}):(${SEALED_PARTS})$`);
/** How an envelope begins: a string that begins so and is no whole envelope is a damaged one; any other is plain text. */
const ENVELOPE_HEAD = /^pd1:[A-Za-z0-9_-]{1,64}:/;
/** An owner's id goes into the envelope in clear: it must be an id (contracts' Id), which no `:` can break. */
const OWNER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An envelope that does not open under its owner's key: altered, or moved from another field, event type or owner. */
export class EnvelopeError extends Error {
  constructor(
    readonly eventType: string,
    readonly field: string,
    readonly ownerId: string | null,
    why: string,
  ) {
    super(`${eventType}.${field}: ${why}`);
    this.name = "EnvelopeError";
  }
}

/** A personal field whose owner the writer cannot tell: the event is refused rather than stored with the field in clear. */
export class PersonalDataOwnerError extends Error {
  constructor(eventType: string, field: string, why: string) {
    super(`${eventType}.${field}: ${why}`);
    this.name = "PersonalDataOwnerError";
  }
}

/** Whether a string has the form of an envelope (whether it opens is another matter). */
export const isEnvelope = (value: string): boolean => ENVELOPE.test(value);

const boundTo = (eventType: string, path: string, ownerId: string) => `pd1\u0000${eventType}\u0000${path}\u0000${ownerId}`;

/**
 * The event with each personal field sealed with its owner's data key (made on first use). A field of an owner who was
 * erased is stored as its erased marker: their data is never written again. An empty string stays empty (it says
 * nothing), and a field that already opens as sealed here stays as it is, so sealing an event twice (a migration run
 * again) changes nothing; anything else is sealed, text that merely looks like an envelope included (it would not open).
 */
export async function sealEvent<E extends Event>(event: E, keys: KeyRing, parties: EventParties = {}): Promise<E> {
  const fields = personalFieldsOf(event.type);
  if (fields.length === 0) return event;
  const owners = fields.map((field) => ownerOf(event, field, parties));
  // Every key the event needs, looked up once (a key made for the first field is the one the next finds): each field's
  // owner, made if they have none, and the owners of envelopes already there; then the fields are sealed without a wait.
  const wanted = new Map<string, boolean>();
  fields.forEach((field, i) => {
    eachString(event.data, field.field, (value) => {
      if (value === "") return;
      const ownerId = owners[i];
      if (ownerId) wanted.set(ownerId, true);
      const sealedBy = ENVELOPE.exec(value)?.[1];
      if (sealedBy !== undefined) wanted.set(sealedBy, (wanted.get(sealedBy) ?? false) || sealedBy === ownerId);
    });
  });
  const found = new Map<string, Buffer | null>();
  for (const [ownerId, create] of wanted) found.set(ownerId, await keys.keyFor(ownerId, create));
  let data = event.data;
  fields.forEach((field, i) => {
    const ownerId = owners[i] ?? null;
    data = mapFieldWith(data, field.field, (value, path) => {
      if (value === "") return value;
      if (ownerId === null) throw new PersonalDataOwnerError(event.type, path, describeMissingOwner(field.owner));
      const sealedBy = ENVELOPE.exec(value)?.[1];
      if (sealedBy !== undefined) {
        const key = found.get(sealedBy) ?? null;
        // Sealed here already, or under a key that is gone (it reads as erased either way): left as it is.
        if (!key || openWith(key, value, event.type, path, sealedBy) !== null) return value;
      }
      const key = found.get(ownerId) ?? null;
      if (!key) return erasedValue(field, ownerId);
      return `${PREFIX}${ownerId}:${sealBytes(key, Buffer.from(value, "utf8"), boundTo(event.type, path, ownerId))}`;
    });
  });
  return data === event.data ? event : { ...event, data };
}

/**
 * The event with each sealed personal field opened: an erased owner's field reads as its marker, a plain field as
 * itself. Throws EnvelopeError for an envelope that is malformed, altered or moved.
 */
export async function openEvent<E extends Event>(event: E, keys: KeyRing): Promise<E> {
  const found = new Map<string, Buffer | null>();
  for (const ownerId of envelopeOwners(event)) found.set(ownerId, await keys.keyFor(ownerId, false));
  return openEventWith(event, (ownerId) => found.get(ownerId) ?? null);
}

/** The owners whose data keys open the envelopes in an event's personal fields. */
export function envelopeOwners(event: Event, into = new Set<string>()): Set<string> {
  for (const field of personalFieldsOf(event.type)) {
    eachString(event.data, field.field, (value) => {
      const ownerId = ENVELOPE.exec(value)?.[1];
      if (ownerId !== undefined) into.add(ownerId);
    });
  }
  return into;
}

/**
 * openEvent with the keys at hand (`keyOf`: an owner's data key, null when they have none: erased), without a wait:
 * a batch of events is opened with the keys of all its owners looked up together (sealed-event-store.ts).
 */
export function openEventWith<E extends Event>(event: E, keyOf: (ownerId: string) => Buffer | null): E {
  let data = event.data;
  for (const field of personalFieldsOf(event.type)) {
    data = mapFieldWith(data, field.field, (value, path) => {
      if (!ENVELOPE_HEAD.test(value)) return value;
      const ownerId = ENVELOPE.exec(value)?.[1];
      if (ownerId === undefined) throw new EnvelopeError(event.type, path, null, "a malformed envelope (cut short or altered)");
      const key = keyOf(ownerId);
      if (!key) return erasedValue(field, ownerId);
      const plain = openWith(key, value, event.type, path, ownerId);
      if (plain === null) {
        throw new EnvelopeError(
          event.type,
          path,
          ownerId,
          `the envelope of ${ownerId} does not open: altered, or moved from another field or event`,
        );
      }
      return plain;
    });
  }
  return data === event.data ? event : { ...event, data };
}

function openWith(key: Buffer, envelope: string, eventType: string, path: string, ownerId: string): string | null {
  const sealed = ENVELOPE.exec(envelope)?.[2];
  if (sealed === undefined) return null;
  return openBytes(key, sealed, boundTo(eventType, path, ownerId))?.toString("utf8") ?? null;
}

/** The user id a personal field of this event belongs to; null when the event and the parties do not tell. */
function ownerOf(event: Event, field: PersonalField, parties: EventParties): string | null {
  const owner = field.owner;
  let id: unknown;
  if ("idIn" in owner) id = valueAt(event.data, owner.idIn);
  else if ("party" in owner) id = parties[owner.party];
  else {
    const named = valueAt(event.data, owner.partyNamedBy);
    const party = named === "creator" || named === "expert" ? named : owner.otherwise;
    id = party === undefined ? undefined : parties[party];
  }
  if (id === undefined || id === null) return null;
  if (typeof id !== "string" || !OWNER_ID.test(id)) {
    throw new PersonalDataOwnerError(
      event.type,
      field.field,
      `its owner's id ${JSON.stringify(id)} is not an id a data key can be kept under`,
    );
  }
  return id;
}

function describeMissingOwner(owner: DataOwner): string {
  if ("idIn" in owner) return `the event holds no owner's id in ${owner.idIn}`;
  if ("party" in owner) return `its owner, the ${owner.party}, was not given (EventParties)`;
  return `its owner, the party ${owner.partyNamedBy} names (or ${owner.otherwise ?? "nobody"} otherwise), was not given (EventParties)`;
}

function valueAt(data: unknown, path: string): unknown {
  let value = data;
  for (const name of path.split(".")) {
    if (!isRecord(value) || !Object.hasOwn(value, name)) return undefined;
    value = value[name];
  }
  return value;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A copy of `data` with each string at `field` (a declared path: dotted, `[]` for every item of an array) replaced by
 * what `visit` makes of it, given its concrete path (`answers[1]`); absent, null and non-string values stay as they are,
 * and so does every object and array in which nothing changed (an event sealed already comes back as the same event).
 */
function mapFieldWith(data: unknown, field: string, visit: (value: string, path: string) => string): unknown {
  const walk = (value: unknown, segments: readonly string[], path: string): unknown => {
    const [segment, ...rest] = segments;
    if (segment === undefined) return typeof value === "string" ? visit(value, path) : value;
    const many = segment.endsWith("[]");
    const name = many ? segment.slice(0, -2) : segment;
    if (!isRecord(value) || !Object.hasOwn(value, name)) return value;
    const child = value[name];
    const at = path ? `${path}.${name}` : name;
    let next: unknown = child;
    if (!many) next = walk(child, rest, at);
    else if (Array.isArray(child)) {
      const items = child.map((item, i) => walk(item, rest, `${at}[${i}]`));
      next = items.every((item, i) => item === child[i]) ? child : items;
    }
    return next === child ? value : { ...value, [name]: next };
  };
  return walk(data, field.split("."), "");
}

/** Each string at `field` (a declared path) in `data`. */
function eachString(data: unknown, field: string, visit: (value: string) => void): void {
  mapFieldWith(data, field, (value) => {
    visit(value);
    return value;
  });
}
