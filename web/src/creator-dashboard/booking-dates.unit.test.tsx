import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aBooking } from "../../test/booking-fixture.ts";
import { browserZone } from "../shared/local-time.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { CreatorDashboardPage } from "./creator-dashboard-page.tsx";

// Issue 27.14: a UK reader took '12/2/26 12:00 PM GMT' for 12 February. Every booking screen writes the day in words,
// in the viewer's own locale, with the zone named.
const viewerReads = (locale: string) => vi.spyOn(navigator, "language", "get").mockReturnValue(locale);
const DECEMBER_2 = "2026-12-02T12:00:00.000Z";

afterEach(() => vi.restoreAllMocks());

describe("dates on a booking screen", () => {
  const booking = aBooking({
    id: "b-1",
    scheduled_time: DECEMBER_2,
    session_id: "s-1",
    session_title: "Deal review",
    session: { title: "Deal review", price: 150, expertFirstName: "Maya" },
  });
  const booked = () => fakeApi({ "GET /bookings/creator/me": { status: 200, body: [booking] } });

  it("shows a UK viewer 'Wednesday, 2 December 2026' with the clock and the zone named, never numerals", async () => {
    viewerReads("en-GB");
    booked();
    renderScreen(<CreatorDashboardPage />, { auth: signedInAs("creator") });
    const card = await screen.findByTestId("creator-booking");
    expect(card).toHaveTextContent(/Wednesday, 2 December 2026, \d\d:\d\d \(/);
    expect(card).toHaveTextContent(browserZone() === "UTC" ? "(UTC)" : `(${browserZone()}, GMT`);
    expect(card.textContent).not.toMatch(/\d+\/\d+\/\d+/);
  });

  it("shows a US viewer the month first, with the same weekday and the zone named", async () => {
    viewerReads("en-US");
    booked();
    renderScreen(<CreatorDashboardPage />, { auth: signedInAs("creator") });
    expect(await screen.findByTestId("creator-booking")).toHaveTextContent(/Wednesday, December 2, 2026, \d{1,2}:\d\d [AP]M \(/);
  });
});
