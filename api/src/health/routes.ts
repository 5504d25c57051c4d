import type pg from "pg";
import { LivenessReply, ReadinessReply } from "@booking/contracts";
import type { EventStore } from "@booking/event-store";
import type { RoutePlugin } from "../http/index.ts";
import { OK, databaseCheck, readModelChecks, readinessOf } from "./readiness.ts";

/**
 * Liveness: the process answers. Readiness: the database, the event store and the read models
 * answer, and the read models are within READY_MAX_LAG_EVENTS of the log (a lagging projector
 * serves stale pages); a 503 names each check that failed and why.
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
    const database = await databaseCheck(db);
    // Without the database the read models cannot be asked: say so rather than a second timeout.
    const readModels =
      database === OK
        ? await readModelChecks(db, store, readyMaxLagEvents ?? 1000)
        : { checks: { projectorLag: "unknown: the database is unreachable" }, lagEvents: null };
    const { ready, checks, lagEvents } = readinessOf({ database, ...readModels.checks }, readModels.lagEvents);
    return reply.status(ready ? 200 : 503).send({ status: ready ? "ready" : "not_ready", checks, lagEvents });
  });
};
