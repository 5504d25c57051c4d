import { isOwnExpertImage, ok, refused, type ExpertCommand, type ExpertEvent, type Result } from "@booking/contracts";
import type { Decider } from "../decider.ts";
import { decideVetting, draftVetting, evolveVetting, type Vetting } from "./vetting.ts";

// Stream `expert-{expertId}`: the public profile, its publish state and its vetting (./vetting.ts).

export type ExpertState = { kind: "none" } | { kind: "profiled"; userId: string; slug: string; published: boolean; vetting: Vetting };

export const initialExpertState = (): ExpertState => ({ kind: "none" });

/** Rule: a profile's slug is made once from the expert's name and id, so shared links never break. */
export function expertSlug(firstName: string, lastName: string, expertId: string): string {
  const name = `${firstName} ${lastName}`
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);
  const suffix = expertId
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 8)
    .toLowerCase();
  return name ? `${name}-${suffix}` : suffix;
}

export function evolveExpert(state: ExpertState, events: readonly ExpertEvent[]): ExpertState {
  let s = state;
  for (const e of events) {
    switch (e.type) {
      case "ExpertProfileSaved":
        s = {
          kind: "profiled",
          userId: e.data.userId,
          slug: e.data.slug,
          published: e.data.published,
          vetting: s.kind === "profiled" ? s.vetting : draftVetting,
        };
        break;
      default:
        if (s.kind === "profiled") s = { ...s, vetting: evolveVetting(s.vetting, e) };
    }
  }
  return s;
}

export function decideExpert(c: ExpertCommand, s: ExpertState, now: string): Result<ExpertEvent[]> {
  const admin = c.actor.role === "admin";
  switch (c.type) {
    case "SaveExpertProfile": {
      // Rule: a profile is an expert's own; admins vet experts' profiles and never have one.
      if (admin) return refused("admin_not_expert");
      if (c.actor.role !== "expert" || c.actor.userId !== c.userId) return refused("forbidden");
      if (s.kind === "profiled" && s.userId !== c.userId) return refused("forbidden");
      if (c.profile.profileImage !== null && !isOwnExpertImage(c.profile.profileImage, c.expertId)) return refused("profile_image_invalid");
      const slug = s.kind === "profiled" ? s.slug : expertSlug(c.profile.firstName, c.profile.lastName, c.expertId);
      // Rule: saving keeps the publish state; only publishing or unpublishing changes it.
      const published = c.published ?? (s.kind === "profiled" && s.published);
      return ok([{ type: "ExpertProfileSaved", data: { expertId: c.expertId, userId: c.userId, slug, profile: c.profile, published } }]);
    }
    case "VerifyExpert":
    case "UnverifyExpert": {
      // Rule: vetting is an admin's decision, recorded with the admin's id.
      if (!admin) return refused("forbidden");
      if (s.kind === "none") return refused("profile_not_found");
      const verify = c.type === "VerifyExpert";
      if ((s.vetting.status === "approved") === verify) return ok([]);
      const reason = c.reason === undefined ? {} : { reason: c.reason };
      return ok([{ type: verify ? "ExpertVerified" : "ExpertUnverified", data: { expertId: c.expertId, by: c.actor.userId, ...reason } }]);
    }
    default:
      if (s.kind === "none") return refused(c.type === "SubmitApplication" ? "application_profile_needed" : "profile_not_found");
      return decideVetting(c, s.vetting, s.userId, now);
  }
}

export const expertDecider: Decider<ExpertCommand, ExpertEvent, ExpertState> = {
  initialState: initialExpertState,
  evolve: evolveExpert,
  decide: (c, s, { now }) => decideExpert(c, s, now),
};

export const expertStream = (expertId: string) => `expert-${expertId}`;
