import { EventStoreDBEventStore, PostgresEventStore, type EventStore } from "@booking/event-store";

/** EventStoreDB when ESDB_URL is set, else the Postgres event store in DATABASE_URL. */
export async function openEventStore(config: { DATABASE_URL: string; ESDB_URL?: string | undefined }): Promise<EventStore> {
  if (config.ESDB_URL) return EventStoreDBEventStore.connect(config.ESDB_URL);
  return PostgresEventStore.connect(config.DATABASE_URL);
}
