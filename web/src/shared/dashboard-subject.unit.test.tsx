import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppRoutes } from "../routes.tsx";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";

// Issue 13.15: an admin who opens a user's dashboard sees that user's data, not their own (empty) one.

afterEach(() => vi.unstubAllGlobals());

const booking = aBooking({
  id: "b-7",
  scheduled_time: new Date(Date.now() + 48 * 3_600_000).toISOString(),
  session_id: "s-1",
  session_title: "Deck review with Cora",
  session: { title: "Deck review with Cora", price: 150, expertFirstName: "Maya" },
  expert_id: "expert-7",
  held_until: new Date().toISOString(),
  prep_response_1: "a",
  prep_response_2: "b",
  prep_response_3: "c",
});

describe("an admin opening a user's dashboard", () => {
  it("sees the creator's bookings, said to be theirs", async () => {
    const calls = fakeApi({ "GET /bookings/creator/creator-7": { status: 200, body: [booking] } });
    renderScreen(<AppRoutes />, { route: "/creator-dashboard/creator-7", path: "/*", auth: signedInAs("admin") });
    expect(await screen.findByText("Deck review with Cora")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Creator's Bookings" })).toBeInTheDocument();
    expect(screen.getByText(/viewing this user's dashboard as an admin/)).toBeInTheDocument();
    expect(calls.map((c) => c.path)).not.toContain("/bookings/creator/me");
  });

  it("sees the expert's bookings", async () => {
    fakeApi({
      "GET /bookings/expert/expert-7": { status: 200, body: [booking] },
      "GET /experts/expert-7/schedule": { status: 200, body: { timezone: "UTC", slots: [], booked: [] } },
    });
    renderScreen(<AppRoutes />, { route: "/expert-dashboard/expert-7/bookings", path: "/*", auth: signedInAs("admin") });
    expect(await screen.findAllByText(/Cora Creator/)).not.toHaveLength(0);
    expect(screen.getByRole("heading", { name: "Expert's Bookings" })).toBeInTheDocument();
  });

  it("a creator on their own dashboard still reads their own bookings", async () => {
    const calls = fakeApi({ "GET /bookings/creator/me": { status: 200, body: [] } });
    renderScreen(<AppRoutes />, { route: "/creator-dashboard/creator-1", path: "/*", auth: signedInAs("creator") });
    expect(await screen.findByRole("heading", { name: "Your Bookings" })).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toContain("/bookings/creator/me");
  });
});
