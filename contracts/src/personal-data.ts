import type { DomainEventType } from "./events.ts";
import { CALENDAR_PERSONAL_DATA, CONVERSATION_PERSONAL_DATA, REVIEW_PERSONAL_DATA } from "./personal-data/bookings.ts";
import { erasedValue, type BookingParty, type DataOwner, type EventPersonalData, type PersonalField } from "./personal-data/fields.ts";
import {
  EXPERT_PERSONAL_DATA,
  PAYOUT_PERSONAL_DATA,
  SESSION_PERSONAL_DATA,
  TERMS_PERSONAL_DATA,
  USER_PERSONAL_DATA,
} from "./personal-data/people.ts";

// Which string fields of every event name or describe a person, and whose data each is (issue 33.1): the ground of
// crypto-shredding, where each personal field is stored encrypted with its owner's data key and erasure destroys the
// key (the envelope is @booking/event-store's personal-data/). The vocabulary and the rules are in
// ./personal-data/fields.ts, the declarations per stream beside it. contracts/test/personal-data.unit.test.ts walks
// every event schema and fails when a string field is declared neither personal nor not personal, or when a
// declaration names a field that does not exist: a new event type, or a new field, has to be declared here.

export * from "./personal-data/fields.ts";
export { ERASED_APPLICATION_BIO } from "./personal-data/people.ts";

/** Every event type of every stream, declared. */
export const PERSONAL_DATA: { readonly [T in DomainEventType]: EventPersonalData } = {
  ...CALENDAR_PERSONAL_DATA,
  ...REVIEW_PERSONAL_DATA,
  ...CONVERSATION_PERSONAL_DATA,
  ...USER_PERSONAL_DATA,
  ...TERMS_PERSONAL_DATA,
  ...EXPERT_PERSONAL_DATA,
  ...SESSION_PERSONAL_DATA,
  ...PAYOUT_PERSONAL_DATA,
};

/**
 * Event types the API writes to the log itself, not through a decider (api/src/auth: accounts.ts, preferences.ts; api/src/personal-data: erasure.ts). All
 * are in contracts' unions today, so their schemas are walked like any other; the test also looks through the source
 * for event literals (`{ type: "…", data: … }`) and fails on a type declared nowhere here. Early-access requests and
 * support messages are not events (tables and mail), so they have no declaration.
 */
export const EVENTS_WRITTEN_OUTSIDE_THE_DECIDERS: readonly DomainEventType[] = [
  "UserRegistered",
  "UserRenamed",
  "EmailVerified",
  "PreferencesSet",
  "UserErased",
];

export const isDeclaredEventType = (type: string): type is DomainEventType => Object.hasOwn(PERSONAL_DATA, type);

/** An event type's declaration; throws for a type declared nowhere (a writer must not guess what is personal). */
export function personalDataOf(eventType: string): EventPersonalData {
  if (!isDeclaredEventType(eventType)) {
    throw new Error(`Event type ${eventType} has no personal data declaration: declare its fields in contracts/src/personal-data/`);
  }
  return PERSONAL_DATA[eventType];
}

/** The personal fields of an event type (none for most); throws for a type declared nowhere. */
export const personalFieldsOf = (eventType: string): readonly PersonalField[] => personalDataOf(eventType).personal;

// ---- an event as it reads once a person is erased --------------------------------------------------------------------
// The same reading as the envelope's once the person's data key is gone (@booking/event-store's personal-data/): a read
// model that keeps events' data as they are (a booking's history) rewrites its rows with it when the person is erased,
// so that its rows then equal what a rebuild from the log makes of them.

/** The user ids of a booking's parties, which an event about the booking may not name itself. */
export type BookingParties = { readonly [P in BookingParty]?: string };

/** The user id whose data a field of `data` is, as the event and the parties tell; null when they do not. */
export function ownerIdOf(data: unknown, owner: DataOwner, parties: BookingParties): string | null {
  let id: unknown;
  if ("idIn" in owner) id = valueAt(data, owner.idIn);
  else if ("party" in owner) id = parties[owner.party];
  else {
    const named = valueAt(data, owner.partyNamedBy);
    const party = named === "creator" || named === "expert" ? named : owner.otherwise;
    id = party === undefined ? undefined : parties[party];
  }
  return typeof id === "string" ? id : null;
}

/**
 * An event's data with each personal field of `erasedUserId` replaced by its kind's marker (`erasedValue`); an empty
 * string stays empty (it says nothing, and is never sealed), and every other field stays as it is.
 */
export function eventDataAsErased<D>(eventType: string, data: D, erasedUserId: string, parties: BookingParties): D {
  let erased: unknown = data;
  for (const field of personalFieldsOf(eventType)) {
    if (ownerIdOf(data, field.owner, parties) !== erasedUserId) continue;
    erased = mapStrings(erased, field.field.split("."), (value) => (value === "" ? value : erasedValue(field, erasedUserId)));
  }
  return erased as D;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function valueAt(data: unknown, path: string): unknown {
  let value = data;
  for (const name of path.split(".")) {
    if (!isRecord(value) || !Object.hasOwn(value, name)) return undefined;
    value = value[name];
  }
  return value;
}

/** A copy of `value` with each string at the path's segments (`[]`: every item of an array) replaced by `visit`'s. */
function mapStrings(value: unknown, segments: readonly string[], visit: (s: string) => string): unknown {
  const [segment, ...rest] = segments;
  if (segment === undefined) return typeof value === "string" ? visit(value) : value;
  const many = segment.endsWith("[]");
  const name = many ? segment.slice(0, -2) : segment;
  if (!isRecord(value) || !Object.hasOwn(value, name)) return value;
  const child = value[name];
  const next = !many ? mapStrings(child, rest, visit) : Array.isArray(child) ? child.map((item) => mapStrings(item, rest, visit)) : child;
  return { ...value, [name]: next };
}
