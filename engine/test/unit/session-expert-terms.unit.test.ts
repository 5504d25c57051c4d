import { describe, expect, it } from "vitest";
import type { Actor, SessionDefinition } from "@booking/contracts";
import { sessionDecider } from "../../src/session/session.ts";
import { expertDecider, expertSlug } from "../../src/expert/expert.ts";
import { termsDecider, hasAcceptedTerms } from "../../src/terms/terms.ts";
import { deciderSpec } from "./decider-spec.ts";

const NOW = "2026-03-02T08:00:00.000Z";
const EXPERT: Actor = { userId: "ux1", role: "expert" };
const OTHER_EXPERT: Actor = { userId: "ux2", role: "expert" };
const CREATOR: Actor = { userId: "c1", role: "creator" };
const ADMIN: Actor = { userId: "a1", role: "admin" };

const definition: SessionDefinition = {
  title: "Brand deals 101",
  description: "How to land your first deal",
  priceCents: 12_000,
  lengthMinutes: 60,
  prepQuestions: ["What is your audience?"],
  sessionDetails: "",
  idealFor: ["podcasters"],
};

describe("session decider", () => {
  const spec = deciderSpec(sessionDecider, NOW);
  const created = { type: "SessionCreated" as const, data: { sessionId: "s1", expertId: "ex1", status: "draft" as const, definition } };
  const base = { sessionId: "s1", expertId: "ex1", actor: EXPERT };

  it("a new session defaults to draft", () => {
    spec([])
      .when({ type: "CreateSession", ...base, definition, status: "draft" })
      .then([created]);
  });
  it("refuses creating the same session twice", () => {
    spec([created])
      .when({ type: "CreateSession", ...base, definition, status: "draft" })
      .thenRefused("session_already_exists");
  });
  it("updates its definition", () => {
    const next = { ...definition, title: "Brand deals 201" };
    spec([created])
      .when({ type: "UpdateSession", ...base, definition: next })
      .then([{ type: "SessionUpdated", data: { sessionId: "s1", definition: next } }]);
  });
  it("publishes and unpublishes, each only when it changes something", () => {
    spec([created])
      .when({ type: "PublishSession", ...base })
      .then([{ type: "SessionPublished", data: { sessionId: "s1" } }]);
    spec([created, { type: "SessionPublished", data: { sessionId: "s1" } }])
      .when({ type: "PublishSession", ...base })
      .then([]);
    spec([created, { type: "SessionPublished", data: { sessionId: "s1" } }])
      .when({ type: "UnpublishSession", ...base })
      .then([{ type: "SessionUnpublished", data: { sessionId: "s1" } }]);
    spec([created])
      .when({ type: "UnpublishSession", ...base })
      .then([]);
  });
  it("refuses publishing or deleting an unsaved session with the spec's messages", () => {
    spec([])
      .when({ type: "PublishSession", ...base })
      .thenRefused("session_not_saved_publish", "Save the session first before publishing");
    spec([])
      .when({ type: "DeleteSession", ...base })
      .thenRefused("session_not_saved_delete", "Save the session first before deleting");
    spec([])
      .when({ type: "UpdateSession", ...base, definition })
      .thenRefused("session_not_found", "Session Not Found");
  });
  it("deletes, after which the session is gone", () => {
    spec([created])
      .when({ type: "DeleteSession", ...base })
      .then([{ type: "SessionDeleted", data: { sessionId: "s1" } }]);
    spec([created, { type: "SessionDeleted", data: { sessionId: "s1" } }])
      .when({ type: "PublishSession", ...base })
      .thenRefused("session_not_found");
  });
  it("only the owning expert (or an admin) changes a session", () => {
    spec([created])
      .when({ type: "UpdateSession", ...base, expertId: "ex2", actor: OTHER_EXPERT, definition })
      .thenRefused("not_session_owner");
    spec([created])
      .when({ type: "DeleteSession", ...base, actor: CREATOR })
      .thenRefused("not_session_owner");
    expect(spec([created]).when({ type: "DeleteSession", ...base, expertId: "other", actor: ADMIN }).result.ok).toBe(true);
  });
});

