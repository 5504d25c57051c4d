import type pg from "pg";
import { z } from "zod";
import { BookingListQuery, BookingReply, UserIdParams, type BookingListQuery as Query } from "@booking/contracts";
import {
  bookingsOfCreator,
  bookingsOfExpertUser,
  type BookingsCursor,
  type BookingsPage,
  type BookingWithParties,
} from "@booking/projections";
import { actorOf, bookingTimeCursor, nextPageLink, refuse, requireActor } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";

// A person's bookings, newest start first, a page at a time (issue 34.5): the body is the page (an
// array, as the spec's dashboards read it) and, when older bookings remain, a `Link: <…>; rel="next"`
// header names the next page, so no list is cut short in silence. The cursor is the last booking's
// start and id (keyset), opaque to the client.

/** Bookings per page when the client does not say: the dashboards' first screen holds every upcoming one. */
export const BOOKINGS_PAGE_DEFAULT = 500;

const cursor = bookingTimeCursor("scheduledTime", "bookings_cursor_invalid");

const bookingList = {
  querystring: BookingListQuery,
  response: { 200: z.array(BookingReply).describe('One page, newest start first; a `Link: <…>; rel="next"` header names the next.') },
};

export const bookingListRoutes: RoutePlugin<{ db: pg.Pool; replyOf: (row: BookingWithParties) => BookingReply }> = async (
  app,
  { db, replyOf },
) => {
  type Request = Parameters<typeof actorOf>[0] & { query: Query; url: string };
  type Reply = { header: (name: string, value: string) => unknown };

  /** The page's bookings as replies, with the next page's address when there is one. */
  async function page(request: Request, reply: Reply, read: (p: { after: BookingsCursor | null; limit: number }) => Promise<BookingsPage>) {
    const limit = request.query.limit ?? BOOKINGS_PAGE_DEFAULT;
    const { bookings, next } = await read({ after: cursor.of(request.query.before), limit });
    // The next page's address drops this one's query: `before` and `limit` are all a page asks.
    if (next) reply.header("link", nextPageLink(request.url.split("?")[0]!, cursor.text(next), limit));
    return bookings.map(replyOf);
  }

  app.get("/bookings/creator/me", { onRequest: requireActor("creator"), schema: bookingList }, async (request, reply) =>
    page(request, reply, (p) => bookingsOfCreator(db, actorOf(request).userId, p)),
  );

  app.get("/bookings/expert/me", { onRequest: requireActor("expert"), schema: bookingList }, async (request, reply) =>
    page(request, reply, (p) => bookingsOfExpertUser(db, actorOf(request).userId, p)),
  );

  // One user's bookings by id: their own, or anyone's for an admin (who opens a user's dashboard to help them).
  const ownOrAdmin = (request: { params: { userId: string } } & Parameters<typeof actorOf>[0]) => {
    const actor = actorOf(request);
    if (actor.role !== "admin" && actor.userId !== request.params.userId) refuse("forbidden");
  };
  app.get(
    "/bookings/creator/:userId",
    { onRequest: requireActor("creator"), schema: { params: UserIdParams, ...bookingList } },
    async (request, reply) => {
      ownOrAdmin(request);
      return page(request, reply, (p) => bookingsOfCreator(db, request.params.userId, p));
    },
  );
  app.get(
    "/bookings/expert/:userId",
    { onRequest: requireActor("expert"), schema: { params: UserIdParams, ...bookingList } },
    async (request, reply) => {
      ownOrAdmin(request);
      return page(request, reply, (p) => bookingsOfExpertUser(db, request.params.userId, p));
    },
  );
};
