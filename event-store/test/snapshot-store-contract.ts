import { describe, expect, it } from "vitest";
import type { SnapshotStore } from "../src/snapshots/snapshot-store.ts";

/** What every SnapshotStore gives the command handler (run against each adapter). */
export function snapshotStoreContract(name: string, makeStore: () => SnapshotStore) {
  describe(`SnapshotStore contract: ${name}`, () => {
    const shape = "handler-1/calendar-test";
    const snap = (streamId: string, version: number, shape_ = shape) => ({
      streamId,
      version,
      shape: shape_,
      state: { bookings: [{ bookingId: `b${version}` }], text: "naïve – “quoted”" },
    });

    it("reads back what was written, and nothing for a stream without one", async () => {
      const store = makeStore();
      const id = `s-${crypto.randomUUID()}`;
      expect(await store.read(id, shape)).toBeNull();
      await store.write(snap(id, 7));
      expect(await store.read(id, shape)).toEqual(snap(id, 7));
    });

    it("keeps the later snapshot when an older one is written after it (two processes)", async () => {
      const store = makeStore();
      const id = `s-${crypto.randomUUID()}`;
      await store.write(snap(id, 9));
      await store.write(snap(id, 4));
      expect((await store.read(id, shape))?.version).toBe(9);
      await store.write(snap(id, 12));
      expect((await store.read(id, shape))?.version).toBe(12);
    });

    it("never answers with a snapshot of another shape; one of a new shape replaces it", async () => {
      const store = makeStore();
      const id = `s-${crypto.randomUUID()}`;
      await store.write(snap(id, 20, "handler-1/calendar-old"));
      expect(await store.read(id, shape)).toBeNull();
      await store.write(snap(id, 5));
      expect((await store.read(id, shape))?.version).toBe(5);
      expect(await store.read(id, "handler-1/calendar-old")).toBeNull();
    });

    it("forgets the snapshots whose stream or state mentions an id (a person erased), and only those", async () => {
      const store = makeStore();
      const person = `u-${crypto.randomUUID()}`;
      const [byStream, byState, other] = [`calendar-${person}`, `s-${crypto.randomUUID()}`, `s-${crypto.randomUUID()}`];
      await store.write(snap(byStream, 3));
      await store.write({ ...snap(byState, 4), state: { bookings: [{ bookingId: "b1", creatorId: person }] } });
      await store.write(snap(other, 5));
      expect(await store.forgetMentioning(person)).toBe(2);
      expect(await store.read(byStream, shape)).toBeNull();
      expect(await store.read(byState, shape)).toBeNull();
      expect((await store.read(other, shape))?.version).toBe(5);
    });
  });
}
