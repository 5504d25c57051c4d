import { describe, expect, it } from "vitest";
import { benchRebuild } from "../scenarios/rebuild.ts";
import { elapsed, printFigure } from "./figure.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 18's check at its full size, as a test: every read model rebuilt blue-green (npm run
// replay) over a log of 100,000 events while creators book, pay, confirm and cancel through the
// API and visitors list experts. No request may fail, every read of bookings during the rebuild
// must match the log up to its checkpoint (a half-built generation would not), and the read models
// must end equal to a clean replay. The same scenario as `npm run bench -- --only rebuild`.

describe("a blue-green rebuild of every read model over 100,000 events, under booking load", () => {
  it("fails no request, shows only whole generations, and ends equal to a clean replay", async () => {
    const t0 = performance.now();
    const figure = await benchRebuild(testPostgresUrl(), {
      events: 100_000,
      experts: 1000,
      creators: 10_000,
      bookers: 4,
      listers: 4,
      rounds: 1,
      sliceSeconds: 5,
    });
    printFigure("rebuild under load", {
      events: figure.events,
      rebuildSeconds: figure.rebuildSeconds,
      failedRequests: figure.failedRequests,
      readsChecked: figure.readsChecked,
      incompleteReads: figure.incompleteReads,
      identicalToCleanReplay: figure.identicalToCleanReplay,
      "GET /experts p99 without / during (ms)": `${figure.withoutRebuild.getExperts.p99Ms} / ${figure.duringRebuild.getExperts.p99Ms}`,
      took: elapsed(t0),
    });
    expect(figure.events).toBeGreaterThanOrEqual(100_000);
    expect(figure.failedRequests, figure.firstFailure ?? "").toBe(0);
    expect(figure.readsChecked).toBeGreaterThan(0);
    expect(figure.incompleteReads).toBe(0);
    expect(figure.identicalToCleanReplay).toBe(true);
  });
});
