import type { Queryable } from "./bookings-queries.ts";

// The standards an expert keeps, measured from the bookings and reviews read models (issue 30.4): how fast and how
// often they accept paid requests, how often they cancel, and their rating. The console and the expert read one
// expert's; the listing's recommended order reads every listed expert's in the same statement. A no-show counts
// once its report is settled as the expert's (issue 31.1).

export type ExpertStanding = {
  medianAnswerMinutes: number | null;
  answeredRequests: number;
  acceptedRequests: number;
  cancelledByExpert: number;
  averageRating: number | null;
  reviewCount: number;
  /** Sessions that ended as the expert's no-show, among `sessionsDue` (held, or missed by either party). */
  expertNoShows: number;
  sessionsDue: number;
};

/** Answered paid requests: accepted by the expert, or declined or cancelled by them. */
const STANDINGS = `
  WITH answered AS (
    SELECT b.expert_id, b.confirmed_at, b.created_at FROM bookings b
    WHERE b.expert_id = ANY($1) AND b.paid_cents > 0
      AND (b.confirmed_at IS NOT NULL OR (b.status = 'cancelled' AND b.cancelled_by = 'expert'))
  ), answers AS (
    SELECT expert_id,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM confirmed_at - created_at) / 60)
        FILTER (WHERE confirmed_at IS NOT NULL) AS median_answer_minutes,
      count(*) AS answered_requests, count(*) FILTER (WHERE confirmed_at IS NOT NULL) AS accepted_requests
    FROM answered GROUP BY expert_id
  ), cancels AS (
    SELECT b.expert_id, count(*) AS cancelled_by_expert FROM bookings b
    WHERE b.expert_id = ANY($1) AND b.status = 'cancelled' AND b.cancelled_by = 'expert' GROUP BY b.expert_id
  ), sessions AS (
    SELECT b.expert_id, count(*) FILTER (WHERE b.status = 'expert_no_show') AS expert_no_shows, count(*) AS sessions_due FROM bookings b
    WHERE b.expert_id = ANY($1) AND b.status IN ('completed', 'expert_no_show', 'creator_no_show') GROUP BY b.expert_id
  ), ratings AS (
    SELECT r.expert_id, round(avg(r.rating), 1) AS average_rating, count(*) AS review_count FROM reviews r
    WHERE r.expert_id = ANY($1) AND NOT r.hidden GROUP BY r.expert_id
  )
  SELECT ids.expert_id, a.median_answer_minutes, a.answered_requests, a.accepted_requests, c.cancelled_by_expert,
    r.average_rating, r.review_count, s.expert_no_shows, s.sessions_due
  FROM unnest($1::text[]) AS ids(expert_id)
  LEFT JOIN answers a USING (expert_id) LEFT JOIN cancels c USING (expert_id) LEFT JOIN ratings r USING (expert_id)
  LEFT JOIN sessions s USING (expert_id)`;

const count = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** Each named expert's standing (an expert with no bookings and no reviews has zeros and nulls). */
export async function expertStandings(db: Queryable, expertIds: readonly string[]): Promise<Map<string, ExpertStanding>> {
  const { rows } = await db.query<Record<string, string | number | null>>(STANDINGS, [expertIds]);
  return new Map(
    rows.map((r) => [
      String(r.expert_id),
      {
        medianAnswerMinutes: r.median_answer_minutes === null ? null : Math.round(Number(r.median_answer_minutes)),
        answeredRequests: count(r.answered_requests),
        acceptedRequests: count(r.accepted_requests),
        cancelledByExpert: count(r.cancelled_by_expert),
        averageRating: r.average_rating === null ? null : Number(r.average_rating),
        reviewCount: count(r.review_count),
        expertNoShows: count(r.expert_no_shows),
        sessionsDue: count(r.sessions_due),
      },
    ]),
  );
}
