import { z } from "zod";
import { Actor, Id, multiLine, oneLine } from "./primitives.ts";

// Vetting (issue 30): an expert applies on their own stream (`expert-{expertId}`), an admin reviews the
// application against the checklist and decides, and only an approved expert can be booked.

/** The expert standards an applicant agrees to, versioned like the terms: a new text is a new version, agreed anew. */
export const EXPERT_STANDARDS_VERSION = "standards-2026-11";

/** A rejected expert may apply again this many days after the rejection. */
export const REAPPLY_WAITING_DAYS = 30;

/** Where an application stands, as the expert and the console show it. */
export const APPLICATION_STATUSES = ["draft", "submitted", "in_review", "changes_requested", "approved", "rejected", "suspended"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** What a reviewer checks, one tick each, kept with the decision. */
export const VETTING_CHECKLIST = ["identity_plausible", "expertise_shown", "links_work", "photo_is_person", "bio_professional"] as const;
export type VettingChecklistItem = (typeof VETTING_CHECKLIST)[number];
export const VettingChecklist = z.partialRecord(z.enum(VETTING_CHECKLIST, { error: "invalid_request" }), z.boolean(), {
  error: "invalid_request",
});
export type VettingChecklist = z.infer<typeof VettingChecklist>;

const required = (max: number, error: "application_field_required") =>
  oneLine(z.string({ error }).trim().min(1, { error }).max(max, { error }));

/** A link to the applicant's work or social profile: http(s) only, never `javascript:` or `data:`. */
export const WorkLink = z
  .string({ error: "application_link_invalid" })
  .trim()
  .max(500, { error: "application_link_invalid" })
  .refine((url) => URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol), { error: "application_link_invalid" });

export const ApplicationAnswers = z.object({
  expertise: required(200, "application_field_required"),
  title: required(200, "application_field_required"),
  bio: multiLine(
    z
      .string({ error: "application_bio_invalid" })
      .trim()
      .min(80, { error: "application_bio_invalid" })
      .max(5_000, { error: "application_bio_invalid" }),
  ),
  links: z
    .array(WorkLink, { error: "application_link_invalid" })
    .min(1, { error: "application_link_invalid" })
    .max(10, { error: "application_link_invalid" }),
  yearsOfExperience: z.number({ error: "application_years_invalid" }).int({ error: "application_years_invalid" }).min(0).max(80, {
    error: "application_years_invalid",
  }),
  creatorsCanExpect: multiLine(
    z.string({ error: "application_field_required" }).trim().min(1, { error: "application_field_required" }).max(2_000),
  ),
  /** The standards version agreed to; an older one is refused so nobody agrees to a text they were not shown. */
  standardsVersion: z.literal(EXPERT_STANDARDS_VERSION, { error: "application_standards_not_agreed" }),
});
export type ApplicationAnswers = z.infer<typeof ApplicationAnswers>;

/** Why an admin decided, suspended or reinstated: shown to the expert and kept in the history. */
export const DecisionReason = multiLine(
  z
    .string({ error: "vetting_reason_required" })
    .trim()
    .min(1, { error: "vetting_reason_required" })
    .max(500, { error: "vetting_reason_required" }),
);
/** A reviewer's note: for the console only, never shown to the expert. */
export const ReviewNote = multiLine(
  z
    .string({ error: "application_note_invalid" })
    .trim()
    .min(1, { error: "application_note_invalid" })
    .max(2_000, { error: "application_note_invalid" }),
);

/**
 * `seenRevision`: the application's revision the admin had open. A decision on an application that changed
 * since (a resubmission, another admin's decision) is refused with "this application changed, reload".
 */
const decision = { expertId: Id, actor: Actor, seenRevision: z.number().int().min(0) };

export const VettingCommand = z.discriminatedUnion("type", [
  z.object({ type: z.literal("SubmitApplication"), expertId: Id, actor: Actor, answers: ApplicationAnswers }),
  z.object({ type: z.literal("StartApplicationReview"), ...decision }),
  z.object({ type: z.literal("NoteApplication"), ...decision, note: ReviewNote }),
  z.object({
    type: z.literal("DecideApplication"),
    ...decision,
    decision: z.enum(["approve", "request_changes", "reject"], { error: "invalid_request" }),
    reason: DecisionReason,
    checklist: VettingChecklist.default({}),
  }),
  z.object({ type: z.literal("SuspendExpert"), expertId: Id, actor: Actor, reason: DecisionReason }),
  z.object({ type: z.literal("ReinstateExpert"), expertId: Id, actor: Actor, reason: DecisionReason }),
]);
export type VettingCommand = z.infer<typeof VettingCommand>;

const by = { expertId: Id, by: Id, at: z.string() };
export const VettingEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ApplicationSubmitted"), data: z.object({ ...by, answers: ApplicationAnswers }) }),
  z.object({ type: z.literal("ApplicationReviewStarted"), data: z.object(by) }),
  z.object({ type: z.literal("ApplicationNoted"), data: z.object({ ...by, note: z.string() }) }),
  z.object({
    type: z.literal("ApplicationApproved"),
    data: z.object({ ...by, reason: z.string(), checklist: VettingChecklist }),
  }),
  z.object({
    type: z.literal("ApplicationChangesRequested"),
    data: z.object({ ...by, reason: z.string(), checklist: VettingChecklist }),
  }),
  z.object({
    type: z.literal("ApplicationRejected"),
    data: z.object({ ...by, reason: z.string(), checklist: VettingChecklist, mayReapplyFrom: z.string() }),
  }),
  z.object({ type: z.literal("ExpertSuspended"), data: z.object({ ...by, reason: z.string() }) }),
  z.object({ type: z.literal("ExpertReinstated"), data: z.object({ ...by, reason: z.string() }) }),
]);
export type VettingEvent = z.infer<typeof VettingEvent>;

/**
 * Rule: where an application stands after one of the expert stream's events (the engine's decider and the
 * experts read model both follow it). Before applications, an admin's Verify was the approval and Unverify withdrew it.
 */
export function vettingStatusAfter(status: ApplicationStatus, type: string): ApplicationStatus {
  switch (type) {
    case "ApplicationSubmitted":
      return "submitted";
    case "ApplicationReviewStarted":
      return "in_review";
    case "ApplicationApproved":
    case "ExpertReinstated":
    case "ExpertVerified":
      return "approved";
    case "ApplicationChangesRequested":
      return "changes_requested";
    case "ApplicationRejected":
      return "rejected";
    case "ExpertSuspended":
      return "suspended";
    case "ExpertUnverified":
      return status === "approved" ? "draft" : status;
    default:
      return status;
  }
}

const VETTING_EVENT_TYPES: ReadonlySet<string> = new Set([
  ...VettingEvent.options.map((o) => o.shape.type.value),
  "ExpertVerified",
  "ExpertUnverified",
]);
/** The expert stream's events about its application (the console's history lists them). */
export const isVettingEventType = (type: string): boolean => VETTING_EVENT_TYPES.has(type);

/**
 * Rule: whether an event moves an application standing at `status` (its revision counts the ones that do). Verifying
 * an approved expert again, or unverifying one who is not approved, changes nothing (the engine and the read model agree).
 */
export const movesApplication = (status: ApplicationStatus, type: string): boolean =>
  isVettingEventType(type) &&
  !(type === "ExpertVerified" && status === "approved") &&
  !(type === "ExpertUnverified" && status !== "approved");
