import { NO_SHOW_REPORT_HOURS_AFTER_END, type NoShowParty } from "@booking/contracts";
import type { Booking, Me } from "../shared/api-types.ts";

// When a party of a booking may report a no-show or contest one (issue 31.1), as the calendar's rules
// have it (engine/src/calendar/no-shows.ts): the page offers only what the API would take.

const HOUR_MS = 3_600_000;

type Held = Pick<Booking, "status" | "scheduled_time" | "length_minutes" | "no_show">;
type Parties = Pick<Booking, "creator_id" | "expert_id">;

/** The window a no-show may be reported in: from the session's start until 48 hours after its end (both instants included). */
export function reportWindow(b: Pick<Booking, "scheduled_time" | "length_minutes">): { opens: number; closes: number } {
  const opens = Date.parse(b.scheduled_time);
  return { opens, closes: opens + b.length_minutes * 60_000 + NO_SHOW_REPORT_HOURS_AFTER_END * HOUR_MS };
}

/** The side the signed-in person is on for a booking, or null for anyone else (an admin looking on reports nothing). */
export function noShowPartyOf(user: Pick<Me, "id" | "role" | "expert_id"> | null, b: Parties): NoShowParty | null {
  if (!user) return null;
  if (user.id === b.creator_id) return "creator";
  if (user.role === "expert" && (user.id === b.expert_id || user.expert_id === b.expert_id)) return "expert";
  return null;
}

/** The party a report by `party` says was absent: the other one. */
export const otherParty = (party: NoShowParty): NoShowParty => (party === "creator" ? "expert" : "creator");

/** A party may report once per booking, while it is confirmed or completed and `now` is inside the report window. */
export function mayReportNoShow(b: Held, party: NoShowParty | null, now: number): boolean {
  if (!party || b.no_show) return false;
  if (b.status !== "confirmed" && b.status !== "completed") return false;
  const { opens, closes } = reportWindow(b);
  return now >= opens && now <= closes;
}

/** Only the party reported absent contests, once, while the report is open and its contest window (`contest_by`, included) lasts. */
export function mayContestNoShow(b: Pick<Booking, "no_show">, party: NoShowParty | null, now: number): boolean {
  const report = b.no_show;
  if (!report || !party || report.outcome !== null || report.contested) return false;
  return party === report.absent && now <= Date.parse(report.contest_by);
}

/** The next instant the answers above change for this booking (the window opens or closes, the contest window ends), or null. */
export function nextNoShowChange(b: Held, now: number): number | null {
  const { opens, closes } = reportWindow(b);
  const contestEnds = b.no_show && b.no_show.outcome === null && !b.no_show.contested ? Date.parse(b.no_show.contest_by) + 1 : null;
  const ahead = [opens, closes + 1, contestEnds].filter((t): t is number => t !== null && t > now);
  return ahead.length ? Math.min(...ahead) : null;
}
