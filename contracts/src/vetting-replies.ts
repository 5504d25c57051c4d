import { z } from "zod";
import type { VETTING_CHECKLIST } from "./vetting.ts";
import { APPLICATION_STATUSES, ApplicationAnswers, DecisionReason, ReviewNote, VettingChecklist } from "./vetting.ts";

// Vetting on the wire (issue 30): the expert's application (GET/POST /experts/me/application), the console's
// queue and review (/admin/applications), suspension (/admin/experts/{id}/suspension, .../reinstatement)
// and the standards an expert keeps (/experts/me/standing, /admin/experts/{id}/standing).

/** The expert standards an applicant agrees to, as shown beside the application form and on the help page. */
export const EXPERT_STANDARDS: readonly string[] = [
  "Answer every booking request within 24 hours.",
  "Join every session you accept, on time, for its full length.",
  "Cancel only when you must, and as early as you can.",
  "Give creators advice from your own experience, and say when a question is outside it.",
  "Keep what creators share with you private.",
  "Keep every payment for a session on this marketplace.",
  "Treat every creator with respect.",
];

/** What the check mark means, in the words the listing's tooltip, the profile and the help page use. */
export const APPROVED_BADGE_MEANING = "Approved by our team: we reviewed this expert's experience, work and identity.";

/** The checklist's items as the console shows them. */
export const VETTING_CHECKLIST_LABELS: Record<(typeof VETTING_CHECKLIST)[number], string> = {
  identity_plausible: "Identity is plausible",
  expertise_shown: "Expertise is shown by their work",
  links_work: "Links work and are theirs",
  photo_is_person: "Photo is of a person",
  bio_professional: "Bio is professional",
};

/** POST /experts/me/application: the answers, snake_case on the wire like every body. */
export const ApplicationBody = z
  .object({
    // Each answer is checked by ApplicationAnswers below, so a missing one gets its own message.
    expertise: z.unknown().optional(),
    title: z.unknown().optional(),
    bio: z.unknown().optional(),
    links: z.unknown().optional(),
    years_of_experience: z.unknown().optional(),
    creators_can_expect: z.unknown().optional(),
    standards_version: z.unknown().optional(),
  })
  .strict()
  .transform((b) => ({
    expertise: b.expertise,
    title: b.title,
    bio: b.bio,
    links: b.links,
    yearsOfExperience: b.years_of_experience,
    creatorsCanExpect: b.creators_can_expect,
    standardsVersion: b.standards_version,
  }))
  .pipe(ApplicationAnswers);

export const ApplicationAnswersReply = z.strictObject({
  expertise: z.string(),
  title: z.string(),
  bio: z.string(),
  links: z.array(z.string()),
  years_of_experience: z.number(),
  creators_can_expect: z.string(),
  standards_version: z.string(),
});
export type ApplicationAnswersReply = z.infer<typeof ApplicationAnswersReply>;

/** Where the expert's application stands, and why (the last decision's reason). */
export const ApplicationReply = z.strictObject({
  status: z.enum(APPLICATION_STATUSES),
  revision: z.number(),
  answers: ApplicationAnswersReply.nullable(),
  reason: z.string().nullable(),
  submitted_at: z.string().nullable(),
  may_reapply_from: z.string().nullable(),
  /** The standards version an application must agree to now. */
  standards_version: z.string(),
});
export type ApplicationReply = z.infer<typeof ApplicationReply>;

/** One step of an application's history, for the console (notes included) and the expert (notes left out). */
export const ApplicationHistoryEntry = z.strictObject({
  at: z.string(),
  type: z.string(),
  by: z.string(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  checklist: VettingChecklist.nullable(),
});
export type ApplicationHistoryEntry = z.infer<typeof ApplicationHistoryEntry>;

/** GET /admin/applications (the queue, oldest submitted first) and GET /admin/applications/{id}, keyed by expert id. */
export const AdminApplicationReply = ApplicationReply.extend({
  id: z.string(),
  expert_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  profile_image: z.string().nullable(),
  history: z.array(ApplicationHistoryEntry),
});
export type AdminApplicationReply = z.infer<typeof AdminApplicationReply>;

/** Every review step names the revision the admin had open ("this application changed, reload"). */
const SeenRevision = z.number({ error: "invalid_request" }).int({ error: "invalid_request" }).min(0, { error: "invalid_request" });
export const ApplicationReviewBody = z.object({ seen_revision: SeenRevision }).strict();
export const ApplicationNoteBody = z.object({ seen_revision: SeenRevision, note: ReviewNote }).strict();
export const ApplicationDecisionBody = z
  .object({
    seen_revision: SeenRevision,
    decision: z.enum(["approve", "request_changes", "reject"], { error: "invalid_request" }),
    reason: DecisionReason,
    checklist: VettingChecklist.default({}),
  })
  .strict();
export const SuspensionBody = z.object({ reason: DecisionReason }).strict();

/** The standards an expert keeps, from their bookings and reviews (null: nothing to measure yet). */
export const ExpertStandingReply = z.strictObject({
  /** Median minutes from a paid request to the expert's answer (accept or decline). */
  median_answer_minutes: z.number().nullable(),
  /** Accepted requests among answered ones, 0–100. */
  acceptance_percent: z.number().nullable(),
  answered_requests: z.number(),
  cancelled_by_expert: z.number(),
  average_rating: z.number().nullable(),
  review_count: z.number(),
  /** Sessions that ended as the expert's no-show (issue 31.1), and their share of sessions held or missed, 0–100. */
  expert_no_shows: z.number(),
  no_show_percent: z.number().nullable(),
});
export type ExpertStandingReply = z.infer<typeof ExpertStandingReply>;

/** A suspension's reply: the expert as now, and every open booking the admin must resolve (never cancelled silently). */
export const SuspensionReply = z.strictObject({
  status: z.enum(APPLICATION_STATUSES),
  open_bookings: z.array(z.strictObject({ id: z.string(), scheduled_time: z.string(), status: z.string(), creator_id: z.string() })),
});
export type SuspensionReply = z.infer<typeof SuspensionReply>;
