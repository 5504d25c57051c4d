import { randomUUID } from "node:crypto";
import type pg from "pg";
import {
  BookingIdParams,
  BookingReviewReply,
  BookingReviewState,
  ReviewBody,
  ReviewCommand,
  ReviewReplyBody,
  parseInput,
  type ReviewedBooking,
} from "@booking/contracts";
import type { CommandResult } from "@booking/event-store";
import { reviewStream } from "@booking/engine";
import { bookingReviewReply, evolveReview, findBooking, findReview, toProjected, type ReviewRow } from "@booking/projections";
import type { ReviewCommands } from "../main/index.ts";
import { actorOf, requireActor, refuse, valueOf, commandActor } from "../http/index.ts";
import type { RoutePlugin, Projected } from "../http/index.ts";

// A booking's review: the route reads the booking's facts from the bookings read model
// (findBooking) and puts them in the command; the review decider (../main/commands.ts: engine's
// reviewDecider over the event store, stream `review-{bookingId}`) decides; the reply is the
// reviews read model's row once it shows the write.

export type ReviewRouteDeps = {
  /** The bookings and reviews read models. */
  db: pg.Pool;
  reviews: ReviewCommands;
  projected: Projected;
};

type SignedIn = Parameters<typeof commandActor>[0];

/**
 * The facts of the booking a review is about, for a caller party to it (or an admin); anyone else
 * gets "No booking found", as for a booking that does not exist. Among its parties the decider
 * decides who may review (its creator) and reply (its expert).
 */
async function reviewedBooking(db: pg.Pool, actor: SignedIn, bookingId: string): Promise<ReviewedBooking> {
  const row = await findBooking(db, bookingId);
  if (!row || (actor.role !== "admin" && actor.userId !== row.creator_id && actor.userId !== row.expert_user_id))
    refuse("booking_not_found");
  return {
    bookingId: row.booking_id,
    creatorId: row.creator_id,
    expertId: row.expert_id,
    expertUserId: row.expert_user_id,
    status: row.status,
  };
}

const reviewReply = { response: { 200: BookingReviewReply } };
const reviewWritten = { response: { 201: BookingReviewReply } };

export const reviewRoutes: RoutePlugin<ReviewRouteDeps> = async (app, { db, reviews, projected }) => {
  /** Validate the command as at any boundary, decide it on the review's stream, wait for the read models, and read the review back. */
  const run = async (actor: SignedIn, bookingId: string, command: Record<string, unknown> & { type: ReviewCommand["type"] }) => {
    const parsed = valueOf(parseInput(ReviewCommand, { ...command, bookingId, actor: commandActor(actor) }));
    const before = await findReview(db, bookingId);
    const result: CommandResult = valueOf(await reviews.handle(reviewStream(bookingId), parsed, { actor: commandActor(actor) }));
    await projected(result);
    const after = await findReview(db, bookingId);
    // If the read model is still behind after waiting, answer with the row its own rule makes of the row before and the events written.
    const row = after ?? toProjected(result.events).reduce<ReviewRow | undefined>(evolveReview, before ?? undefined);
    return row ? bookingReviewReply(row) : refuse("review_not_found");
  };

  // The booking's parties (and admins) see its review, hidden or not.
  app.get(
    "/bookings/:bookingId/review",
    { onRequest: requireActor(), schema: { params: BookingIdParams, response: { 200: BookingReviewState } } },
    async (request) => {
      const booking = await reviewedBooking(db, actorOf(request), request.params.bookingId);
      const review = await findReview(db, booking.bookingId);
      return { review: review ? bookingReviewReply(review) : null };
    },
  );

  app.post(
    "/bookings/:bookingId/review",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: ReviewBody, ...reviewWritten } },
    async (request, reply) => {
      const actor = actorOf(request);
      const booking = await reviewedBooking(db, actor, request.params.bookingId);
      const written = await run(actor, booking.bookingId, {
        type: "LeaveReview",
        reviewId: randomUUID(),
        booking,
        rating: request.body.rating,
        text: request.body.text,
      });
      return reply.status(201).send(written);
    },
  );

  app.patch(
    "/bookings/:bookingId/review",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: ReviewBody, ...reviewReply } },
    async (request) => {
      const actor = actorOf(request);
      const booking = await reviewedBooking(db, actor, request.params.bookingId);
      return run(actor, booking.bookingId, { type: "EditReview", rating: request.body.rating, text: request.body.text });
    },
  );

  app.post(
    "/bookings/:bookingId/review/reply",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: ReviewReplyBody, ...reviewWritten } },
    async (request, reply) => {
      const actor = actorOf(request);
      const booking = await reviewedBooking(db, actor, request.params.bookingId);
      const written = await run(actor, booking.bookingId, { type: "ReplyToReview", booking, text: request.body.text });
      return reply.status(201).send(written);
    },
  );
};
