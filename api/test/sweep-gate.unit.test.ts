import { afterEach, describe, expect, it, vi } from "vitest";
import { SweepGate, sweepEvery } from "../src/bookings/booking-sweep.ts";

// The demo seed writes months of bookings with the clock set back; on the real clock the hold and
// completion sweepers would expire or complete them between the seed's steps (seen: the seed's
// SubmitPrep refused after the hold sweeper cancelled a paid request whose deadline lay in the past).

afterEach(() => vi.useRealTimers());

describe("the sweep gate", () => {
  it("no sweep starts while the gate is held, and sweeps resume after", async () => {
    vi.useFakeTimers();
    const gate = new SweepGate();
    const sweep = vi.fn(async () => 0);
    const timer = sweepEvery(sweep, 1_000, gate);
    let release!: () => void;
    const seeding = gate.paused(() => new Promise<void>((resolve) => (release = resolve)));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sweep).not.toHaveBeenCalled();
    release();
    await seeding;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    timer.stop();
  });

  it("the held work starts only once the sweep under way has ended", async () => {
    vi.useFakeTimers();
    const gate = new SweepGate();
    const order: string[] = [];
    let finishSweep!: () => void;
    const timer = sweepEvery(
      () => new Promise<number>((resolve) => (finishSweep = () => (order.push("sweep ended"), resolve(0)))),
      1_000,
      gate,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    const seeding = gate.paused(async () => void order.push("seed ran"));
    await vi.advanceTimersByTimeAsync(10);
    expect(order).toEqual([]);
    finishSweep();
    await seeding;
    expect(order).toEqual(["sweep ended", "seed ran"]);
    timer.stop();
  });
});
