import type { ExpertStandingReply } from "@booking/contracts";

// The standards an approved expert keeps, in plain words for the expert (issue 30).

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "45 minutes", "3 hours", "2 days": a duration in minutes, rounded to the unit people think in. */
export function durationText(minutes: number): string {
  if (minutes < 60) return plural(Math.max(1, Math.round(minutes)), "minute");
  if (minutes < 48 * 60) return plural(Math.round(minutes / 60), "hour");
  return plural(Math.round(minutes / (24 * 60)), "day");
}

/** The standard: every booking request answered within this many minutes. */
const ANSWER_STANDARD_MINUTES = 24 * 60;

/** Nothing to measure yet: no answered request, no cancellation, no review. */
export const nothingMeasured = (s: ExpertStandingReply): boolean =>
  s.median_answer_minutes === null && s.answered_requests === 0 && s.cancelled_by_expert === 0 && s.review_count === 0;

/** One sentence per measure, in the order the standards name them. */
export function standingLines(s: ExpertStandingReply): string[] {
  const lines: string[] = [];
  if (s.median_answer_minutes === null) lines.push("You have not answered a booking request yet.");
  else {
    const late = s.median_answer_minutes > ANSWER_STANDARD_MINUTES ? " Our standard is to answer within 24 hours." : "";
    lines.push(`You answer requests in ${durationText(s.median_answer_minutes)} on average.${late}`);
  }
  if (s.acceptance_percent !== null)
    lines.push(`You accepted ${Math.round(s.acceptance_percent)}% of the ${plural(s.answered_requests, "request")} you answered.`);
  lines.push(
    s.cancelled_by_expert === 0 ? "You have not cancelled any sessions." : `You cancelled ${plural(s.cancelled_by_expert, "session")}.`,
  );
  if (s.expert_no_shows > 0)
    lines.push(`You missed ${plural(s.expert_no_shows, "session")} (${s.no_show_percent ?? 0}% of your sessions).`);
  lines.push(
    s.average_rating === null
      ? "No reviews yet."
      : `Creators rate you ${s.average_rating.toFixed(1)} out of 5 from ${plural(s.review_count, "review")}.`,
  );
  return lines;
}
