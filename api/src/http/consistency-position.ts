import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { CONSISTENCY_POSITION_HEADER, formatPosition, parsePosition } from "@booking/contracts";
import { refuse } from "./errors.ts";
import { waitForReadModels, type ReadModelFeed } from "./read-your-writes.ts";
import { newestWritten, withRequestWrites } from "./request-writes.ts";

// Read-your-writes by position (issue 34.1): a command's reply says where in the log its events were written
// (`Consistency-Position`), the clients send the newest position they hold with their next requests, and such a
// request waits (bounded) until the read models have reached it; a request without one is served at once. The write
// path then need not wait for the projection: a command that replies from its decision (POST /bookings) does not.
//
// Fed from Kafka, a position says nothing of other partitions: there the commands still wait for their streams'
// versions before they reply (read-your-writes.ts), and a position sent is not waited for.

/** How long a request carrying a position waits for the read models before it is served as they are. */
const WAIT_BOUND_MS = 5_000;

/**
 * The request's position is read and waited for before the route runs (its reads then show the client's writes), and
 * the newest position the request wrote goes out with its reply. A malformed position is refused, as any bad input.
 */
export function installConsistencyPosition(app: FastifyInstance, deps: { db: pg.Pool; feed: ReadModelFeed }): void {
  app.addHook("onRequest", (_request, _reply, done) => withRequestWrites(done));
  app.addHook("preHandler", async (request) => {
    const sent = request.headers[CONSISTENCY_POSITION_HEADER];
    if (sent === undefined || deps.feed === "bus") return;
    const position = typeof sent === "string" ? parsePosition(sent.trim()) : null;
    if (!position) refuse("consistency_position_invalid");
    await waitForReadModels(deps.db, { position, events: [] }, "log", WAIT_BOUND_MS);
  });
  app.addHook("onSend", async (request, reply) => {
    const newest = newestWritten();
    // Signed-in callers only: an anonymous route (a sign-up, a reset, an unsubscribe) answers alike whether or not it
    // wrote, so that its reply does not tell whether an address has an account; its writes are waited for instead.
    if (newest && request.headers.authorization) reply.header(CONSISTENCY_POSITION_HEADER, formatPosition(newest));
  });
}
