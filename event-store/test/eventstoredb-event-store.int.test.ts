import { describe, it } from "vitest";
import { announceSkip, eventStoreDB } from "@booking/testkit";
import { EventStoreDBEventStore } from "../src/eventstoredb/eventstoredb-event-store.ts";
import { eventStoreContract } from "./event-store-contract.ts";

// EventStoreDB from ESDB_URL, else testcontainers where a Docker engine runs; else skipped, loudly.
const esdb = await eventStoreDB();

if (esdb.available) {
  eventStoreContract("eventstoredb", async () => {
    const store = EventStoreDBEventStore.connect(esdb.url);
    return {
      store,
      teardown: async () => {
        await store.close();
        await esdb.stop();
      },
    };
  });
} else {
  announceSkip("EventStore contract: eventstoredb", esdb.reason);
  describe("EventStore contract: eventstoredb", () => {
    it.skip(`skipped: ${esdb.reason}`, () => undefined);
  });
}
