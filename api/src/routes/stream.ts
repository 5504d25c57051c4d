import { z } from "zod";
import { refuse } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import type { AccessClaims } from "../http/auth-guard.ts";

/**
 * Server-Sent Events: the signed-in user's booking changes, once projected. Browsers' EventSource
 * cannot send headers, so the access token may also come as `?access_token=`.
 */
export const streamRoutes: RoutePlugin = async (app, ctx) => {
  app.get("/stream", { schema: { querystring: z.strictObject({ access_token: z.string().max(4096).optional() }) } }, async (request, reply) => {
    let userId = request.actor?.userId;
    if (!userId && request.query.access_token) {
      try {
        userId = app.jwt.verify<AccessClaims>(request.query.access_token).sub;
      } catch {
        refuse("session_expired");
      }
    }
    if (!userId) refuse("no_access_token");
    if (!ctx.feed) refuse("not_found");
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" });
    res.write(": connected\n\n");
    const unlisten = ctx.feed.listen(userId, (change) => res.write(`event: booking\ndata: ${JSON.stringify(change)}\n\n`));
    const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), 15_000);
    request.raw.on("close", () => {
      clearInterval(heartbeat);
      unlisten();
    });
  });
};
