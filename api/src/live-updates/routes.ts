import { z } from "zod";
import { LIVE_STREAMS_PER_USER } from "@booking/contracts";
import type { BookingFeed } from "./booking-feed.ts";
import { actorOf, requireActor, refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";

/**
 * How often an open stream checks that its access token still holds. A stream outlives the check
 * made when it opened: logout, a password change or the token's expiry ends it within this long.
 */
export const SIGN_IN_CHECK_MS = 5_000;
const HEARTBEAT_MS = 15_000;

/** Live streams one API process holds at most (each is a socket, a listener and two timers); past it new ones are refused. */
export const LIVE_STREAMS_PER_PROCESS = 2_000;
/** What a refused stream is told to wait before trying again. */
const FULL_RETRY_AFTER_SECONDS = 10;
/** How long a tab whose stream gave way to a newer one should wait before reconnecting (EventSource's `retry:`). */
const REPLACED_RETRY_MS = 60_000;

/**
 * Server-Sent Events: the signed-in user's booking changes, once projected. Browsers' EventSource
 * cannot send headers, so the access token may also come as `?access_token=`; the auth guard
 * checks it exactly as it checks a Bearer header.
 */
export type StreamRouteDeps = {
  /** Null where the process follows no log (some tests): the stream is then not found. */
  feed: BookingFeed | null;
  /** Streams per user and per process on this process (defaults: LIVE_STREAMS_PER_USER, LIVE_STREAMS_PER_PROCESS). */
  limits?: Partial<StreamLimits>;
};

export type StreamLimits = { perUser: number; perProcess: number };

/**
 * The streams open on this process, by user, oldest first. A user past their cap loses their
 * oldest stream (the tab they opened first, most likely forgotten); a full process refuses new
 * streams, except one that replaces its user's oldest (the count does not grow).
 */
class OpenStreams {
  private readonly byUser = new Map<string, Set<() => void>>();
  private total = 0;

  constructor(private readonly limits: StreamLimits) {}

  /** Room for one more of `userId`'s streams: their oldest ones are ended to make it; false when the process is full. */
  makeRoom(userId: string): boolean {
    const mine = this.byUser.get(userId);
    if ((mine?.size ?? 0) < this.limits.perUser && this.total >= this.limits.perProcess) return false;
    // Sets keep insertion order: the first is the oldest. end() unregisters synchronously.
    while (mine && mine.size >= this.limits.perUser) mine.values().next().value!();
    return true;
  }

  /** Count `end` among `userId`'s streams until the returned function is called. */
  add(userId: string, end: () => void): () => void {
    const mine = this.byUser.get(userId) ?? new Set();
    this.byUser.set(userId, mine);
    mine.add(end);
    this.total++;
    return () => {
      if (!mine.delete(end)) return;
      this.total--;
      if (mine.size === 0) this.byUser.delete(userId);
    };
  }
}

export const streamRoutes: RoutePlugin<StreamRouteDeps> = async (app, { feed, limits }) => {
  const open = new OpenStreams({
    perUser: limits?.perUser ?? LIVE_STREAMS_PER_USER,
    perProcess: limits?.perProcess ?? LIVE_STREAMS_PER_PROCESS,
  });
  app.get(
    "/stream",
    {
      config: { accessTokenInQuery: true },
      preHandler: requireActor(),
      schema: { querystring: z.strictObject({ access_token: z.string().max(4096).optional() }) },
    },
    async (request, reply) => {
      const { userId } = actorOf(request);
      if (!feed) refuse("not_found");
      if (!open.makeRoom(userId)) {
        reply.header("retry-after", String(FULL_RETRY_AFTER_SECONDS));
        refuse("too_many_streams");
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
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
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        forget();
        clearInterval(heartbeat);
        clearInterval(signInCheck);
        unlisten();
      };
      // Replaced by the user's newer stream: said, so a tab that listens can stop reconnecting at once.
      const forget = open.add(userId, () => {
        release();
        res.end(`retry: ${REPLACED_RETRY_MS}\nevent: replaced\ndata: {}\n\n`);
      });
      res.on("close", release);
    },
  );
};
