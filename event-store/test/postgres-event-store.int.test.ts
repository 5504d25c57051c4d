import { describe, expect, inject, it, vi } from "vitest";
import { createTestDatabase } from "@booking/testkit";
import { PostgresEventStore } from "../src/postgres/postgres-event-store.ts";
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

describe("postgres: followers in the appending process", () => {
  it("a subscriber and a watcher are woken by an append, not by their poll", async () => {
    const db = await createTestDatabase(inject("databaseUrl"), "es_wake");
    // A poll far longer than the wait below: only the append's wake can deliver in time.
    const store = await PostgresEventStore.connect(db.url, { poolSize: 4, pollIntervalMs: 60_000 });
    try {
      const seen: string[] = [];
      let watched = 0;
      const unwatch = store.watchAppends(() => void watched++);
      const subscription = store.subscribe({ after: null, onEvents: async (events) => void seen.push(...events.map((e) => e.streamId)) });
      await new Promise((r) => setTimeout(r, 200)); // the subscriber has read the empty log and sleeps
      const metadata = { at: new Date().toISOString() };
      await store.append("wake-1", [{ type: "Probe", data: {}, metadata }], "no_stream");
      await vi.waitFor(() => expect(seen).toEqual(["wake-1"]), { timeout: 5_000 });
      unwatch();
      await store.append("wake-2", [{ type: "Probe", data: {}, metadata }], "no_stream");
      await vi.waitFor(() => expect(seen).toEqual(["wake-1", "wake-2"]), { timeout: 5_000 });
      expect(watched).toBe(1);
      await subscription.stop();
    } finally {
      await store.close();
      await db.drop();
    }
  });

  it("another process's subscriber is woken by the append's announcement, not by its poll", async () => {
    const db = await createTestDatabase(inject("databaseUrl"), "es_wake2");
    const writer = await PostgresEventStore.connect(db.url, { poolSize: 4 });
    const reader = await PostgresEventStore.connect(db.url, { poolSize: 4, pollIntervalMs: 60_000 });
    try {
      const seen: string[] = [];
      const subscription = reader.subscribe({ after: null, onEvents: async (events) => void seen.push(...events.map((e) => e.streamId)) });
      await new Promise((r) => setTimeout(r, 300)); // listening, and asleep on an empty log
      await writer.append("elsewhere-1", [{ type: "Probe", data: {}, metadata: { at: new Date().toISOString() } }], "no_stream");
      await vi.waitFor(() => expect(seen).toEqual(["elsewhere-1"]), { timeout: 5_000 });
      await subscription.stop();
    } finally {
      await writer.close();
      await reader.close();
      await db.drop();
    }
  });
});
