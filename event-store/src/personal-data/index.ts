// Crypto-shredding's ground (issue 33.1): the envelope that seals personal fields of events per person, and the data
// keys it uses. Not yet on the store's append and read paths.

export { DataKeyError, InMemoryKeyRing, masterKeyFromSecret, newDataKey, unwrapKey, wrapKey, type KeyRing } from "./data-keys.ts";
export { EnvelopeError, PersonalDataOwnerError, isEnvelope, openEvent, sealEvent, type EventParties } from "./envelope.ts";
