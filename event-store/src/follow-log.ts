import type { EventLog } from "@booking/contracts";
import { AppendWaiter } from "./append-waiter.ts";

// The one loop every follower of the log runs (projector, relay, refund and mail reactors): a
// pass, then a pause that an append cuts short; a failed pass backs off, doubling, and appends do
// not cut a back-off short (a failing database would be hammered on every booking otherwise).

/** What a pass tells the loop: go again at once (a full batch: more is waiting), wait `ms` at most, or wait the idle time. */
export type PassOutcome = "more" | { waitMs: number } | void;

export type FollowLogOptions = {
  /** The longest wait between passes when no append wakes the loop. */
  idleMs: number;
  /** The first back-off after a failed pass (default 100 ms); it doubles per failure up to `maxBackoffMs` (default 5 s). */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** Told of each failed pass, with how many failed in a row and how long the loop now waits. */
  onError: (error: unknown, failuresInARow: number, backoffMs: number) => void | Promise<void>;
};

export type LogFollowing = { done: Promise<void>; stop(): Promise<void> };

export function followLog(
  log: Pick<EventLog, "watchAppends">,
  pass: (waiter: AppendWaiter) => Promise<PassOutcome>,
  options: FollowLogOptions,
): LogFollowing {
  const firstBackoffMs = options.firstBackoffMs ?? 100;
  const maxBackoffMs = options.maxBackoffMs ?? 5000;
  let stopping = false;
  const waiter = new AppendWaiter(log);
  const loop = async () => {
    let failures = 0;
    while (!stopping) {
      waiter.reading();
      let outcome: PassOutcome;
      try {
        outcome = await pass(waiter);
        failures = 0;
      } catch (e) {
        failures += 1;
        const backoff = Math.min(firstBackoffMs * 2 ** (failures - 1), maxBackoffMs);
        await options.onError(e, failures, backoff);
        if (!stopping) await waiter.pause(backoff, false);
        continue;
      }
      if (stopping || outcome === "more") continue;
      await waiter.pause(outcome ? Math.min(outcome.waitMs, options.idleMs) : options.idleMs);
    }
  };
  const done = loop().finally(() => waiter.stop());
  return {
    done,
    // The pass in flight finishes (its transaction commits or rolls back) before stop resolves.
    stop: async () => {
      stopping = true;
      waiter.stop();
      await done;
    },
  };
}

/** An error on one line, for a warning. */
export function oneLine(e: unknown): string {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return text.replace(/\s+/g, " ").trim();
}
