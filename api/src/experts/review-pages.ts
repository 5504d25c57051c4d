import type pg from "pg";
import { z } from "zod";
import { ExpertIdParams, ExpertReview, ExpertReviewsQuery, REVIEWS_PAGE_DEFAULT } from "@booking/contracts";
import { expertReview, findExpert, visibleReviewsPage, type ExpertRow } from "@booking/projections";
import { bookingTimeCursor, nextPageLink, refuse, type RoutePlugin } from "../http/index.ts";

// An expert's reviews, newest first, a page at a time (issue 34.5). The profile (GET /experts/{slug})
// carries the first page, and while older reviews remain a `Link: <…>; rel="next"` header, on the
// profile and on each page, names the next page of GET /experts/{expertId}/reviews, so no review is
// cut off in silence. The cursor is the last review's written time and booking id (keyset), opaque.

const cursor = bookingTimeCursor("createdAt", "reviews_cursor_invalid");

/**
 * Rule: an unpublished profile, or one our team has not approved (or suspended), is seen by its expert (a preview)
 * and admins only; to anyone else it does not exist.
 */
export function mayViewProfile(expert: ExpertRow | null, viewer: { role: string; userId: string } | null | undefined): expert is ExpertRow {
  if (!expert) return false;
  return (expert.published && expert.verified) || (!!viewer && (viewer.role === "admin" || viewer.userId === expert.user_id));
}

/** Where the API is mounted, from the address of a request under it (the profile's or a page's: both are under /experts/). */
export const apiBaseOf = (url: string) => url.slice(0, url.indexOf("/experts/"));

/** A page of the expert's visible reviews as the profile shows them, and the `Link` header value of the next page (null: none). */
export async function reviewsPage(
  db: pg.Pool,
  expertId: string,
  page: { before?: string | undefined; limit?: number | undefined; base: string },
): Promise<{ reviews: ExpertReview[]; link: string | null }> {
  const limit = page.limit ?? REVIEWS_PAGE_DEFAULT;
  const { reviews, next } = await visibleReviewsPage(db, expertId, { after: cursor.of(page.before), limit });
  return {
    reviews: reviews.map(expertReview),
    link: next ? nextPageLink(`${page.base}/experts/${encodeURIComponent(expertId)}/reviews`, cursor.text(next), limit) : null,
  };
}

export const reviewPageRoutes: RoutePlugin<{ db: pg.Pool }> = async (app, { db }) => {
  app.get(
    "/experts/:expertId/reviews",
    {
      schema: {
        params: ExpertIdParams,
        querystring: ExpertReviewsQuery,
        response: { 200: z.array(ExpertReview).describe('One page, newest first; a `Link: <…>; rel="next"` header names the next.') },
      },
    },
    async (request, reply) => {
      if (!mayViewProfile(await findExpert(db, request.params.expertId), request.actor)) refuse("profile_not_found");
      const { reviews, link } = await reviewsPage(db, request.params.expertId, { ...request.query, base: apiBaseOf(request.url) });
      if (link) reply.header("link", link);
      return reviews;
    },
  );
};
