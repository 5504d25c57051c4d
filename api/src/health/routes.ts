import type pg from "pg";
import { LivenessReply, ReadinessReply, comparePositions, type LogPosition } from "@booking/contracts";
import type { EventStore } from "@booking/event-store";
import { readCheckpoints } from "@booking/projections";
import type { RoutePlugin } from "../http/index.ts";

/**
 * Liveness: the process answers. Readiness: the event store and read models answer, and the
 * read models are within READY_MAX_LAG_EVENTS of the log (a lagging projector serves stale pages).
 */
export type HealthRouteDeps = {
  /** The read models' checkpoints. */
  db: pg.Pool;
  store: EventStore;
  /** Not ready while the read models are more than this many events behind the log (default 1000). */
  readyMaxLagEvents?: number;
};

export const healthRoutes: RoutePlugin<HealthRouteDeps> = async (app, { db, store, readyMaxLagEvents }) => {
  app.get("/healthz", { schema: { hide: true, response: { 200: LivenessReply } } }, async () => ({ status: "ok" as const }));
  app.get("/readyz", { schema: { hide: true, response: { 200: ReadinessReply, 503: ReadinessReply } } }, async (_request, reply) => {
    const maxLag = readyMaxLagEvents ?? 1000;
    const checks: Record<string, string> = {};
    let lagEvents: number | null = null;
    try {
      const checkpoints = await readCheckpoints(db);
      const failing = checkpoints.find((c) => c.lastError);
      checks.readModels = failing ? `error in ${failing.name}: ${failing.lastError}` : "ok";
      const live = checkpoints.filter((c) => c.status === "live");
      let from: LogPosition | null = live[0]?.position ?? null;
      for (const c of live) if (!c.position || (from && comparePositions(c.position, from) < 0)) from = c.position;
      // Counting at most maxLag + 1 events keeps the probe cheap however far behind we are.
      lagEvents = (await store.readAll(from, maxLag + 1)).length;
      checks.eventStore = "ok";
      checks.projectorLag = lagEvents > maxLag ? `more than ${maxLag} events behind` : "ok";
    } catch (e) {
      checks.eventStore ??= (e as Error).message;
    }
    const ready = Object.values(checks).every((v) => v === "ok");
    return reply.status(ready ? 200 : 503).send({ status: ready ? "ready" : "not_ready", checks, lagEvents });
  });
};
