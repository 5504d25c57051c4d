import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EXPERT_STANDARDS_VERSION, type ApplicationReply, type ExpertStandingReply } from "@booking/contracts";
import { AppRoutes } from "../routes.tsx";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { durationText } from "./standing.ts";

// Issue 30: an approved expert sees on their Application tab how they keep the standards.

const approved: ApplicationReply = {
  status: "approved",
  revision: 3,
  answers: null,
  reason: "Welcome aboard.",
  submitted_at: "2026-11-02T12:00:00Z",
  may_reapply_from: null,
  standards_version: EXPERT_STANDARDS_VERSION,
};
const measured: ExpertStandingReply = {
  median_answer_minutes: 180,
  acceptance_percent: 80,
  answered_requests: 10,
  cancelled_by_expert: 1,
  average_rating: 4.625,
  review_count: 12,
  expert_no_shows: 0,
  no_show_percent: 0,
};
const nothing: ExpertStandingReply = {
  median_answer_minutes: null,
  acceptance_percent: null,
  answered_requests: 0,
  cancelled_by_expert: 0,
  average_rating: null,
  review_count: 0,
  expert_no_shows: 0,
  no_show_percent: null,
};

async function openApplicationTab(standing: ExpertStandingReply, application = approved) {
  fakeApi({
    "GET /experts/me/application": { status: 200, body: application },
    "GET /experts/me/standing": { status: 200, body: standing },
  });
  renderScreen(<AppRoutes />, { route: "/expert-dashboard/expert-1/application", path: "/*", auth: signedInAs("expert") });
  await screen.findByRole("heading", { level: 1, name: "Your Application" }, { timeout: 10_000 });
}

describe("the expert's standing", () => {
  it("is a tab of the expert dashboard, and says how the approved expert answers, accepts, cancels and is rated", async () => {
    await openApplicationTab(measured);
    expect(screen.getByRole("tab", { name: "Application" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByText("Approved — creators can book you.")).toBeInTheDocument();
    const standing = await screen.findByRole("region", { name: "Your standing" });
    expect(await within(standing).findAllByRole("listitem")).toHaveLength(4);
    expect(
      within(standing)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "You answer requests in 3 hours on average.",
      "You accepted 80% of the 10 requests you answered.",
      "You cancelled 1 session.",
      "Creators rate you 4.6 out of 5 from 12 reviews.",
    ]);
  });

  it("reminds a slow answerer of the 24 hours, and says what is not measured yet", async () => {
    await openApplicationTab({ ...nothing, median_answer_minutes: 3 * 24 * 60, acceptance_percent: 100, answered_requests: 1 });
    const standing = await screen.findByRole("region", { name: "Your standing" });
    expect(
      await within(standing).findByText("You answer requests in 3 days on average. Our standard is to answer within 24 hours."),
    ).toBeInTheDocument();
    expect(within(standing).getByText("You accepted 100% of the 1 request you answered.")).toBeInTheDocument();
    expect(within(standing).getByText("You have not cancelled any sessions.")).toBeInTheDocument();
    expect(within(standing).getByText("No reviews yet.")).toBeInTheDocument();
  });

  it("says so when nothing is measured yet", async () => {
    await openApplicationTab(nothing);
    const standing = await screen.findByRole("region", { name: "Your standing" });
    expect(await within(standing).findByText("Nothing measured yet: your standing shows here once creators book you.")).toBeInTheDocument();
    expect(within(standing).queryByRole("listitem")).not.toBeInTheDocument();
  });

  it("is not shown before the expert is approved", async () => {
    await openApplicationTab(measured, { ...approved, status: "in_review" });
    expect(await screen.findByText("In review — we answer within 2 working days.")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Your standing" })).not.toBeInTheDocument();
  });

  it("durations read in the unit people think in", () => {
    expect([1, 45, 59, 60, 90, 47 * 60, 48 * 60, 10 * 24 * 60].map(durationText)).toEqual([
      "1 minute",
      "45 minutes",
      "59 minutes",
      "1 hour",
      "2 hours",
      "47 hours",
      "2 days",
      "10 days",
    ]);
  });
});
