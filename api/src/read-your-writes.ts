import type pg from "pg";
import { comparePositions, type LogPosition } from "@booking/contracts";
import type { CommandResult } from "@booking/event-store";
import { readCheckpoints } from "@booking/projections";
import type { ReplyCache } from "./reply-cache.ts";

/**
 * Read-your-writes: a command's reply waits (briefly) until every live read model has applied
 * the position the command wrote, so the client's next read shows its own write.
 */
export async function waitForReadModels(db: pg.Pool, position: LogPosition | null, timeoutMs = 15_000): Promise<boolean> {
  if (!position) return true;
  const deadline = Date.now() + timeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const checkpoints = (await readCheckpoints(db)).filter((c) => c.status === "live");
    if (checkpoints.every((c) => c.position && comparePositions(c.position, position) >= 0)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** Wait until the read models show a command's writes (read-your-writes). */
export type Projected = (result: CommandResult) => Promise<void>;

/** Waits for the read models, then drops the cached listings a write may have changed. */
export function projectedThrough(db: pg.Pool, listings: ReplyCache): Projected {
  return async (result) => {
    await waitForReadModels(db, result.position);
    if (result.events.length > 0) listings.invalidate();
  };
}
