import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  WrongExpectedVersion,
  comparePositions,
  formatPosition,
  type EventStore,
  type LogPosition,
  type NewEvent,
  type StoredEvent,
} from "../src/port.ts";

/** What an adapter's suite provides: a store, and (where the backend has transactions) a way to hold one open. */
export type ContractSubject = {
  store: EventStore;
  /** Write events in a transaction left open until `commit` is called. */
  holdAppendOpen?: (streamId: string, events: NewEvent[]) => Promise<{ commit: () => Promise<unknown> }>;
  teardown: () => Promise<void>;
};

const at = new Date(0).toISOString();
const event = (n: number, type = "Completed"): NewEvent => ({ type, data: { bookingId: `b${n}`, n }, metadata: { at } });
const stream = (name: string) => `${name}-${randomUUID()}`;

async function readEverything(store: EventStore, after: LogPosition | null = null, limit = 1000): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  let checkpoint = after;
  for (;;) {
    const batch = await store.readAll(checkpoint, limit);
    if (batch.length === 0) return all;
    all.push(...batch);
    checkpoint = batch[batch.length - 1]!.position;
  }
}

/** One contract, every adapter: the semantics the engine, relay and projections rely on. */
export function eventStoreContract(name: string, makeSubject: () => Promise<ContractSubject>) {
  describe(`EventStore contract: ${name}`, () => {
    let subject: ContractSubject;
    let store: EventStore;
    beforeAll(async () => {
      subject = await makeSubject();
      store = subject.store;
    });
    afterAll(async () => subject?.teardown());

    it("appends to a new stream and reads it back with versions from 1", async () => {
      const id = stream("calendar");
      const r = await store.append(id, [event(1), event(2)], "no_stream");
      expect(r.nextVersion).toBe(2);
      const read = await store.readStream(id);
      expect(read.version).toBe(2);
      expect(read.events.map((e) => [e.version, e.data])).toEqual([
        [1, { bookingId: "b1", n: 1 }],
        [2, { bookingId: "b2", n: 2 }],
      ]);
      expect(comparePositions(r.position, read.events[1]!.position)).toBe(0);
      const tail = await store.readStream(id, { afterVersion: 1 });
      expect(tail.events.map((e) => e.version)).toEqual([2]);
      expect(await store.readStream(stream("missing"))).toEqual({ version: 0, events: [] });
    });

    it("an event's recorded time is the UTC instant of its append, to the millisecond, the same however it is read", async () => {
      const id = stream("calendar");
      const before = Date.now();
      const r = await store.append(id, [event(1)], "no_stream");
      const after = Date.now();
      const recorded = r.events[0]!.recordedAt;
      expect(recorded).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(new Date(recorded).toISOString()).toBe(recorded);
      // The server's clock, not ours: a second either way.
      expect(Date.parse(recorded)).toBeGreaterThanOrEqual(before - 1_000);
      expect(Date.parse(recorded)).toBeLessThanOrEqual(after + 1_000);
      expect((await store.readStream(id)).events[0]!.recordedAt).toBe(recorded);
      const fromLog = await readEverything(store);
      expect(fromLog.find((e) => e.streamId === id)?.recordedAt).toBe(recorded);
    });

    it("two concurrent appends with the same expected version: exactly one wins", async () => {
      for (let round = 0; round < 20; round++) {
        const id = stream("race");
        await store.append(id, [event(0)], "no_stream");
        const results = await Promise.allSettled([store.append(id, [event(1)], 1), store.append(id, [event(2)], 1)]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const loser = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
        expect(loser.reason).toBeInstanceOf(WrongExpectedVersion);
        expect((await store.readStream(id)).version).toBe(2);
      }
    });

    it("'no stream' when another writer created the stream first is a conflict", async () => {
      const id = stream("created-twice");
      await store.append(id, [event(1)], "no_stream");
      await expect(store.append(id, [event(2)], "no_stream")).rejects.toBeInstanceOf(WrongExpectedVersion);
      await expect(store.append(id, [event(2)], 0)).rejects.toBeInstanceOf(WrongExpectedVersion);
      const racing = stream("racing-creators");
      const both = await Promise.allSettled([store.append(racing, [event(1)], "no_stream"), store.append(racing, [event(2)], "no_stream")]);
      expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect((await store.readStream(racing)).events).toHaveLength(1);
    });

    it("enforces exact versions, 'stream exists' and 'any'", async () => {
      const id = stream("expect");
      await expect(store.append(id, [event(1)], "stream_exists")).rejects.toBeInstanceOf(WrongExpectedVersion);
      await store.append(id, [event(1)], "any");
      await expect(store.append(id, [event(2)], 5)).rejects.toMatchObject({ actual: 1 });
      await store.append(id, [event(2)], 1);
      await store.append(id, [event(3)], "stream_exists");
      await store.append(id, [event(4)], "any");
      expect((await store.readStream(id)).events.map((e) => e.version)).toEqual([1, 2, 3, 4]);
    });

    it("a catch-up read never skips an event whose transaction committed after a later-positioned one", async (ctx) => {
      if (!subject.holdAppendOpen) {
        ctx.skip("this store assigns log positions at commit, so no event can commit out of order");
        return;
      }
      const before = await store.headPosition();
      const streams = [stream("slow-writer"), stream("fast-writer"), stream("fast-writer")];
      // Only this test's streams: a transaction open in another test file on the same server holds
      // the horizon back, so `before` may lag and the log read after it show earlier tests' events.
      const ours = (events: StoredEvent[]) => events.filter((e) => streams.includes(e.streamId));
      const held = await subject.holdAppendOpen(streams[0]!, [event(1, "Completed")]);
      const fast = [await store.append(streams[1]!, [event(2)], "no_stream"), await store.append(streams[2]!, [event(3)], "no_stream")];
      // A reader now must not move past the open transaction's event.
      const first = ours(await readEverything(store, before));
      const checkpoint = first.length ? first[first.length - 1]!.position : before;
      await held.commit();
      // Another transaction open anywhere on the server may delay the rest, never drop it.
      let seen: number[] = [];
      await vi.waitFor(
        async () => {
          const second = ours(await readEverything(store, checkpoint));
          seen = [...first, ...second].map((e) => (e.data as { n: number }).n);
          expect(seen.length).toBeGreaterThanOrEqual(3);
        },
        { timeout: 10_000 },
      );
      expect(seen.sort()).toEqual([1, 2, 3]);
      expect(fast).toHaveLength(2);
    });

    it("reading all from a checkpoint returns each event exactly once, in order", async () => {
      const before = await store.headPosition();
      const written: string[] = [];
      for (let i = 0; i < 40; i++) {
        const r = await store.append(stream(`page-${i % 4}`), [event(i), event(i + 1000)], "any");
        written.push(...r.events.map((e) => e.eventId));
      }
      for (const pageSize of [1, 7, 100]) {
        const read = await readEverything(store, before, pageSize);
        expect(read.map((e) => e.eventId)).toEqual(written);
        for (let i = 1; i < read.length; i++) expect(comparePositions(read[i - 1]!.position, read[i]!.position)).toBe(-1);
      }
      const head = await store.headPosition();
      expect(head && formatPosition(head)).toBe(formatPosition((await readEverything(store, before)).at(-1)!.position));
    });

    it("a 10,000-event stream reads back identical", async () => {
      const id = stream("long");
      const events = Array.from({ length: 10_000 }, (_, i) => ({
        type: "NotesAdded",
        data: { bookingId: `b${i}`, i, text: `note ${i} ✓` },
        metadata: { at, idempotencyKey: `k${i}` },
      }));
      for (let i = 0; i < events.length; i += 500) await store.append(id, events.slice(i, i + 500), i === 0 ? "no_stream" : i);
      const read = await store.readStream(id);
      expect(read.version).toBe(10_000);
      expect(read.events.map((e) => ({ type: e.type, data: e.data, metadata: e.metadata }))).toEqual(events);
      expect(read.events.map((e) => e.version)).toEqual(events.map((_, i) => i + 1));
    });

    it("a catch-up reader under 8 concurrent writers (10,000 appends) loses no event", async () => {
      const before = await store.headPosition();
      const seen = new Map<string, number>();
      let appended = 0;
      const reader = store.subscribe({
        after: before,
        batchSize: 250,
        onEvents: async (batch) => {
          for (const e of batch) if (e.streamId.startsWith("load-")) seen.set(e.eventId, (seen.get(e.eventId) ?? 0) + 1);
        },
      });
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; i < 1250; i++) {
            await store.append(`load-${w}-${i % 50}-${before ? formatPosition(before) : "0"}`, [event(i)], "any");
            appended++;
          }
        }),
      );
      const deadline = Date.now() + 60_000;
      while (seen.size < appended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await reader.stop();
      console.log(`[contract:${name}] catch-up reader saw ${seen.size} of ${appended} events appended by 8 writers`);
      expect(appended).toBe(10_000);
      expect(seen.size).toBe(10_000);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
    });

    it("watchAppends announces each append's position, and stops after unwatch", async () => {
      const id = stream("watched");
      const announced: LogPosition[] = [];
      const streams: (readonly string[] | undefined)[] = [];
      const unwatch = store.watchAppends?.((p, s) => {
        announced.push(p);
        streams.push(s);
      });
      expect(unwatch, "every adapter announces appends (followers would poll otherwise)").toBeTypeOf("function");
      await new Promise((r) => setTimeout(r, 200)); // a subscription-based watch is live
      const first = await store.append(id, [event(1)], "no_stream");
      const deadline = Date.now() + 10_000;
      while (!announced.some((p) => comparePositions(p, first.position) >= 0) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const covering = announced.findIndex((p) => comparePositions(p, first.position) >= 0);
      expect(covering).toBeGreaterThanOrEqual(0);
      // A cache of stream states trusts this: the announcement names the stream written (or names none).
      const named = streams[covering];
      if (named) expect(named).toContain(id);
      unwatch!();
      const seen = announced.length;
      await store.append(id, [event(2)], 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(announced.length).toBe(seen);
    });

    it("a subscription delivers new events as they are appended", async () => {
      const id = stream("live");
      const got: StoredEvent[] = [];
      const sub = store.subscribe({
        after: await store.headPosition(),
        onEvents: async (b) => void got.push(...b.filter((e) => e.streamId === id)),
      });
      await store.append(id, [event(1)], "no_stream");
      await store.append(id, [event(2)], 1);
      const deadline = Date.now() + 10_000;
      while (got.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await sub.stop();
      expect(got.map((e) => e.version)).toEqual([1, 2]);
    });
  });
}
