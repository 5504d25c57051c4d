import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { CreatorDashboardPage } from "../creator-dashboard/creator-dashboard-page.tsx";
import { BookingsTab } from "../expert-dashboard/bookings-tab.tsx";
import { ExpertDashboardPage } from "../expert-dashboard/expert-dashboard-page.tsx";

// Issue 31.3: the dashboards count the messages not read yet, in all and per booking, from GET /me/unread-messages.

const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
const booking = (id: string, more: Partial<Booking> = {}): Booking =>
  aBooking({
    id,
    scheduled_time: hours(48),
    session_title: `Session ${id}`,
    creator_name: "Cora Quinn",
    expert_name: "Maya Lind",
    ...more,
  });
const unread = { total: 3, bookings: [{ booking_id: "chatty", unread: 3 }] };
const schedule = { status: 200, body: { timezone: "Europe/London", slots: [], booked: [] } };
const messagesLink = (region: HTMLElement) => within(region).getByTestId("booking-messages");

describe("unread messages on the dashboards", () => {
  it("the creator's dashboard shows the total beside its title and each booking's count on a link to its thread", async () => {
    fakeApi({
      "GET /bookings/creator/me": { status: 200, body: [booking("chatty"), booking("quiet", { scheduled_time: hours(72) })] },
      "GET /me/unread-messages": { status: 200, body: unread },
    });
    renderScreen(<CreatorDashboardPage />, { auth: signedInAs("creator") });
    const total = await screen.findByTestId("unread-messages");
    expect(await within(total).findByText("3 unread messages")).toBeInTheDocument();
    const [chatty, quiet] = screen.getAllByTestId("creator-booking");
    expect(chatty).toHaveAttribute("data-booking-id", "chatty");
    expect(messagesLink(chatty!)).toHaveTextContent("Messages (3 unread)");
    expect(messagesLink(chatty!)).toHaveAttribute("href", "/session-details/chatty");
    expect(within(chatty!).getByRole("link", { name: "Messages (3 unread): Session chatty with Maya Lind" })).toBeInTheDocument();
    expect(messagesLink(quiet!)).toHaveTextContent(/^Messages$/);
  });

  it("the total says none when everything is read", async () => {
    fakeApi({
      "GET /bookings/creator/me": { status: 200, body: [booking("quiet")] },
      "GET /me/unread-messages": { status: 200, body: { total: 0, bookings: [] } },
    });
    renderScreen(<CreatorDashboardPage />, { auth: signedInAs("creator") });
    const total = await screen.findByTestId("unread-messages");
    expect(await within(total).findByText("No unread messages")).toBeInTheDocument();
    expect(total).toHaveAttribute("data-unread", "0");
  });

  it("the expert's bookings link each booking's thread on Manage Booking with its count", async () => {
    fakeApi({
      "GET /experts/expert-1/schedule": schedule,
      "GET /bookings/expert/me": { status: 200, body: [booking("chatty"), booking("quiet", { scheduled_time: hours(72) })] },
      "GET /me/unread-messages": { status: 200, body: unread },
    });
    renderScreen(<BookingsTab />, { auth: signedInAs("expert") });
    const link = await screen.findByRole("link", { name: "Messages (3 unread): Session chatty with Cora Quinn" });
    expect(link).toHaveAttribute("href", "/manage-booking/chatty");
    expect(screen.getByRole("link", { name: "Messages: Session quiet with Cora Quinn" })).toHaveAttribute("href", "/manage-booking/quiet");
  });

  it("the expert's dashboard shows the total beside its title", async () => {
    fakeApi({
      "GET /experts/expert-1/schedule": schedule,
      "GET /bookings/expert/me": { status: 200, body: [booking("chatty")] },
      "GET /me/unread-messages": { status: 200, body: { total: 1, bookings: [{ booking_id: "chatty", unread: 1 }] } },
    });
    renderScreen(<ExpertDashboardPage />, {
      auth: signedInAs("expert"),
      route: "/expert-dashboard/expert-1/bookings",
      path: "/expert-dashboard/:id/:tab",
    });
    const total = await screen.findByTestId("unread-messages");
    expect(await within(total).findByText("1 unread message")).toBeInTheDocument();
  });

  it("an admin looking at a creator's dashboard is not shown counts of their own", async () => {
    const calls = fakeApi({ "GET /bookings/creator/c9": { status: 200, body: [booking("chatty")] } });
    renderScreen(<CreatorDashboardPage />, {
      auth: signedInAs("admin", { id: "a1" }),
      route: "/creator-dashboard/c9",
      path: "/creator-dashboard/:id",
    });
    await screen.findByTestId("creator-booking");
    expect(screen.queryByTestId("unread-messages")).not.toBeInTheDocument();
    expect(screen.queryByTestId("booking-messages")).not.toBeInTheDocument();
    expect(calls.map((c) => c.path)).not.toContain("/me/unread-messages");
  });
});
