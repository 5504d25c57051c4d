import { z } from "zod";
import { Actor, Id } from "./primitives.ts";
import { VettingCommand, VettingEvent } from "./vetting.ts";

// Stream `expert-{expertId}`: the public profile, its publish state and the vetting decision.

/** Where the API serves an expert's uploaded profile image (a `?v=` query marks each upload). */
export const expertImagePath = (expertId: string) => `/api/v1/media/experts/${expertId}/profile`;

/** Rule: a profile shows only the image its expert uploaded here: no off-site tracking pixels, `javascript:` or `data:` URLs. */
export const isOwnExpertImage = (url: string, expertId: string): boolean => {
  const path = expertImagePath(expertId);
  return url === path || (url.startsWith(`${path}?v=`) && /^\d{1,20}$/.test(url.slice(path.length + 3)));
};

const text = (max: number) => z.string({ error: "invalid_request" }).trim().max(max, { error: "invalid_request" });

export const ExpertProfileFields = z.object({
  firstName: z
    .string({ error: "profile_names_required" })
    .trim()
    .min(1, { error: "profile_names_required" })
    .max(100, { error: "profile_names_required" }),
  lastName: z
    .string({ error: "profile_names_required" })
    .trim()
    .min(1, { error: "profile_names_required" })
    .max(100, { error: "profile_names_required" }),
  title: z
    .string({ error: "profile_title_required" })
    .trim()
    .min(1, { error: "profile_title_required" })
    .max(200, { error: "profile_title_required" }),
  bio: text(10_000).nullable().default(null),
  tags: z
    .array(text(50).min(1, { error: "invalid_request" }))
    .max(20, { error: "invalid_request" })
    .default([]),
  profileImage: text(2000).nullable().default(null),
});
export type ExpertProfileFields = z.infer<typeof ExpertProfileFields>;

/** Why an admin verified or unverified an expert: kept with the decision, shown in the expert's vetting history. */
export const VettingReason = z
  .string({ error: "vetting_reason_required" })
  .trim()
  .min(1, { error: "vetting_reason_required" })
  .max(500, { error: "vetting_reason_required" });

export const ExpertCommand = z.discriminatedUnion("type", [
  /**
   * Publish Profile sends published true, Unpublish false; Save Profile sends none and keeps the
   * profile as it is (the spec's "Save sends published false" silently took experts off the listing).
   */
  z.object({
    type: z.literal("SaveExpertProfile"),
    expertId: Id,
    actor: Actor,
    userId: Id,
    profile: ExpertProfileFields,
    published: z.boolean().optional(),
  }),
  /** The console always gives a reason (PUT /admin/experts/{id}); the seed's vetting has none. */
  z.object({ type: z.literal("VerifyExpert"), expertId: Id, actor: Actor, reason: VettingReason.optional() }),
  z.object({ type: z.literal("UnverifyExpert"), expertId: Id, actor: Actor, reason: VettingReason.optional() }),
  ...VettingCommand.options,
]);
export type ExpertCommand = z.infer<typeof ExpertCommand>;

export const ExpertEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("ExpertProfileSaved"),
    data: z.object({ expertId: Id, userId: Id, slug: z.string(), profile: ExpertProfileFields, published: z.boolean() }),
  }),
  // Decisions recorded before issue 27.20 have no reason.
  z.object({ type: z.literal("ExpertVerified"), data: z.object({ expertId: Id, by: Id, reason: z.string().optional() }) }),
  z.object({ type: z.literal("ExpertUnverified"), data: z.object({ expertId: Id, by: Id, reason: z.string().optional() }) }),
  ...VettingEvent.options,
]);
export type ExpertEvent = z.infer<typeof ExpertEvent>;
