import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "@booking/contracts";
import { CREATOR, MemoryLog, REBUILD_BATCH, ReadModels, plainLog, type Digest } from "./erasure-logs.ts";

// Erasure and rebuilds (issue 33.2): a rebuild's output shows an erasure whenever it comes, as the live read models do.
// Before the person's data key is destroyed (or where it never was), the log still holds their words: the rebuild then
// erases them by the UserErased event itself, whether the event was in the log when the rebuild began, landed while it
// filled its tables, or landed after, while it caught up with the log before switching.

let readModels: ReadModels;
let live: Digest;
const stored = plainLog(CREATOR);

beforeAll(async () => {
  readModels = await ReadModels.open();
  live = await readModels.applyLive(stored);
});
afterAll(async () => readModels?.close());

describe("a rebuild of the log of a person's erasure", () => {
  it("equals the live read models when the erasure was in the log from the start", async () => {
    expect(await readModels.rebuild(new MemoryLog(stored))).toEqual(live);
  });

  it.each([
    ["while the rebuild fills its tables", (reads: number) => reads === 2],
    ["after the fill, while the rebuild catches up", (_reads: number, read: StoredEvent[]) => read.length < REBUILD_BATCH],
  ])("equals them when the erasure is appended %s", async (_when, now) => {
    const log = new MemoryLog(stored.slice(0, -1));
    let reads = 0;
    log.afterRead = (read) => {
      if (now(++reads, read) && log.events.length < stored.length) log.events.push(stored.at(-1)!);
    };
    const rebuilt = await readModels.rebuild(log);
    expect(log.events).toHaveLength(stored.length);
    expect(rebuilt).toEqual(live);
  });
});
