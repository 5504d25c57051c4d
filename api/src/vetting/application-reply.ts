import {
  EXPERT_STANDARDS_VERSION,
  ExpertEvent,
  isVettingEventType,
  type ApplicationAnswers,
  type ApplicationAnswersReply,
  type ApplicationHistoryEntry,
  type ApplicationReply,
} from "@booking/contracts";
import { draftVetting, type ExpertState } from "@booking/engine";

// An application as the expert and the console see it: the expert stream's state, and its steps as history.

const answersReply = (a: ApplicationAnswers): ApplicationAnswersReply => ({
  expertise: a.expertise,
  title: a.title,
  bio: a.bio,
  links: a.links,
  years_of_experience: a.yearsOfExperience,
  creators_can_expect: a.creatorsCanExpect,
  standards_version: a.standardsVersion,
});

export function applicationReply(state: ExpertState): ApplicationReply {
  const v = state.kind === "profiled" ? state.vetting : draftVetting;
  return {
    status: v.status,
    revision: v.revision,
    answers: v.answers && answersReply(v.answers),
    reason: v.reason,
    submitted_at: v.submittedAt,
    may_reapply_from: v.mayReapplyFrom,
    standards_version: EXPERT_STANDARDS_VERSION,
  };
}

type StoredStep = { type: string; data: unknown; metadata: { at?: string } };

/** When a step happened: the time its command was decided (in the event), else when it was stored. */
export const stepTime = (stored: StoredStep): string => (stored.data as { at?: string } | null)?.at ?? stored.metadata.at ?? "";

/** The application's steps, oldest first: decisions with their reason and checklist, and (for the console) notes. */
export function applicationHistory(events: readonly StoredStep[], withNotes: boolean): ApplicationHistoryEntry[] {
  const history: ApplicationHistoryEntry[] = [];
  for (const stored of events) {
    if (!isVettingEventType(stored.type) || (!withNotes && stored.type === "ApplicationNoted")) continue;
    const parsed = ExpertEvent.safeParse({ type: stored.type, data: stored.data });
    if (!parsed.success) continue;
    const data = parsed.data.data as {
      by?: string;
      at?: string;
      reason?: string;
      note?: string;
      checklist?: ApplicationHistoryEntry["checklist"];
    };
    history.push({
      at: stepTime(stored),
      type: stored.type,
      by: data.by ?? "",
      reason: data.reason ?? null,
      note: data.note ?? null,
      checklist: data.checklist ?? null,
    });
  }
  return history;
}
