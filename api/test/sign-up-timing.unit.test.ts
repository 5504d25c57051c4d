import { describe, expect, it } from "vitest";
import { FIRST_GUESS_MS, KEPT_DURATIONS, LONGEST_WAIT_MS, SignUpTiming } from "../src/auth/sign-up-timing.ts";

// A sign-up with a known address waits about as long as recent new sign-ups took to write, so the
// answer's timing does not tell who has an account (issue 26 item 6).

describe("how long a known address's sign-up waits", () => {
  it("is a first guess until a new sign-up was timed", () => {
    expect(new SignUpTiming().typical()).toBe(FIRST_GUESS_MS);
  });

  it("is one of the recent new sign-ups' durations, picked at random", () => {
    let pick = 0;
    const timing = new SignUpTiming(() => pick);
    for (const ms of [30, 80, 120]) timing.record(ms);
    expect([0, 0.34, 0.99].map((r) => ((pick = r), timing.typical()))).toEqual([30, 80, 120]);
  });

  it(`keeps the last ${KEPT_DURATIONS} only, and waits at most ${LONGEST_WAIT_MS} ms`, () => {
    let pick = 0;
    const timing = new SignUpTiming(() => pick);
    timing.record(60_000);
    for (let i = 1; i <= KEPT_DURATIONS; i++) timing.record(i);
    expect(timing.typical()).toBe(1); // the stalled one was pushed out
    timing.record(60_000);
    pick = 0.999;
    expect(timing.typical()).toBe(LONGEST_WAIT_MS);
  });

  it("waits until that long after the write began, and no longer", async () => {
    const timing = new SignUpTiming(() => 0);
    timing.record(80);
    const started = performance.now();
    await timing.evenOut(started - 30);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(45);
    expect(waited).toBeLessThan(400);
    const late = performance.now();
    await timing.evenOut(late - 500);
    expect(performance.now() - late).toBeLessThan(50);
  });
});
