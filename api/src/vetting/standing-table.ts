import type pg from "pg";
import type { ExpertStandingReply } from "@booking/contracts";

// The standards an expert keeps, measured from the bookings and reviews read models (issue 30): how fast and how
// often they accept paid requests, how often they cancel, and their rating. No-shows come with the no-show work.

/** One statement: answered paid requests (accepted by the expert or declined/cancelled by them), cancellations, rating. */
const STANDING = `
  WITH answered AS (
    SELECT b.confirmed_at, b.created_at, b.status, b.cancelled_by FROM bookings b
    WHERE b.expert_id = $1 AND b.paid_cents > 0
      AND (b.confirmed_at IS NOT NULL OR (b.status = 'cancelled' AND b.cancelled_by = 'expert'))
  )
  SELECT
    (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM confirmed_at - created_at) / 60)
       FROM answered WHERE confirmed_at IS NOT NULL) AS median_answer_minutes,
    (SELECT count(*) FROM answered) AS answered_requests,
    (SELECT count(*) FROM answered WHERE confirmed_at IS NOT NULL) AS accepted_requests,
    (SELECT count(*) FROM bookings b WHERE b.expert_id = $1 AND b.status = 'cancelled' AND b.cancelled_by = 'expert') AS cancelled_by_expert,
    (SELECT round(avg(r.rating), 1) FROM reviews r WHERE r.expert_id = $1 AND NOT r.hidden) AS average_rating,
    (SELECT count(*) FROM reviews r WHERE r.expert_id = $1 AND NOT r.hidden) AS review_count`;

export async function expertStanding(db: pg.Pool, expertId: string): Promise<ExpertStandingReply> {
  const r = (await db.query(STANDING, [expertId])).rows[0] as Record<string, string | number | null>;
  const answered = Number(r.answered_requests);
  return {
    median_answer_minutes: r.median_answer_minutes === null ? null : Math.round(Number(r.median_answer_minutes)),
    acceptance_percent: answered === 0 ? null : Math.round((Number(r.accepted_requests) * 100) / answered),
    answered_requests: answered,
    cancelled_by_expert: Number(r.cancelled_by_expert),
    average_rating: r.average_rating === null ? null : Number(r.average_rating),
    review_count: Number(r.review_count),
  };
}
