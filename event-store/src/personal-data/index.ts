// Crypto-shredding (issue 33.1): the envelope that seals personal fields of events per person, the data keys it uses
// (in memory, or the `data_keys` table), and the store around another that seals on the way in and opens on the way out.

export { DataKeyError, InMemoryKeyRing, masterKeyFromSecret, newDataKey, unwrapKey, wrapKey, type KeyRing } from "./data-keys.ts";
export {
  DATA_KEY_ERASED_CHANNEL,
  PostgresKeyRing,
  dataKeyMigrations,
  type DataKeys,
  type PostgresKeyRingOptions,
} from "./data-keys-table.ts";
export {
  EnvelopeError,
  PersonalDataOwnerError,
  envelopeOwners,
  isEnvelope,
  openEvent,
  openEventWith,
  sealEvent,
  type EventParties,
} from "./envelope.ts";
export {
  NO_PARTIES,
  SealedEventStore,
  openEvents,
  openStoredEvents,
  storedLogOf,
  type BatchKeyRing,
  type EventBody,
  type EventPartySource,
} from "./sealed-event-store.ts";
export { BookingPartyBook, type BookingParties } from "./event-parties.ts";
export { sealStoredEvents, type SealingProgress, type SealingResult } from "./seal-stored-events.ts";
