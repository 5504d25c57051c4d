import type pg from "pg";
import { findBooking } from "@booking/projections";
import {
  BookingPartyBook,
  EventStoreDBEventStore,
  PostgresEventStore,
  PostgresKeyRing,
  SealedEventStore,
  SnapshotSeal,
  masterKeyFromSecret,
  snapshotKeyFromSecret,
  type EventStore,
} from "@booking/event-store";
import { dataKeySecretOf } from "./config.ts";

type StoreSettings = { DATABASE_URL: string; ESDB_URL?: string | undefined };

/** The log as stored: EventStoreDB when ESDB_URL is set, else the Postgres event store in DATABASE_URL. The relay publishes it as it is. */
export async function openEventStore(config: StoreSettings): Promise<EventStore> {
  if (config.ESDB_URL) return EventStoreDBEventStore.connect(config.ESDB_URL);
  return PostgresEventStore.connect(config.DATABASE_URL);
}

/** The log as every other process reads and writes it (issue 33.1), with what seals and opens it. */
export type PersonalDataLog = {
  /** Seals personal fields on the way in and opens them on every way out. */
  store: SealedEventStore;
  /** People's data keys (in DATABASE_URL's `data_keys`, whichever store holds the events): `erase` destroys one. */
  keys: PostgresKeyRing;
  /** Seals snapshots' states (PostgresSnapshotStore.connect's `seal`). */
  snapshotSeal: SnapshotSeal;
  /** Closes the store and the key ring. */
  close(): Promise<void>;
};

/** Who a booking's event's parties are: the bookings read model in `db` first, where the process has it, else the log. */
export function bookingPartyBook(stored: EventStore, db: pg.Pool | null): BookingPartyBook {
  if (!db) return new BookingPartyBook({ log: stored });
  const bookings = async (bookingId: string) => {
    const row = await findBooking(db, bookingId);
    return row && { creator: row.creator_id, expert: row.expert_user_id };
  };
  return new BookingPartyBook({ log: stored, bookings });
}

/** `stored` sealed by `keys`, a booking's parties found by bookingPartyBook. */
export const sealedEventStore = (stored: EventStore, keys: PostgresKeyRing, db: pg.Pool | null): SealedEventStore =>
  new SealedEventStore(stored, keys, bookingPartyBook(stored, db));

/**
 * The log with personal data sealed under DATA_KEY_SECRET (or the development secret outside production: config.ts).
 * `db`: the read models, where the process has them (a booking's parties are read there first).
 */
export async function openPersonalDataLog(
  config: StoreSettings & { DATA_KEY_SECRET?: string | undefined },
  db: pg.Pool | null,
): Promise<PersonalDataLog> {
  const { secret } = dataKeySecretOf(config);
  const stored = await openEventStore(config);
  // The Postgres store commits its events to the same server as the keys: a new key need not wait for the disk.
  const keys = await PostgresKeyRing.connect(config.DATABASE_URL, masterKeyFromSecret(secret), {
    keysCommitBeforeTheirEvents: !config.ESDB_URL,
  });
  const store = sealedEventStore(stored, keys, db);
  return {
    store,
    keys,
    snapshotSeal: new SnapshotSeal(snapshotKeyFromSecret(secret)),
    close: async () => {
      await store.close();
      await keys.close();
    },
  };
}
