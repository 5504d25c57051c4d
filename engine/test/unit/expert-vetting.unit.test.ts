import { describe, expect, it } from "vitest";
import {
  APPLICATION_STATUSES,
  EXPERT_STANDARDS_VERSION,
  ExpertCommand,
  parseInput,
  type Actor,
  type ApplicationAnswers,
  type ApplicationStatus,
  type ExpertCommand as Command,
  type ExpertEvent,
} from "@booking/contracts";
import { expertDecider } from "../../src/expert/expert.ts";
import { bookingRefusalForVetting, isBookable } from "../../src/expert/vetting.ts";
import { deciderSpec } from "./decider-spec.ts";

// The application's states and every transition, allowed and refused (issue 30).

const NOW = "2026-11-28T10:00:00.000Z";
const EXPERT: Actor = { userId: "ux1", role: "expert" };
const ADMIN: Actor = { userId: "admin-1", role: "admin" };
const spec = deciderSpec(expertDecider, NOW);

const answers: ApplicationAnswers = {
  expertise: "Podcast growth",
  title: "Audio producer",
  bio: "Ten years producing interview podcasts for independent creators, from first episode to a weekly show.",
  links: ["https://example.com/portfolio"],
  yearsOfExperience: 10,
  creatorsCanExpect: "A plan for your next ten episodes.",
  standardsVersion: EXPERT_STANDARDS_VERSION,
};
const profile = { firstName: "Ada", lastName: "Vale", title: "Producer", bio: null, tags: [], profileImage: null };
const by = (who: Actor) => ({ expertId: "ex1", by: who.userId, at: NOW });

const saved: ExpertEvent = {
  type: "ExpertProfileSaved",
  data: { expertId: "ex1", userId: "ux1", slug: "ada-vale-ex1", profile, published: true },
};
const submitted = { type: "ApplicationSubmitted" as const, data: { ...by(EXPERT), answers } };
const reviewing: ExpertEvent = { type: "ApplicationReviewStarted", data: by(ADMIN) };
const decided = { ...by(ADMIN), reason: "Strong portfolio", checklist: { identity_plausible: true } };
const approved: ExpertEvent = { type: "ApplicationApproved", data: decided };
const changes: ExpertEvent = { type: "ApplicationChangesRequested", data: { ...decided, reason: "Add a link to your show" } };
const rejected: ExpertEvent = {
  type: "ApplicationRejected",
  data: { ...decided, reason: "No work shown", mayReapplyFrom: "2026-12-28T10:00:00.000Z" },
};
const suspended: ExpertEvent = { type: "ExpertSuspended", data: { ...by(ADMIN), reason: "Three no-shows" } };

/** The history that leaves the application in each state. */
const historyOf: Record<ApplicationStatus, ExpertEvent[]> = {
  draft: [saved],
  submitted: [saved, submitted],
  in_review: [saved, submitted, reviewing],
  changes_requested: [saved, submitted, reviewing, changes],
  approved: [saved, submitted, reviewing, approved],
  rejected: [saved, submitted, rejected],
  suspended: [saved, submitted, approved, suspended],
};
const stateOf = (given: ExpertEvent[]) => expertDecider.evolve(expertDecider.initialState(), given);
const vettingOf = (given: ExpertEvent[]) => {
  const s = stateOf(given);
  if (s.kind !== "profiled") throw new Error("no profile");
  return s.vetting;
};

const submit: Command = { type: "SubmitApplication", expertId: "ex1", actor: EXPERT, answers };
const decide = (decision: "approve" | "request_changes" | "reject", seenRevision: number): Command => ({
  type: "DecideApplication",
  expertId: "ex1",
  actor: ADMIN,
  seenRevision,
  decision,
  reason: decision === "approve" ? "Strong portfolio" : "Add a link to your show",
  checklist: { identity_plausible: true },
});

