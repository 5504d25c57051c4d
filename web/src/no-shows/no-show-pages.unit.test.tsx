import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { NoShowReply } from "@booking/contracts";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import type { Booking } from "../shared/api-types.ts";
import { CreatorDashboardPage } from "../creator-dashboard/creator-dashboard-page.tsx";
import { ManageBookingSteps } from "../manage-booking/manage-booking-page.tsx";
import { SessionDetailsPage } from "../session-notes/session-details-page.tsx";

// The no-show report on both parties' views of a booking: the creator's dashboard and session
// details, the expert's Manage Booking; once reported, cancelling is no longer offered.

const HOUR = 3_600_000;
const creator = signedInAs("creator");
const expert = signedInAs("expert");

/** Cora's paid 60-minute session with Maya that started 90 minutes ago. */
const started = (overrides: Partial<Booking> = {}) =>
  aBooking({
    scheduled_time: new Date(Date.now() - 1.5 * HOUR).toISOString(),
    creator_id: "creator-1",
    expert_id: "expert-1",
    ...overrides,
  });

const openReport: NoShowReply = {
  absent: "expert",
  note: "Nobody came.",
  reported_at: new Date(Date.now() - HOUR).toISOString(),
  contest_by: new Date(Date.now() + 47 * HOUR).toISOString(),
  contested: false,
  contest_note: null,
  contested_at: null,
  outcome: null,
  refund_cents: null,
  reason: null,
  decided_by: null,
  settled_at: null,
};

const decided: NoShowReply = {
  ...openReport,
  contested: true,
  contest_note: "I was there.",
  contested_at: new Date(Date.now() - 0.5 * HOUR).toISOString(),
  outcome: "expert_no_show",
  refund_cents: 7_500,
  reason: "Joined 25 minutes late.",
  decided_by: "admin-1",
  settled_at: new Date(Date.now() - 0.1 * HOUR).toISOString(),
};

async function creatorCard(b: Booking) {
  fakeApi({ "GET /bookings/creator/me": { status: 200, body: [b] } });
  renderScreen(<CreatorDashboardPage />, { auth: creator });
  return screen.findByTestId("creator-booking");
}

describe("the creator's dashboard", () => {
  it("a started session offers Report a no-show beside Cancel", async () => {
    const card = await creatorCard(started());
    expect(within(card).getByRole("button", { name: "Report a no-show: Deck review" })).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Cancel Session: Deck review" })).toBeInTheDocument();
  });

  it("once reported, the card shows the report and offers neither another report nor Cancel", async () => {
    const card = await creatorCard(started({ no_show: openReport }));
    expect(within(card).getByRole("region", { name: "No-show report" })).toHaveTextContent("You reported that Maya Lind did not join.");
    expect(within(card).queryByRole("button", { name: /^Report a no-show/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: /^Cancel Session/ })).not.toBeInTheDocument();
  });

  it("a booking settled as the expert's no-show says so, with the refund, and links its details", async () => {
    const card = await creatorCard(started({ status: "expert_no_show", no_show: decided, refund_due_cents: 7_500 }));
    expect(within(card).getByTestId("booking-status")).toHaveTextContent("Expert didn't show");
    expect(within(card).getByTestId("no-show-refund")).toHaveTextContent("Refund: $75 of the $150 paid.");
    expect(within(card).queryByRole("button", { name: /^Cancel Session/ })).not.toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Session Details" })).toBeInTheDocument();
  });
});

describe("the creator's session details", () => {
  it("show the report's outcome and the admin's reason", async () => {
    fakeApi({ "GET /bookings/b1": { status: 200, body: started({ status: "expert_no_show", no_show: decided }) } });
    renderScreen(<SessionDetailsPage />, { auth: creator, route: "/session-details/b1", path: "/session-details/:bookingId" });
    const outcome = await screen.findByTestId("no-show-outcome");
    expect(outcome).toHaveTextContent("Maya Lind did not show: the report was upheld.");
    expect(within(outcome).getByTestId("no-show-reason")).toHaveTextContent("Our team's reason: Joined 25 minutes late.");
  });
});

describe("the expert's Manage Booking", () => {
  it("shows the report against them with Contest, and no longer offers Cancel", () => {
    renderScreen(<ManageBookingSteps booking={started({ no_show: openReport })} schedule={null} />, { auth: expert });
    const panel = screen.getByRole("region", { name: "No-show report" });
    expect(panel).toHaveTextContent("Cora Creator reported that you did not join.");
    expect(within(panel).getByRole("button", { name: "Contest" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Cancel Session/ })).not.toBeInTheDocument();
  });

  it("a started session without a report offers Report a no-show", () => {
    renderScreen(<ManageBookingSteps booking={started()} schedule={null} />, { auth: expert });
    expect(screen.getByRole("button", { name: "Report a no-show: Deck review" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancel Session: Deck review" })).toBeInTheDocument();
  });
});
