import type { DomainEventType } from "./events.ts";
import { CALENDAR_PERSONAL_DATA, CONVERSATION_PERSONAL_DATA, REVIEW_PERSONAL_DATA } from "./personal-data/bookings.ts";
import type { EventPersonalData, PersonalField } from "./personal-data/fields.ts";
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
 * Event types the API writes to the log itself, not through a decider (api/src/auth: accounts.ts, preferences.ts). All
 * are in contracts' unions today, so their schemas are walked like any other; the test also looks through the source
 * for event literals (`{ type: "…", data: … }`) and fails on a type declared nowhere here. Early-access requests and
 * support messages are not events (tables and mail), so they have no declaration.
 */
export const EVENTS_WRITTEN_OUTSIDE_THE_DECIDERS: readonly DomainEventType[] = [
  "UserRegistered",
  "UserRenamed",
  "EmailVerified",
  "PreferencesSet",
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
