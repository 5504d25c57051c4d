import type { AdminApplicationReply, AdminExpertReply, ExpertStandingReply, SuspensionReply } from "@booking/contracts";
import { EXPERT_STANDARDS_VERSION } from "@booking/contracts";

// Records of the console's vetting screens (issue 30), as the API sends them, for the screens' tests.

export const ADMIN = "00000000-0000-4000-8000-0000000000a1";
export const OLDEST = "00000000-0000-4000-8000-0000000000f1";
export const MIDDLE = "00000000-0000-4000-8000-0000000000f2";
export const NEWEST = "00000000-0000-4000-8000-0000000000f3";
export const APPROVED = "00000000-0000-4000-8000-0000000000f4";

function application(id: string, first: string, last: string, submittedAt: string, title: string): AdminApplicationReply {
  return {
    id,
    expert_id: id,
    first_name: first,
    last_name: last,
    profile_image: `/api/v1/media/experts/${id}/profile?v=1`,
    status: "submitted",
    revision: 3,
    answers: {
      expertise: "YouTube channel growth",
      title,
      bio: "Ten years growing channels for creators: strategy, thumbnails, retention and sponsorships, from zero to a million subscribers.",
      links: ["https://portfolio.example.com/work", "https://video.example.com/@channel"],
      years_of_experience: 10,
      creators_can_expect: "A plan for the next three months.",
      standards_version: EXPERT_STANDARDS_VERSION,
    },
    reason: null,
    submitted_at: submittedAt,
    may_reapply_from: null,
    standards_version: EXPERT_STANDARDS_VERSION,
    history: [],
  };
}

/** A queue row as GET /admin/applications sends it: no answers (they are on the application's page), no history. */
export const queueRow = (a: AdminApplicationReply): AdminApplicationReply => ({ ...a, answers: null, standards_version: "" });

/** The queue as the fake stores it: not in the order submitted, so only a list sorted oldest first shows them so. */
export const queue: AdminApplicationReply[] = [
  application(MIDDLE, "Mia", "Middle", "2026-03-02T09:00:00.000Z", "Thumbnail designer"),
  application(NEWEST, "Nora", "Newest", "2026-03-03T09:00:00.000Z", "Sponsorship negotiator"),
  application(OLDEST, "Olga", "Oldest", "2026-03-01T09:00:00.000Z", "Channel strategist"),
];

export const approvedApplication: AdminApplicationReply = {
  ...application(APPROVED, "Abe", "Approved", "2026-02-01T09:00:00.000Z", "Editor"),
  status: "approved",
  reason: "Strong portfolio",
};

/** The oldest application, opened: in review, with a note and an earlier request for changes in its history. */
export const openedApplication: AdminApplicationReply = {
  ...queue[2]!,
  status: "in_review",
  history: [
    { at: "2026-02-20T09:00:00.000Z", type: "ApplicationSubmitted", by: OLDEST, reason: null, note: null, checklist: null },
    {
      at: "2026-02-21T09:00:00.000Z",
      type: "ApplicationChangesRequested",
      by: ADMIN,
      reason: "Please add a link to your channel",
      note: null,
      checklist: { identity_plausible: true, links_work: false },
    },
    { at: "2026-03-01T09:00:00.000Z", type: "ApplicationSubmitted", by: OLDEST, reason: null, note: null, checklist: null },
    { at: "2026-03-01T10:00:00.000Z", type: "ApplicationReviewStarted", by: ADMIN, reason: null, note: null, checklist: null },
    {
      at: "2026-03-01T11:00:00.000Z",
      type: "ApplicationNoted",
      by: ADMIN,
      reason: null,
      note: "Channel checked: 1.2M subscribers",
      checklist: null,
    },
  ],
};

export const EXPERT = "00000000-0000-4000-8000-0000000000e5";
const AT = "2026-03-01T10:00:00.000Z";

export const approvedExpert: AdminExpertReply = {
  id: EXPERT,
  expert_id: EXPERT,
  user_id: EXPERT,
  first_name: "Erin",
  last_name: "Expert",
  title: "Channel strategist",
  bio: null,
  slug: "erin-expert",
  tags: [],
  profile_image: null,
  published: true,
  verified: true,
  vetted_by: ADMIN,
  vetting_status: "approved",
  vetting_revision: 5,
  vetting_reason: "Strong portfolio",
  applied_at: null,
  updated_at: AT,
  stream_version: 9,
};

export const openBookings: SuspensionReply["open_bookings"] = [
  { id: "00000000-0000-4000-8000-0000000000b5", scheduled_time: "2026-04-02T15:00:00.000Z", status: "confirmed", creator_id: ADMIN },
  { id: "00000000-0000-4000-8000-0000000000b6", scheduled_time: "2026-04-09T15:00:00.000Z", status: "pending", creator_id: ADMIN },
];

export const standing: ExpertStandingReply = {
  median_answer_minutes: 200,
  acceptance_percent: 80,
  answered_requests: 10,
  cancelled_by_expert: 2,
  average_rating: 4.64,
  review_count: 12,
  expert_no_shows: 1,
  no_show_percent: 5,
};
