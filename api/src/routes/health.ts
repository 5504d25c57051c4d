import { comparePositions, type LogPosition } from "@booking/contracts";
import { readCheckpoints } from "@booking/projections";
import type { RoutePlugin } from "../http/route-plugin.ts";

/**
 * Liveness: the process answers. Readiness: the event store and read models answer, and the
 * read models are within READY_MAX_LAG_EVENTS of the log (a lagging projector serves stale pages).
 */
export const healthRoutes: RoutePlugin = async (app, ctx) => {
  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true } }, async (_request, reply) => {
    const maxLag = ctx.readyMaxLagEvents ?? 1000;
    const checks: Record<string, string> = {};
    let lagEvents: number | null = null;
    try {
      const checkpoints = await readCheckpoints(ctx.db);
      const failing = checkpoints.find((c) => c.lastError);
      checks.readModels = failing ? `error in ${failing.name}: ${failing.lastError}` : "ok";
      const live = checkpoints.filter((c) => c.status === "live");
      let from: LogPosition | null = live[0]?.position ?? null;
      for (const c of live) if (!c.position || (from && comparePositions(c.position, from) < 0)) from = c.position;
      // Counting at most maxLag + 1 events keeps the probe cheap however far behind we are.
      lagEvents = (await ctx.store.readAll(from, maxLag + 1)).length;
      checks.eventStore = "ok";
      checks.projectorLag = lagEvents > maxLag ? `more than ${maxLag} events behind` : "ok";
    } catch (e) {
      checks.eventStore ??= (e as Error).message;
    }
    const ready = Object.values(checks).every((v) => v === "ok");
    return reply.status(ready ? 200 : 503).send({ status: ready ? "ready" : "not_ready", checks, lagEvents });
  });
};
