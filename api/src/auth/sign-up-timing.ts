import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

// A new sign-up writes the account, appends UserRegistered and waits for the read models; a
// sign-up with an address that has an account only queues a mail, so it would answer measurably
// sooner. It waits instead for a duration drawn from recent new sign-ups, so the two answers take
// alike long whatever the load, and the timing does not tell who has an account.

/** How many recent new sign-ups' durations are kept. */
export const KEPT_DURATIONS = 32;
/** Until a new sign-up has been timed. */
export const FIRST_GUESS_MS = 50;
/** An outlier (a stalled database) does not hold known addresses' answers longer than this. */
export const LONGEST_WAIT_MS = 2_000;

export class SignUpTiming {
  private readonly recent: number[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  /** A new sign-up's write, begun at `startedAt` (performance.now()), has ended. */
  written(startedAt: number): void {
    this.record(performance.now() - startedAt);
  }

  record(ms: number): void {
    this.recent.push(ms);
    if (this.recent.length > KEPT_DURATIONS) this.recent.shift();
  }

  /** One of the recent durations, at random, so padded answers spread like real ones. */
  typical(): number {
    if (this.recent.length === 0) return FIRST_GUESS_MS;
    return Math.min(LONGEST_WAIT_MS, this.recent[Math.floor(this.random() * this.recent.length)]!);
  }

  /** Wait until a typical new sign-up's write, begun at `startedAt`, would have ended. */
  async evenOut(startedAt: number): Promise<void> {
    await sleep(Math.max(0, this.typical() - (performance.now() - startedAt)));
  }
}
