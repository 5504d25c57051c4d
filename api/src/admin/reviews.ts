import type pg from "pg";
import { z } from "zod";
import { AdminReviewReply, HideReviewBody, Id, type Actor } from "@booking/contracts";
import { reviewStream } from "@booking/engine";
import {
  adminReviewReply,
  findReview,
  reviewListSort,
  reviewsWithNamesFrom,
  reviewWithNamesFromPg,
  reviewWithNamesSelectList,
} from "@booking/projections";
import type { ReviewCommands } from "../main/index.ts";
import { actorOf, refuse, valueOf } from "../http/index.ts";
import type { RoutePlugin, Projected } from "../http/index.ts";
import {
  containsPattern,
  Flag,
  IdText,
  listPage,
  ListQueryString,
  type ListSpec,
  oneOrMany,
  RecordIdParams,
  SearchText,
  SqlWhere,
} from "./list-query.ts";

// Reviews, from the `reviews` read model (id = the booking's id), hidden ones included; hiding one
// goes through the review decider with the admin as the actor and a reason kept in the history.

const ReviewFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    expert_id: IdText.optional(),
    creator_id: IdText.optional(),
    hidden: Flag.optional(),
    /** Matches the review's text (contains). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof ReviewFilter> = {
  resource: "reviews",
  sortable: reviewListSort,
  defaultSort: ["created_at", "DESC"],
  uniqueKey: "r.booking_id",
  filter: ReviewFilter,
};

function reviewWhere(f: z.output<typeof ReviewFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`r.booking_id = ANY(${w.param(f.id)})`);
  if (f.expert_id) w.add(`r.expert_id = ${w.param(f.expert_id)}`);
  if (f.creator_id) w.add(`r.creator_id = ${w.param(f.creator_id)}`);
  if (f.hidden !== undefined) w.add(`r.hidden = ${w.param(f.hidden)}`);
  if (f.q) w.add(`r.text ILIKE ${w.param(containsPattern(f.q))}`);
  return w;
}

/** What the console's review routes use: the read models, and the review commands for hiding. */
export type ReviewAdminDeps = { db: pg.Pool; reviews: ReviewCommands; projected: Projected };

export const reviewsAdmin: RoutePlugin<ReviewAdminDeps> = async (app, { db, reviews, projected }) => {
  const reviewRecord = async (bookingId: string) => {
    const row = await findReview(db, bookingId);
    return row ? adminReviewReply(row) : refuse("not_found");
  };

  app.get("/reviews", { schema: { querystring: ListQueryString, response: { 200: z.array(AdminReviewReply) } } }, async (request, reply) =>
    listPage(reply, db, spec, request.query, { select: reviewWithNamesSelectList, from: reviewsWithNamesFrom, where: reviewWhere }, (raw) =>
      adminReviewReply(reviewWithNamesFromPg(raw)),
    ),
  );

  app.get("/reviews/:id", { schema: { params: RecordIdParams, response: { 200: AdminReviewReply } } }, async (request) =>
    reviewRecord(request.params.id),
  );

  // ra-data-simple-rest's `update`: the one change an admin makes to a review is hiding it, with a reason.
  app.put(
    "/reviews/:id",
    { schema: { params: z.object({ id: Id }).strict(), body: HideReviewBody, response: { 200: AdminReviewReply } } },
    async (request) => {
      const actor: Actor = { userId: actorOf(request).userId, role: "admin" };
      const bookingId = request.params.id;
      await projected(
        valueOf(
          await reviews.handle(reviewStream(bookingId), { type: "HideReview", bookingId, actor, reason: request.body.reason }, { actor }),
        ),
      );
      return reviewRecord(bookingId);
    },
  );
};
