import { randomUUID } from "node:crypto";
import { calendarDecider, calendarStream } from "@booking/engine";
import { CommandHandler, PostgresEventStore, type NewEvent } from "@booking/event-store";
import { createTestDatabase } from "@booking/testkit";
import type { Contender } from "./interleave.ts";
import { midnightUtc, requestBooking, seedExperts } from "./seed.ts";

// The baseline the store is measured against (bench commands and appends): single-row INSERT
// transactions of a real BookingRequested event, as command handling writes it, into a table
// shaped like `events`.

/** One BookingRequested as command handling writes it (data and metadata), made on a database of its own. */
export async function bookingRequested(serverUrl: string): Promise<NewEvent> {
  const db = await createTestDatabase(serverUrl, "bench_event");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 2 });
  try {
    const start = midnightUtc(new Date(), 1);
    const at = new Date(start.getTime() - 3_600_000).toISOString();
    const [expert] = await seedExperts(store, 1, at, { profiles: false, sessions: false });
    const handler = new CommandHandler(store, calendarDecider, { clock: () => at });
    const r = await handler.handle(calendarStream(expert!.expertId), requestBooking(expert!, "c-1", start.toISOString(), 60), {
      actor: { userId: "c-1", role: "creator" },
    });
    if (!r.ok) throw new Error(`booking refused: ${r.refusal.code}`);
    const written = r.value.events[0]!;
    return { type: written.type, schemaVersion: written.schemaVersion, data: written.data, metadata: written.metadata };
  } finally {
    await store.close();
    await db.drop();
  }
}

/** Each client's stream and the version it has reached: every append expects exactly it. */
export function clientStreams(clients: number, prefix: string) {
  const run = randomUUID();
  const versions = Array.from({ length: clients }, () => 0);
  return { streamOf: (client: number) => `${prefix}-${run}-${client}`, versions };
}

/** Single-row INSERTs (autocommit) of `event`, each client on a stream of its own, on a database of its own. */
export async function insertContender(
  serverUrl: string,
  event: NewEvent,
  clients: number,
): Promise<{ contender: Contender; close: () => Promise<void> }> {
  const db = await createTestDatabase(serverUrl, "bench_ins");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 10 });
  await store.pool.query("CREATE TABLE bench_insert (LIKE events INCLUDING ALL)");
  const { streamOf, versions } = clientStreams(clients, "calendar");
  const data = JSON.stringify(event.data);
  const metadata = JSON.stringify(event.metadata);
  const op = async (client: number) => {
    await store.pool.query(
      "INSERT INTO bench_insert (stream_id, version, event_id, type, schema_version, data, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [streamOf(client), ++versions[client]!, randomUUID(), event.type, event.schemaVersion ?? 1, data, metadata],
    );
    return true;
  };
  return {
    contender: { name: "INSERT", op },
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}
