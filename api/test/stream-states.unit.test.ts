import { describe, expect, it } from "vitest";
import type { AppendListener } from "@booking/contracts";
import { StreamStates, type StreamState } from "../src/availability/stream-states.ts";

// Availability answers from stream states kept in memory. What a visitor must never see: a state
// older than an append this process has announced (a booking's reply promised it), or one older
// than `maxAgeMs` when another process's announcement never came.

/** A log whose appends are announced when the test says so, and a stream store the test writes. */
function world() {
  const listeners = new Set<AppendListener>();
  const stored = new Map<string, number>();
  let reads = 0;
  let gate: Promise<void> | null = null;
  const log = {
    watchAppends: (listener: AppendListener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  const load = async (streamId: string): Promise<StreamState<string>> => {
    reads++;
    // The read sees the store as it is when it runs, then may be held before it answers.
    const version = stored.get(streamId) ?? 0;
    if (gate) await gate;
    return { version, state: `${streamId}@${version}` };
  };
  return {
    log,
    load,
    reads: () => reads,
    append: (streamId: string) => stored.set(streamId, (stored.get(streamId) ?? 0) + 1),
    /** An append announced, naming its streams (none named: any stream may have changed). */
    announce: (...streams: string[]) => listeners.forEach((l) => l({ commit: 1n, prepare: 1n }, streams.length ? streams : undefined)),
    hold: () => {
      let release = () => {};
      gate = new Promise((r) => (release = r));
      return () => {
        gate = null;
        release();
      };
    },
  };
}

describe("stream states in memory", () => {
  it("answer from memory while nothing is announced, and read the stream again after an append is", async () => {
    const w = world();
    const states = new StreamStates(w.log, w.load);
    w.append("calendar-a");
    expect((await states.get("calendar-a")).version).toBe(1);
    expect((await states.get("calendar-a")).version).toBe(1);
    expect(w.reads()).toBe(1);

    w.append("calendar-a");
    w.announce();
    expect((await states.get("calendar-a")).version).toBe(2);
    expect(w.reads()).toBe(2);
  });

  it("never trust a read that was under way when an append was announced", async () => {
    const w = world();
    const states = new StreamStates(w.log, w.load);
    const release = w.hold();
    const before = states.get("calendar-a"); // reads version 0, then waits
    w.append("calendar-a");
    w.announce();
    const after = states.get("calendar-a"); // asked after the announcement: must not share the older read
    release();
    expect((await before).version).toBe(0);
    expect((await after).version).toBe(1);
    expect((await states.get("calendar-a")).version).toBe(1);
  });

  it("keep a stream in memory while the appends announced are to other streams, and read it again once one is to it", async () => {
    const w = world();
    const states = new StreamStates(w.log, w.load);
    w.append("calendar-a");
    w.append("calendar-b");
    await states.get("calendar-a");
    await states.get("calendar-b");
    w.append("calendar-b");
    w.announce("calendar-b", "user-c");
    expect((await states.get("calendar-a")).version).toBe(1);
    expect(w.reads()).toBe(2);
    expect((await states.get("calendar-b")).version).toBe(2);
    expect(w.reads()).toBe(3);
    w.append("calendar-a");
    w.announce("calendar-a");
    expect((await states.get("calendar-a")).version).toBe(2);
    expect((await states.get("calendar-b")).version).toBe(2);
    expect(w.reads()).toBe(4);
  });

  it("distrust a read under way when an append to its stream is announced, not when one to another stream is", async () => {
    const w = world();
    const states = new StreamStates(w.log, w.load);
    const release = w.hold();
    const readingA = states.get("calendar-a"); // reads version 0, then waits
    const readingB = states.get("calendar-b");
    w.append("calendar-a");
    w.announce("calendar-a");
    const askedAgainA = states.get("calendar-a"); // must not share the older read of a
    const askedAgainB = states.get("calendar-b"); // shares the read of b: nothing was written to it
    release();
    expect((await readingA).version).toBe(0);
    expect((await askedAgainA).version).toBe(1);
    expect(await askedAgainB).toBe(await readingB);
    const reads = w.reads();
    expect((await states.get("calendar-a")).version).toBe(1);
    await states.get("calendar-b");
    expect(w.reads()).toBe(reads); // both from memory now
  });

  it("share one read among questions asked while it runs, when nothing was announced meanwhile", async () => {
    const w = world();
    const states = new StreamStates(w.log, w.load);
    const release = w.hold();
    const asked = [states.get("calendar-a"), states.get("calendar-a"), states.get("calendar-a")];
    release();
    await Promise.all(asked);
    expect(w.reads()).toBe(1);
  });

  it("read again once an answer is older than maxAgeMs, in case another process's announcement was lost", async () => {
    const w = world();
    let now = 0;
    const states = new StreamStates(w.log, w.load, { maxAgeMs: 1_000, clock: () => now });
    await states.get("calendar-a");
    w.append("calendar-a"); // by another process, never announced here
    now = 999;
    expect((await states.get("calendar-a")).version).toBe(0);
    now = 1_000;
    expect((await states.get("calendar-a")).version).toBe(1);
  });

  it("read every time over a log that announces nothing", async () => {
    const w = world();
    const states = new StreamStates({}, w.load);
    await states.get("calendar-a");
    w.append("calendar-a");
    expect((await states.get("calendar-a")).version).toBe(1);
    expect(w.reads()).toBe(2);
  });
});