describe("expert profile decider", () => {
  const spec = deciderSpec(expertDecider, NOW);
  const profile = { firstName: "Ada", lastName: "Lovelace", title: "Growth strategist", bio: null, tags: ["growth"], profileImage: null };
  const saved = {
    type: "ExpertProfileSaved" as const,
    data: { expertId: "ex1", userId: "ux1", slug: "ada-lovelace-ex1", profile, published: false },
  };

  it("Save Profile saves unpublished, Publish Profile saves published, the slug is made once", () => {
    spec([]).when({ type: "SaveExpertProfile", expertId: "ex1", actor: EXPERT, userId: "ux1", profile, published: false }).then([saved]);
    const renamed = { ...profile, firstName: "Augusta" };
    spec([saved])
      .when({ type: "SaveExpertProfile", expertId: "ex1", actor: EXPERT, userId: "ux1", profile: renamed, published: true })
      .then([{ type: "ExpertProfileSaved", data: { ...saved.data, profile: renamed, published: true } }]);
  });
  it("saving without a publish decision keeps the profile as it was: published stays published, a new one starts unpublished", () => {
    const publishedProfile = { ...saved, data: { ...saved.data, published: true } };
    spec([publishedProfile])
      .when({ type: "SaveExpertProfile", expertId: "ex1", actor: EXPERT, userId: "ux1", profile })
      .then([publishedProfile]);
    spec([]).when({ type: "SaveExpertProfile", expertId: "ex1", actor: EXPERT, userId: "ux1", profile }).then([saved]);
    spec([publishedProfile])
      .when({ type: "SaveExpertProfile", expertId: "ex1", actor: EXPERT, userId: "ux1", profile, published: false })
      .then([saved]);
  });
  it("an expert edits only their own profile", () => {
    spec([saved])
      .when({ type: "SaveExpertProfile", expertId: "ex1", actor: OTHER_EXPERT, userId: "ux2", profile, published: false })
      .thenRefused("forbidden");
    spec([])
      .when({ type: "SaveExpertProfile", expertId: "ex1", actor: OTHER_EXPERT, userId: "ux1", profile, published: false })
      .thenRefused("forbidden");
  });
  it("an admin never gets an expert profile of their own: admins act on experts' profiles, they are not experts", () => {
    spec([])
      .when({ type: "SaveExpertProfile", expertId: "a1", actor: ADMIN, userId: "a1", profile, published: true })
      .thenRefused("admin_not_expert");
    spec([saved])
      .when({ type: "SaveExpertProfile", expertId: "ex1", actor: ADMIN, userId: "ux1", profile, published: true })
      .thenRefused("admin_not_expert");
  });
  it("a profile shows only the image its expert uploaded to this API", () => {
    const withImage = (profileImage: string) => ({
      type: "SaveExpertProfile" as const,
      expertId: "ux1",
      actor: EXPERT,
      userId: "ux1",
      profile: { ...profile, profileImage },
      published: false,
    });
    for (const own of ["/api/v1/media/experts/ux1/profile", "/api/v1/media/experts/ux1/profile?v=1767225600000"])
      expect(spec([]).when(withImage(own)).result.ok, own).toBe(true);
    for (const foreign of [
      "https://tracker.example/pixel.gif",
      "javascript:alert(1)",
      "data:image/png;base64,iVBORw0KGgo=",
      "//evil.example/api/v1/media/experts/ux1/profile",
      "/api/v1/media/experts/ux2/profile", // another expert's image
      "/api/v1/media/experts/ux1/profile?v=1&x=https://evil.example",
      "/api/v1/media/experts/ux1/profile/../../../../x",
    ])
      spec([])
        .when(withImage(foreign))
        .thenRefused("profile_image_invalid", "Please upload your profile image here; images from other sites cannot be used.");
  });
  it("only an admin verifies, recorded with the admin's id; repeating changes nothing", () => {
    spec([saved])
      .when({ type: "VerifyExpert", expertId: "ex1", actor: ADMIN })
      .then([{ type: "ExpertVerified", data: { expertId: "ex1", by: "a1" } }]);
    spec([saved]).when({ type: "VerifyExpert", expertId: "ex1", actor: EXPERT }).thenRefused("forbidden");
    spec([saved, { type: "ExpertVerified", data: { expertId: "ex1", by: "a1" } }])
      .when({ type: "VerifyExpert", expertId: "ex1", actor: ADMIN })
      .then([]);
    spec([saved, { type: "ExpertVerified", data: { expertId: "ex1", by: "a1" } }])
      .when({ type: "UnverifyExpert", expertId: "ex1", actor: ADMIN })
      .then([{ type: "ExpertUnverified", data: { expertId: "ex1", by: "a1" } }]);
    spec([]).when({ type: "VerifyExpert", expertId: "ex1", actor: ADMIN }).thenRefused("profile_not_found");
  });
  it("slugs are readable, ASCII and unique per expert", () => {
    expect(expertSlug("Zoë", "Saldaña", "3f2a9c1e-0000")).toBe("zoe-saldana-3f2a9c1e");
    expect(expertSlug("Ada", "Lovelace", "ex1")).not.toBe(expertSlug("Ada", "Lovelace", "ex2"));
  });
});

describe("terms decider", () => {
  const spec = deciderSpec(termsDecider, NOW);
  const accept = (versionId: string, actor: Actor = CREATOR) => ({
    type: "AcceptTerms" as const,
    userId: "c1",
    actor,
    versionId,
    currentVersionId: "2025-01",
  });

  it("records the acceptance of the current version with its time", () => {
    spec([])
      .when(accept("2025-01"))
      .then([{ type: "TermsAccepted", data: { userId: "c1", versionId: "2025-01", acceptedAt: NOW } }]);
  });
  it("refuses an old or unknown version", () => {
    spec([]).when(accept("2024-06")).thenRefused("terms_version_unknown", "Could not save acceptance, please try again.");
  });
  it("accepting again records nothing new", () => {
    spec([{ type: "TermsAccepted", data: { userId: "c1", versionId: "2025-01", acceptedAt: NOW } }])
      .when(accept("2025-01"))
      .then([]);
  });
  it("nobody accepts for someone else", () => {
    spec([])
      .when(accept("2025-01", { userId: "c2", role: "creator" }))
      .thenRefused("forbidden");
  });
  it("a new terms version needs a new acceptance", () => {
    const s = termsDecider.evolve(termsDecider.initialState(), [
      { type: "TermsAccepted", data: { userId: "c1", versionId: "2025-01", acceptedAt: NOW } },
    ]);
    expect(hasAcceptedTerms(s, "2025-01")).toBe(true);
    expect(hasAcceptedTerms(s, "2026-01")).toBe(false);
  });
});
