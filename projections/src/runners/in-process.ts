import type pg from "pg";
import { comparePositions, type EventLog, type LogPosition } from "@booking/contracts";
import { applyBatch, ensureCheckpoints, readCheckpoints, recordProjectionError } from "../apply.ts";
import type { Projection } from "../projection.ts";

export type RunnerHandle = { stop: () => Promise<void>; done: Promise<void> };

export type InProcessOptions = { batchSize?: number; idleMs?: number; onError?: (error: unknown) => void };

/**
 * The embedded default: follow the event log directly and apply it to the read models. Each
 * projection resumes from its own checkpoint; one that is rebuilding is left alone until it is live.
 */
export class InProcessProjector {
  private readonly batchSize: number;
  private readonly idleMs: number;

  constructor(
    private readonly log: EventLog,
    private readonly pool: pg.Pool,
    private readonly projections: readonly Projection[],
    private readonly options: InProcessOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.idleMs = options.idleMs ?? 20;
  }

  /** Apply the next batch after the earliest live checkpoint; returns how many events were read. */
  async runOnce(): Promise<number> {
    const checkpoints = (await readCheckpoints(this.pool, this.projections.map((p) => p.name))).filter((c) => c.status === "live");
    if (checkpoints.length === 0) return 0;
    let from: LogPosition | null = checkpoints[0]!.position;
    for (const c of checkpoints) {
      if (c.position === null || (from !== null && comparePositions(c.position, from) < 0)) from = c.position;
      if (from === null) break;
    }
    const batch = await this.log.readAll(from, this.batchSize);
    await applyBatch(this.pool, this.projections, batch, "log");
    return batch.length;
  }

  start(): RunnerHandle {
    let stopped = false;
    let wake: (() => void) | null = null;
    const loop = async () => {
      await ensureCheckpoints(this.pool, this.projections);
      let failures = 0;
      while (!stopped) {
        let read = 0;
        try {
          read = await this.runOnce();
          failures = 0;
        } catch (e) {
          failures++;
          this.options.onError?.(e);
          await recordProjectionError(this.pool, this.projections, e);
        }
        if (read < this.batchSize && !stopped) {
          const pause = failures ? Math.min(5000, 100 * 2 ** failures) : this.idleMs;
          await new Promise<void>((r) => {
            const t = setTimeout(r, pause);
            wake = () => {
              clearTimeout(t);
              r();
            };
          });
        }
      }
    };
    const done = loop();
    return {
      done,
      // The batch in flight commits (or rolls back) as a whole before stop resolves.
      stop: async () => {
        stopped = true;
        wake?.();
        await done;
      },
    };
  }
}
