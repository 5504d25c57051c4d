import { currentSchemaVersion, readDomainEvent, type Actor, type DomainEvent, type UserEvent } from "@booking/contracts";
import { WrongExpectedVersion, type EventStore, type StoredEvent } from "@booking/event-store";
import type { Projected } from "../http/index.ts";

// How a user wants to hear from us: the zone their mails give times in and whether reminders are
// sent. The user's stream is the record (UserRegistered's zone, then PreferencesSet); a change is
// appended against the version it was decided from, so two changes at once never lose one.

export type MailPreferences = { timezone: string | null; reminderMails: boolean };

export const DEFAULT_PREFERENCES: MailPreferences = { timezone: null, reminderMails: true };

/** The preferences a user's events leave: registration's zone, then each PreferencesSet. Pure. */
export function preferencesOf(events: readonly DomainEvent[]): MailPreferences {
  let preferences = DEFAULT_PREFERENCES;
  for (const event of events) {
    if (event.type === "UserRegistered") preferences = { ...preferences, timezone: event.data.timezone ?? preferences.timezone };
    else if (event.type === "PreferencesSet") preferences = { timezone: event.data.timezone, reminderMails: event.data.reminderMails };
  }
  return preferences;
}

const readEvent = (e: StoredEvent): DomainEvent => readDomainEvent(e.type, e.schemaVersion, e.data);

const ATTEMPTS = 3;

export type PreferencesDeps = { store: EventStore; clock: () => string; projected: Projected };

/** What `PreferencesSet` records (a zone always: callers put "UTC" when none was ever given); null: nothing to change. */
export type PreferencesChoice = { timezone: string; reminderMails: boolean } | null;

/**
 * Append `PreferencesSet` with what `decide` makes of the current preferences, then wait until the
 * read models show it. False when the user has no stream; "conflict" when other writes kept
 * winning.
 */
export async function setPreferences(
  deps: PreferencesDeps,
  actor: Actor,
  decide: (current: MailPreferences) => PreferencesChoice,
): Promise<boolean | "conflict"> {
  const stream = `user-${actor.userId}`;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const read = await deps.store.readStream(stream);
    if (read.version === 0) return false;
    const chosen = decide(preferencesOf(read.events.map(readEvent)));
    if (!chosen) return true;
    const event: UserEvent = { type: "PreferencesSet", data: { userId: actor.userId, ...chosen } };
    try {
      const written = await deps.store.append(
        stream,
        [{ type: event.type, schemaVersion: currentSchemaVersion(event.type), data: event.data, metadata: { at: deps.clock(), actor } }],
        read.version,
      );
      await deps.projected({ events: written.events, version: written.nextVersion, position: written.position, replayed: false });
      return true;
    } catch (e) {
      if (!(e instanceof WrongExpectedVersion)) throw e;
    }
  }
  return "conflict";
}
