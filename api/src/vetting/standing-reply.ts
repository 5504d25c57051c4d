import type pg from "pg";
import type { ExpertStandingReply } from "@booking/contracts";
import { expertStandings } from "@booking/projections";

/** One expert's standing (projections' expertStandings), in the reply's words. */
export async function expertStanding(db: pg.Pool, expertId: string): Promise<ExpertStandingReply> {
  const s = (await expertStandings(db, [expertId])).get(expertId)!;
  return {
    median_answer_minutes: s.medianAnswerMinutes,
    acceptance_percent: s.answeredRequests === 0 ? null : Math.round((s.acceptedRequests * 100) / s.answeredRequests),
    answered_requests: s.answeredRequests,
    cancelled_by_expert: s.cancelledByExpert,
    average_rating: s.averageRating,
    review_count: s.reviewCount,
    expert_no_shows: s.expertNoShows,
    no_show_percent: s.sessionsDue === 0 ? null : Math.round((s.expertNoShows * 100) / s.sessionsDue),
  };
}
