import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { CONSISTENCY_POSITION_HEADER, comparePositions, formatPosition, parsePosition, type LogPosition } from "@booking/contracts";
import { refuse } from "./errors.ts";
import { waitForReadModels, type ReadModelFeed } from "./read-your-writes.ts";
import { newestWritten, withRequestWrites } from "./request-writes.ts";

// Read-your-writes by position (issue 34.1): a command's reply says where in the log its events were written
// (`Consistency-Position`), the clients send the newest position they hold with their next requests, and such a
// request waits (bounded) until the read models have reached it; a request without one is served at once, unless its
// caller wrote through this process moments ago (RecentWrites). The write
// path then need not wait for the projection: a command that replies from its decision (POST /bookings) does not.
//
// Fed from Kafka, a position says nothing of other partitions: there the commands still wait for their streams'
// versions before they reply (read-your-writes.ts), and a position sent is not waited for.

/** How long a request carrying a position waits for the read models before it is served as they are. */
const WAIT_BOUND_MS = 5_000;

/**
 * Each signed-in user's newest write through this process, for a while: their next request here waits for it even
 * when their client sends no position (a script, an older client, a test's own HTTP client), so a client that does not
 * know the header keeps the read-your-writes the API always gave; across processes only the header carries it.
 */
class RecentWrites {
  private readonly byUser = new Map<string, { position: LogPosition; until: number }>();

  constructor(
    private readonly keepMs = 30_000,
    private readonly maxUsers = 10_000,
  ) {}

  wrote(userId: string, position: LogPosition): void {
    const held = this.byUser.get(userId);
    this.byUser.delete(userId);
    const newest = held && comparePositions(held.position, position) > 0 ? held.position : position;
    this.byUser.set(userId, { position: newest, until: Date.now() + this.keepMs });
    // The oldest first out: a Map keeps insertion order.
    while (this.byUser.size > this.maxUsers) this.byUser.delete(this.byUser.keys().next().value!);
  }

  of(userId: string): LogPosition | null {
    const held = this.byUser.get(userId);
    if (!held) return null;
    if (held.until > Date.now()) return held.position;
    this.byUser.delete(userId);
    return null;
  }
}

/**
 * The request's position is read and waited for before the route runs (its reads then show the client's writes), and
 * the newest position the request wrote goes out with its reply. A malformed position is refused, as any bad input.
 */
export function installConsistencyPosition(app: FastifyInstance, deps: { db: pg.Pool; feed: ReadModelFeed }): void {
  const recent = new RecentWrites();
  app.addHook("onRequest", (_request, _reply, done) => withRequestWrites(done));
  app.addHook("preHandler", async (request) => {
    if (deps.feed === "bus") return;
    const sent = request.headers[CONSISTENCY_POSITION_HEADER];
    let position = sent === undefined ? null : typeof sent === "string" ? parsePosition(sent.trim()) : null;
    if (sent !== undefined && !position) refuse("consistency_position_invalid");
    const own = request.actor ? recent.of(request.actor.userId) : null;
    if (own && (!position || comparePositions(own, position) > 0)) position = own;
    if (position) await waitForReadModels(deps.db, { position, events: [] }, "log", WAIT_BOUND_MS);
  });
  app.addHook("onSend", async (request, reply) => {
    const newest = newestWritten();
    // Signed-in callers only: an anonymous route (a sign-up, a reset, an unsubscribe) answers alike whether or not it
    // wrote, so that its reply does not tell whether an address has an account; its writes are waited for instead.
    if (!newest || !request.actor || !request.headers.authorization) return;
    recent.wrote(request.actor.userId, newest);
    reply.header(CONSISTENCY_POSITION_HEADER, formatPosition(newest));
  });
}
