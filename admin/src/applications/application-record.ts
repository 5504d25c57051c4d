import { HttpError } from "react-admin";
import { APPLICATION_STATUSES, type AdminApplicationReply, type ApplicationStatus } from "@booking/contracts";

// Vetting (issue 30): an expert's application as GET /admin/applications sends it (contracts' AdminApplicationReply),
// keyed by the expert's id, and the words the console uses for where it stands.

export type Application = AdminApplicationReply;
export type ApplicationHistoryEntry = Application["history"][number];

export const applicantName = (a: Pick<Application, "first_name" | "last_name">) => `${a.first_name} ${a.last_name}`.trim();

export const applicationStatusLabels: Record<ApplicationStatus, string> = {
  draft: "Draft",
  submitted: "Submitted",
  in_review: "In review",
  changes_requested: "Changes requested",
  approved: "Approved",
  rejected: "Rejected",
  suspended: "Suspended",
};

export const applicationStatusChoices = APPLICATION_STATUSES.map((id) => ({ id, name: applicationStatusLabels[id] }));

/** Rule (the engine's): an admin reviews, notes and decides only while the application waits for a decision. */
export const waitsForDecision = (status: ApplicationStatus) => status === "submitted" || status === "in_review";

/** The API's answer to a review step on an application that changed since the admin opened it. */
export const APPLICATION_CHANGED = "application_changed";

/** A refusal's code and message as the API sends them (`{ code, message }`); the error's message otherwise. */
export function refusalOf(error: unknown, fallback: string): { code: string | null; message: string } {
  const body: unknown = error instanceof HttpError ? error.body : null;
  const code = typeof body === "object" && body !== null && "code" in body && typeof body.code === "string" ? body.code : null;
  return { code, message: error instanceof Error && error.message ? error.message : fallback };
}

/** What a step of the history was, in the console's words: the expert stream's event types, or the API's short names. */
const historyLabels: Record<string, string> = {
  ApplicationSubmitted: "Submitted",
  ApplicationReviewStarted: "Review started",
  ApplicationNoted: "Note",
  ApplicationApproved: "Approved",
  ApplicationChangesRequested: "Changes requested",
  ApplicationRejected: "Rejected",
  ExpertSuspended: "Suspended",
  ExpertReinstated: "Reinstated",
  ExpertVerified: "Verified",
  ExpertUnverified: "Unverified",
  review_started: "Review started",
  noted: "Note",
  note: "Note",
  reinstated: "Reinstated",
  ...applicationStatusLabels,
};

/** "ApplicationApproved" → "Approved"; a type the console does not know, as words ("SomethingNew" → "Something new"). */
export function historyLabel(type: string): string {
  const known = historyLabels[type];
  if (known) return known;
  const words = type
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replaceAll("_", " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
