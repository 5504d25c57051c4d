import { describe, expect, it } from "vitest";
import { ExpertRecord } from "@booking/contracts";
import { expertsProjection } from "../src/index.ts";
import { givenAt, readModelSpec, type GivenEvent } from "./read-model-spec.ts";

// The experts read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(expertsProjection);
const profile = { firstName: "Ines", lastName: "Okafor", title: "Pricing coach", bio: null, tags: ["pricing"], profileImage: null };
const saved = (published: boolean, title = profile.title): GivenEvent => ({
  stream: "expert-e1",
  event: {
    type: "ExpertProfileSaved",
    data: { expertId: "e1", userId: "u-expert", slug: "ines-okafor", published, profile: { ...profile, title } },
  },
});
const verified: GivenEvent = { stream: "expert-e1", event: { type: "ExpertVerified", data: { expertId: "e1", by: "u-admin" } } };
const unverified: GivenEvent = { stream: "expert-e1", event: { type: "ExpertUnverified", data: { expertId: "e1", by: "u-admin-2" } } };

describe("experts read model: given events, then rows", () => {
  it("a saved profile is a row of the contracts' shape, not yet vetted", () => {
    const given = spec.given(saved(false));
    given.then([
      {
        expert_id: "e1",
        user_id: "u-expert",
        slug: "ines-okafor",
        first_name: "Ines",
        last_name: "Okafor",
        title: "Pricing coach",
        bio: null,
        tags: ["pricing"],
        published: false,
        verified: false,
        vetted_by: null,
        vetting_status: "draft",
        vetting_revision: 0,
        vetting_reason: null,
        applied_at: null,
        updated_at: givenAt(0),
        stream_version: 1,
      },
    ]);
    expect(ExpertRecord.safeParse(given.rows()[0]).success).toBe(true);
  });

  it("vetting records the decision and who made it", () => {
    spec.given(saved(true), verified).then([{ verified: true, vetted_by: "u-admin", updated_at: givenAt(1), stream_version: 2 }]);
    spec.given(saved(true), verified, unverified).then([{ verified: false, vetted_by: "u-admin-2", stream_version: 3 }]);
  });

  it("saving the profile again takes the new details and keeps the vetting decision", () => {
    spec
      .given(saved(false), verified, saved(true, "Revenue coach"))
      .then([{ title: "Revenue coach", published: true, verified: true, vetted_by: "u-admin", updated_at: givenAt(2), stream_version: 3 }]);
  });

  it("vetting an expert without a profile changes nothing: no row", () => {
    spec.given(verified).then([]);
    spec.given(verified, unverified).then([]);
  });

  it("an application's steps set its status, revision, reason and time; approved is the check mark, suspended takes it away", () => {
    const answers = {
      expertise: "Pricing",
      title: "Coach",
      bio: "b".repeat(80),
      links: ["https://example.com"],
      yearsOfExperience: 4,
      creatorsCanExpect: "A plan",
    };
    const step = (type: string, data: Record<string, unknown> = {}): GivenEvent => ({
      stream: "expert-e1",
      event: { type, data: { expertId: "e1", by: "u-admin", at: "2026-11-28T10:00:00.000Z", ...data } } as GivenEvent["event"],
    });
    const submitted = step("ApplicationSubmitted", { by: "u-expert", answers: { ...answers, standardsVersion: "standards-2026-11" } });
    spec
      .given(saved(true), submitted)
      .then([{ vetting_status: "submitted", vetting_revision: 1, applied_at: givenAt(1), verified: false, vetted_by: null }]);
    const changes = step("ApplicationChangesRequested", { reason: "Add a link", checklist: {} });
    spec
      .given(saved(true), submitted, changes)
      .then([{ vetting_status: "changes_requested", vetting_reason: "Add a link", verified: false }]);
    const approved = step("ApplicationApproved", { reason: "Strong work", checklist: { links_work: true } });
    spec
      .given(saved(true), submitted, approved)
      .then([{ vetting_status: "approved", vetting_revision: 2, verified: true, vetted_by: "u-admin" }]);
    const suspended = step("ExpertSuspended", { reason: "No-shows" });
    spec
      .given(saved(true), submitted, approved, suspended)
      .then([{ vetting_status: "suspended", vetting_reason: "No-shows", verified: false }]);
    spec
      .given(saved(true), submitted, approved, suspended, step("ExpertReinstated", { reason: "Resolved" }))
      .then([{ vetting_status: "approved", verified: true }]);
  });
});
