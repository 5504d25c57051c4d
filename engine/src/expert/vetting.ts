import {
  REAPPLY_WAITING_DAYS,
  ok,
  refused,
  type ApplicationAnswers,
  type ApplicationStatus,
  type ExpertEvent,
  type Result,
  type VettingCommand,
  type VettingEvent,
  movesApplication,
  vettingStatusAfter,
} from "@booking/contracts";

// Vetting on the expert's stream (issue 30): the expert applies, an admin reviews against the checklist and
// decides; only an approved expert is bookable. Every step is an event, so the console's history and time
// travel show each decision and note.

export type Vetting = {
  status: ApplicationStatus;
  /** Counts the application's events: an admin's decision names the revision they had open. */
  revision: number;
  answers: ApplicationAnswers | null;
  /** When the latest application was submitted. */
  submittedAt: string | null;
  /** The last decision's reason, shown to the expert (approved, changes requested, rejected, suspended). */
  reason: string | null;
  /** After a rejection: the first day the expert may apply again. */
  mayReapplyFrom: string | null;
};

export const draftVetting: Vetting = { status: "draft", revision: 0, answers: null, submittedAt: null, reason: null, mayReapplyFrom: null };

/** Rule: creators can book an expert only once our team approved them, and not while they are suspended. */
export const isBookable = (v: Vetting): boolean => v.status === "approved";

/** Why a booking request for an expert whose application stands at `status` is refused, or null when they are bookable. */
export const bookingRefusalForVetting = (status: ApplicationStatus): "expert_not_approved" | "expert_suspended" | null =>
  status === "approved" ? null : status === "suspended" ? "expert_suspended" : "expert_not_approved";

export function evolveVetting(v: Vetting, e: ExpertEvent): Vetting {
  if (e.type === "ExpertProfileSaved" || !movesApplication(v.status, e.type)) return v;
  const next: Vetting = { ...v, status: vettingStatusAfter(v.status, e.type), revision: v.revision + 1 };
  switch (e.type) {
    case "ApplicationSubmitted":
      return { ...next, answers: e.data.answers, submittedAt: e.data.at, reason: null, mayReapplyFrom: null };
    case "ApplicationRejected":
      return { ...next, reason: e.data.reason, mayReapplyFrom: e.data.mayReapplyFrom };
    case "ApplicationReviewStarted":
    case "ApplicationNoted":
      // A note is for the console: it moves the revision (another admin sees the application changed), not the reason.
      return next;
    default:
      return { ...next, reason: e.data.reason ?? null };
  }
}

const OPEN_FOR_DECISION: readonly ApplicationStatus[] = ["submitted", "in_review"];

export function decideVetting(c: VettingCommand, v: Vetting, userId: string, now: string): Result<VettingEvent[]> {
  const by = { expertId: c.expertId, by: c.actor.userId, at: now };
  if (c.type === "SubmitApplication") {
    // Rule: only the expert applies, for themself.
    if (c.actor.role !== "expert" || c.actor.userId !== userId) return refused("forbidden");
    if (OPEN_FOR_DECISION.includes(v.status)) return refused("application_already_submitted");
    if (v.status === "approved" || v.status === "suspended") return refused("application_already_approved");
    if (v.status === "rejected" && v.mayReapplyFrom !== null && now < v.mayReapplyFrom) {
      return refused("application_reapply_wait", { date: v.mayReapplyFrom.slice(0, 10) });
    }
    return ok([{ type: "ApplicationSubmitted", data: { ...by, answers: c.answers } }]);
  }
  // Rule: reviewing, deciding, suspending and reinstating are an admin's.
  if (c.actor.role !== "admin") return refused("forbidden");
  switch (c.type) {
    case "SuspendExpert":
      if (v.status !== "approved") return refused(v.status === "suspended" ? "expert_suspended" : "expert_not_approved");
      return ok([{ type: "ExpertSuspended", data: { ...by, reason: c.reason } }]);
    case "ReinstateExpert":
      if (v.status !== "suspended") return refused("expert_not_suspended");
      return ok([{ type: "ExpertReinstated", data: { ...by, reason: c.reason } }]);
  }
  // Rule: a decision is on the application as the admin saw it; one that changed since is reloaded first.
  if (c.seenRevision !== v.revision) return refused("application_changed");
  if (!OPEN_FOR_DECISION.includes(v.status)) return refused("application_not_submitted");
  switch (c.type) {
    case "StartApplicationReview":
      return ok(v.status === "in_review" ? [] : [{ type: "ApplicationReviewStarted", data: by }]);
    case "NoteApplication":
      return ok([{ type: "ApplicationNoted", data: { ...by, note: c.note } }]);
    case "DecideApplication": {
      const decided = { ...by, reason: c.reason, checklist: c.checklist };
      if (c.decision === "approve") return ok([{ type: "ApplicationApproved", data: decided }]);
      if (c.decision === "request_changes") return ok([{ type: "ApplicationChangesRequested", data: decided }]);
      const mayReapplyFrom = new Date(Date.parse(now) + REAPPLY_WAITING_DAYS * 86_400_000).toISOString();
      return ok([{ type: "ApplicationRejected", data: { ...decided, mayReapplyFrom } }]);
    }
  }
}
