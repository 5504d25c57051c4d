import type { DataOwner, EventPersonalData, PersonalField, PersonalKind } from "./fields.ts";

// The notation the declarations beside this file are written in (not exported from contracts: readers use the types
// and the lookup in ../personal-data.ts).

export const CREATOR: DataOwner = { party: "creator" };
export const EXPERT: DataOwner = { party: "expert" };
export const idIn = (field: string): DataOwner => ({ idIn: field });

export const personal = (field: string, kind: PersonalKind, owner: DataOwner, erasedAs?: string): PersonalField =>
  erasedAs === undefined ? { field, kind, owner } : { field, kind, owner, erasedAs };
/** Text a person wrote (or that describes them): erased, it reads ERASED_TEXT. */
export const text = (field: string, owner: DataOwner): PersonalField => personal(field, "text", owner);
export const link = (field: string, owner: DataOwner): PersonalField => personal(field, "link", owner);

/** An event type whose string fields are all not personal. */
export const nothingPersonal = (...notPersonal: string[]): EventPersonalData => ({ personal: [], notPersonal });
export const fields = (notPersonal: readonly string[], ...personalFields: PersonalField[]): EventPersonalData => ({
  personal: personalFields,
  notPersonal,
});
