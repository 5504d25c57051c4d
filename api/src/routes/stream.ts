import { z } from "zod";
import type { BookingFeed } from "../booking-feed.ts";
import { actorOf, requireActor } from "../http/auth-guard.ts";
import { refuse } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";

/**
 * How often an open stream checks that its access token still holds. A stream outlives the check
 * made when it opened: logout, a password change or the token's expiry ends it within this long.
 */
export const SIGN_IN_CHECK_MS = 5_000;
const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events: the signed-in user's booking changes, once projected. Browsers' EventSource
 * cannot send headers, so the access token may also come as `?access_token=`; the auth guard
 * checks it exactly as it checks a Bearer header.
 */
export type StreamRouteDeps = {
  /** Null where the process follows no log (some tests): the stream is then not found. */
  feed: BookingFeed | null;
};

export const streamRoutes: RoutePlugin<StreamRouteDeps> = async (app, { feed }) => {
  app.get(
    "/stream",
    { config: { accessTokenInQuery: true }, preHandler: requireActor(), schema: { querystring: z.strictObject({ access_token: z.string().max(4096).optional() }) } },
    async (request, reply) => {
      const { userId } = actorOf(request);
      if (!feed) refuse("not_found");
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" });
      res.write(": connected\n\n");
      const unlisten = feed.listen(userId, (change) => res.write(`event: booking\ndata: ${JSON.stringify(change)}\n\n`));
      const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), HEARTBEAT_MS);
      // The client reconnects with its current token (EventSource retries a stream that ends).
      const signInCheck = setInterval(() => {
        request.accessStillHolds().then(
          (holds) => holds || res.end(),
          // The database is unreachable: keep streaming; the next check asks again.
          () => undefined,
        );
      }, SIGN_IN_CHECK_MS);
      res.on("close", () => {
        clearInterval(heartbeat);
        clearInterval(signInCheck);
        unlisten();
      });
    },
  );
};