describe("an expert's application", () => {
  it("each history leaves the application in the state the expert and the console show", () => {
    for (const status of APPLICATION_STATUSES) expect(vettingOf(historyOf[status]).status).toBe(status);
  });

  it("an expert applies from draft, after changes were requested, and after a rejection's waiting period", () => {
    spec(historyOf.draft).when(submit).then([submitted]);
    spec(historyOf.changes_requested).when(submit).then([submitted]);
    spec(historyOf.rejected)
      .when(submit, "2026-12-28T10:00:00.000Z")
      .then([{ ...submitted, data: { ...submitted.data, at: "2026-12-28T10:00:00.000Z" } }]);
  });

  it("applying twice, applying when approved or suspended, before the waiting period, or with no profile is refused", () => {
    spec(historyOf.submitted).when(submit).thenRefused("application_already_submitted");
    spec(historyOf.in_review).when(submit).thenRefused("application_already_submitted");
    spec(historyOf.approved).when(submit).thenRefused("application_already_approved");
    spec(historyOf.suspended).when(submit).thenRefused("application_already_approved");
    spec(historyOf.rejected).when(submit).thenRefused("application_reapply_wait", "You can apply again from 2026-12-28.");
    spec([]).when(submit).thenRefused("application_profile_needed");
  });

  it("only the expert applies for themself; only an admin reviews, decides, suspends or reinstates", () => {
    spec(historyOf.draft)
      .when({ ...submit, actor: { userId: "ux2", role: "expert" } })
      .thenRefused("forbidden");
    spec(historyOf.draft)
      .when({ ...submit, actor: ADMIN })
      .thenRefused("forbidden");
    spec(historyOf.submitted)
      .when({ ...decide("approve", 2), actor: EXPERT })
      .thenRefused("forbidden");
    spec(historyOf.approved).when({ type: "SuspendExpert", expertId: "ex1", actor: EXPERT, reason: "x" }).thenRefused("forbidden");
  });

  it("an admin reviews, notes and decides a submitted application: approve, request changes or reject", () => {
    const revision = vettingOf(historyOf.submitted).revision;
    spec(historyOf.submitted)
      .when({ type: "StartApplicationReview", expertId: "ex1", actor: ADMIN, seenRevision: revision })
      .then([reviewing]);
    spec(historyOf.submitted)
      .when({ type: "NoteApplication", expertId: "ex1", actor: ADMIN, seenRevision: revision, note: "Links load" })
      .then([{ type: "ApplicationNoted", data: { ...by(ADMIN), note: "Links load" } }]);
    spec(historyOf.submitted).when(decide("approve", revision)).then([approved]);
    const inReview = vettingOf(historyOf.in_review).revision;
    spec(historyOf.in_review).when(decide("request_changes", inReview)).then([changes]);
    spec(historyOf.in_review)
      .when(decide("reject", inReview))
      .then([
        {
          type: "ApplicationRejected",
          data: { ...decided, reason: "Add a link to your show", mayReapplyFrom: "2026-12-28T10:00:00.000Z" },
        },
      ]);
  });

  it("a decision on an application that changed since the admin opened it is refused: reload", () => {
    const opened = vettingOf(historyOf.changes_requested).revision;
    const resubmitted = [...historyOf.changes_requested, submitted];
    spec(resubmitted)
      .when(decide("approve", opened))
      .thenRefused("application_changed", "This application changed since you opened it. Please reload.");
    spec(resubmitted)
      .when(decide("approve", vettingOf(resubmitted).revision))
      .then([approved]);
  });

  it("nothing is decided on an application that is not waiting for a decision", () => {
    for (const status of ["draft", "changes_requested", "approved", "rejected", "suspended"] as const) {
      spec(historyOf[status])
        .when(decide("approve", vettingOf(historyOf[status]).revision))
        .thenRefused("application_not_submitted");
    }
  });
});

describe("bookable, suspension and reinstatement", () => {
  it("only an approved expert is bookable; a suspended one is refused with its own message", () => {
    for (const status of APPLICATION_STATUSES) expect(isBookable(vettingOf(historyOf[status]))).toBe(status === "approved");
    expect(bookingRefusalForVetting(vettingOf(historyOf.draft).status)).toBe("expert_not_approved");
    expect(bookingRefusalForVetting(vettingOf(historyOf.suspended).status)).toBe("expert_suspended");
  });

  it("an admin suspends an approved expert with a reason, and reinstating makes them bookable again", () => {
    spec(historyOf.approved).when({ type: "SuspendExpert", expertId: "ex1", actor: ADMIN, reason: "Three no-shows" }).then([suspended]);
    spec(historyOf.suspended)
      .when({ type: "SuspendExpert", expertId: "ex1", actor: ADMIN, reason: "again" })
      .thenRefused("expert_suspended");
    spec(historyOf.draft).when({ type: "SuspendExpert", expertId: "ex1", actor: ADMIN, reason: "x" }).thenRefused("expert_not_approved");
    const reinstated: ExpertEvent = { type: "ExpertReinstated", data: { ...by(ADMIN), reason: "Resolved" } };
    spec(historyOf.suspended).when({ type: "ReinstateExpert", expertId: "ex1", actor: ADMIN, reason: "Resolved" }).then([reinstated]);
    expect(isBookable(vettingOf([...historyOf.suspended, reinstated]))).toBe(true);
    spec(historyOf.approved)
      .when({ type: "ReinstateExpert", expertId: "ex1", actor: ADMIN, reason: "x" })
      .thenRefused("expert_not_suspended");
  });

  it("an expert verified before applications existed counts as approved, and unverifying withdraws it", () => {
    const verified: ExpertEvent = { type: "ExpertVerified", data: { expertId: "ex1", by: "admin-1" } };
    expect(isBookable(vettingOf([saved, verified]))).toBe(true);
    expect(isBookable(vettingOf([saved, verified, { type: "ExpertUnverified", data: { expertId: "ex1", by: "admin-1" } }]))).toBe(false);
  });
});

describe("an application as sent: bad input gets the catalogue's message", () => {
  const parsed = (changes: Record<string, unknown>) => parseInput(ExpertCommand, { ...submit, answers: { ...answers, ...changes } });
  const codeOf = (changes: Record<string, unknown>) => {
    const r = parsed(changes);
    return r.ok ? "accepted" : r.refusal.code;
  };

  it("refuses a missing field, a link that is not http(s), a bio of NUL or 50,000 characters, and an old standards version", () => {
    expect(codeOf({})).toBe("accepted");
    expect(codeOf({ expertise: "" })).toBe("application_field_required");
    expect(codeOf({ links: ["javascript:alert(1)"] })).toBe("application_link_invalid");
    expect(codeOf({ links: ["ftp://example.com/x"] })).toBe("application_link_invalid");
    expect(codeOf({ links: [] })).toBe("application_link_invalid");
    expect(codeOf({ bio: "\u0000".repeat(100) })).toBe("text_has_control_characters");
    expect(codeOf({ bio: "a".repeat(50_000) })).toBe("application_bio_invalid");
    expect(codeOf({ yearsOfExperience: 2.5 })).toBe("application_years_invalid");
    expect(codeOf({ standardsVersion: "standards-2020-01" })).toBe("application_standards_not_agreed");
  });
});
