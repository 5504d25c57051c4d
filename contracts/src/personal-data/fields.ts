// The vocabulary of the personal data classification (issue 33.1): which string fields of an event name or describe a
// person, whose data each one is, and what it reads as once that person's data key is destroyed (erasure). The
// declarations per stream are beside this file; contracts/src/personal-data.ts assembles them.
//
// A field path is dotted for nested objects and ends a segment with `[]` for every item of an array:
// `"reason"`, `"notes.summary"`, `"notes.takeaways[]"`, `"slots[].start_local"`.
//
// The rules the declarations follow:
// - Personal: names, e-mail addresses, anything a person wrote in their own words (prep answers, notes, messages,
//   review texts, reasons, bios, a profile's title and tags), links a person gave (a meeting link, work links, their
//   photo), and what is made of a name (a profile's slug).
// - Not personal: ids (user ids included: erasure destroys what an id points to, not the id), times, amounts,
//   statuses, currencies, enum-like codes, the payment and payout provider's ids and its failure messages, and an
//   expert's published product text (a session's title, description and prep questions, also where a booking copies
//   them): the catalogue, not a description of a person.
// - Whose data: what a person wrote is theirs (the author's); what an admin or the system wrote about a person (why an
//   expert was suspended, why a review was hidden, how a no-show report was settled) is the data of the person it is
//   about. So an erased person leaves "Deleted user" and nothing they wrote, and nothing written about them.
// Fields of a fixed set of values (z.enum, z.literal) cannot hold a person's text and are not declared.

/** A party of a booking: its creator (who booked and paid) or its expert (as a user). */
export type BookingParty = "creator" | "expert";

/**
 * Whose personal data a field is: how the writer of an event finds the user id whose data key seals the field.
 * - `idIn`: a user id another field of the same event holds (a path in its data): `"userId"`, `"creatorId"`, `"by"`.
 * - `party`: a party of the booking the event is about (its `bookingId`), as the booking's request named them; on an
 *   expert's own stream without a booking (`calendar-`, `expert-`, `payouts-{expertId}`), `expert` is that expert.
 * - `partyNamedBy`: the party a role field of the event names (`"creator"` or `"expert"`); when it names anyone else
 *   (an admin, the system), `otherwise` (and without `otherwise`, no owner: the writer refuses to store the event).
 */
export type DataOwner = { idIn: string } | { party: BookingParty } | { partyNamedBy: string; otherwise?: BookingParty };

/** What a personal field holds, which decides what it reads as once its owner is erased (`erasedValue`). */
export type PersonalKind = "first_name" | "last_name" | "email" | "slug" | "link" | "text";

export type PersonalField = {
  readonly field: string;
  readonly kind: PersonalKind;
  readonly owner: DataOwner;
  /** What the field reads as once erased, where the kind's marker would not fit the event's schema (see `erasedValue`). */
  readonly erasedAs?: string;
};

/** One event type's string fields, each declared one way or the other. */
export type EventPersonalData = { readonly personal: readonly PersonalField[]; readonly notPersonal: readonly string[] };

// ---- what an erased person's fields read as ------------------------------------------------------------------------
// A reader never fails on an erased person: each personal field reads as a marker of its kind, and every marker still
// parses under the event's schema (a stored event is parsed when read). Names: the first name reads "Deleted" and the
// last name "user", so wherever a name is shown as "first last" it shows "Deleted user". Markers made of the owner's id
// stay unique where a read model keeps the value unique (an expert's slug) or may look it up (an e-mail address).

export const ERASED_FIRST_NAME = "Deleted";
export const ERASED_LAST_NAME = "user";
/** How a person whose data was erased is named wherever the product shows a name. */
export const ERASED_PERSON_NAME = `${ERASED_FIRST_NAME} ${ERASED_LAST_NAME}`;
/** Anything a person wrote, once erased. */
export const ERASED_TEXT = "[erased]";
/** A link, once erased: an https address whose host can never resolve (`.invalid`, RFC 6761), which no own-image rule accepts. */
export const ERASED_LINK = "https://erased.invalid/";
/** The domain of an erased e-mail address: `.invalid` (RFC 6761), so no mail can ever be sent to it. */
export const ERASED_EMAIL_DOMAIN = "erased.invalid";

export const erasedEmail = (ownerId: string): string => `deleted-user-${ownerId}@${ERASED_EMAIL_DOMAIN}`;
export const erasedSlug = (ownerId: string): string => `deleted-user-${ownerId}`;
/** Rule: whether an e-mail address is the marker of an erased person's address (never to be written to). */
export const isErasedEmail = (email: string): boolean => email.toLowerCase().endsWith(`@${ERASED_EMAIL_DOMAIN}`);

/** What a personal field of `ownerId` reads as once their data key is destroyed. */
export function erasedValue(field: PersonalField, ownerId: string): string {
  if (field.erasedAs !== undefined) return field.erasedAs;
  switch (field.kind) {
    case "first_name":
      return ERASED_FIRST_NAME;
    case "last_name":
      return ERASED_LAST_NAME;
    case "email":
      return erasedEmail(ownerId);
    case "slug":
      return erasedSlug(ownerId);
    case "link":
      return ERASED_LINK;
    case "text":
      return ERASED_TEXT;
  }
}
