import { readCheckpoints } from "@booking/projections";
import type { RoutePlugin } from "../http/route-plugin.ts";

/** Liveness: the process answers. Readiness: the event store and read models answer. */
export const healthRoutes: RoutePlugin = async (app, ctx) => {
  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, string> = {};
    await ctx.store.headPosition().then(
      () => (checks.eventStore = "ok"),
      (e: Error) => (checks.eventStore = e.message),
    );
    await readCheckpoints(ctx.db).then(
      (cps) => (checks.readModels = cps.some((c) => c.lastError) ? `error: ${cps.find((c) => c.lastError)!.lastError}` : "ok"),
      (e: Error) => (checks.readModels = e.message),
    );
    const ready = Object.values(checks).every((v) => v === "ok");
    return reply.status(ready ? 200 : 503).send({ status: ready ? "ready" : "not_ready", checks });
  });
};
