import { inject } from "vitest";
import { createTestDatabase } from "@booking/testkit";
import { PostgresEventStore } from "../../src/event-store/postgres/postgres-event-store.ts";
import { eventStoreContract } from "./event-store-contract.ts";

eventStoreContract("postgres", async () => {
  const db = await createTestDatabase(inject("databaseUrl"), "es");
  const store = await PostgresEventStore.connect(db.url, { poolSize: 12 });
  return {
    store,
    holdAppendOpen: async (streamId, events) => store.beginAppend(streamId, events, "no_stream"),
    teardown: async () => {
      await store.close();
      await db.drop();
    },
  };
});
