import { describe, expect, it } from "vitest";
import type { LogPosition } from "@booking/contracts";
import { followLog } from "../src/follow-log.ts";

// The loop every log follower runs: how it paces passes, wakes on appends and backs off.

function announcingLog() {
  let listener: ((p: LogPosition) => void) | null = null;
  return {
    log: {
      watchAppends: (l: (p: LogPosition) => void) => {
        listener = l;
        return () => (listener = null);
      },
    },
    announce: () => listener?.({ commit: "1", prepare: "1" } as unknown as LogPosition),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("followLog", () => {
  it("goes again at once after a full batch, and waits the idle time after a short one", async () => {
    const { log } = announcingLog();
    const passes: number[] = [];
    const started = Date.now();
    const following = followLog(
      log,
      async () => {
        passes.push(Date.now() - started);
        return passes.length < 3 ? "more" : undefined;
      },
      { idleMs: 300, onError: () => undefined },
    );
    await sleep(150);
    expect(passes).toHaveLength(3); // two full batches, then a short one; the fourth waits
    await sleep(250);
    expect(passes).toHaveLength(4);
    await following.stop();
  });

  it("an append ends the idle wait at once", async () => {
    const { log, announce } = announcingLog();
    let passes = 0;
    const following = followLog(log, async () => void passes++, { idleMs: 10_000, onError: () => undefined });
    await sleep(30);
    expect(passes).toBe(1);
    announce();
    await sleep(30);
    expect(passes).toBe(2);
    await following.stop();
  });

  it("a failing pass backs off, doubling, and appends do not cut the back-off short", async () => {
    const { log, announce } = announcingLog();
    const failures: Array<[number, number]> = [];
    let passes = 0;
    const following = followLog(
      log,
      async () => {
        passes++;
        throw new Error("database down");
      },
      { idleMs: 10, firstBackoffMs: 100, maxBackoffMs: 150, onError: (_e, n, backoff) => void failures.push([n, backoff]) },
    );
    await sleep(20);
    announce();
    announce();
    await sleep(40);
    expect(passes).toBe(1); // still backing off despite the appends
    await sleep(400);
    expect(failures.slice(0, 3)).toEqual([
      [1, 100],
      [2, 150],
      [3, 150],
    ]);
    await following.stop();
  });

  it("stop ends a pause at once and resolves after the pass in flight", async () => {
    const { log } = announcingLog();
    let finished = false;
    const following = followLog(
      log,
      async () => {
        await sleep(50);
        finished = true;
      },
      { idleMs: 60_000, onError: () => undefined },
    );
    await sleep(10);
    await following.stop();
    expect(finished).toBe(true);
    await following.done;
  });
});
