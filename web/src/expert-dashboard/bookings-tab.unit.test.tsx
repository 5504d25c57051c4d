import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { localMoment } from "../shared/local-time.ts";
import { BookingsTab } from "./bookings-tab.tsx";

const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
const b = (id: string, scheduled_time: string, more: Partial<Booking> = {}) =>
  aBooking({ id, scheduled_time, session_title: `Session ${id}`, creator_name: "Cora Quinn", ...more });
const ids = (region: HTMLElement) =>
  within(region)
    .getAllByTestId("expert-booking")
    .map((r) => r.getAttribute("data-booking-id"));

describe("expert bookings tab", () => {
  it("puts paid requests needing a decision on top, then upcoming soonest first, then past most recent first", async () => {
    fakeApi({
      "GET /experts/expert-1/schedule": { status: 200, body: { timezone: "Europe/London", slots: [], booked: [] } },
      // As the API sends them: newest date first.
      "GET /bookings/expert/me": {
        status: 200,
        body: [
          b("next-month", hours(24 * 30)),
          b("request", hours(24 * 10), { status: "pending" }),
          b("tomorrow", hours(24)),
          b("in-one-hour", hours(1)),
          b("yesterday", hours(-24), { status: "completed" }),
          b("last-week", hours(-24 * 7), { status: "completed" }),
        ],
      },
    });
    renderScreen(<BookingsTab />, { auth: signedInAs("expert") });
    const needsAction = await screen.findByRole("region", { name: "Needs your action" });
    expect(ids(needsAction)).toEqual(["request"]);
    expect(ids(screen.getByRole("region", { name: "Upcoming" }))).toEqual(["in-one-hour", "tomorrow", "next-month"]);
    expect(ids(screen.getByRole("region", { name: "Past and cancelled" }))).toEqual(["yesterday", "last-week"]);
    expect(screen.getAllByTestId("expert-booking")[0]).toHaveAttribute("data-booking-id", "request");
  });

  it(
    "lists a request to move a confirmed booking to act on, with the asked time and a link to answer it; other " +
      "confirmed ones link to Manage Booking",
    async () => {
      const asked = hours(24 * 6);
      fakeApi({
        "GET /experts/expert-1/schedule": { status: 200, body: { timezone: "Europe/London", slots: [], booked: [] } },
        "GET /bookings/expert/me": {
          status: 200,
          body: [b("moving", hours(24 * 5), { reschedule_to: asked }), b("staying", hours(24 * 4))],
        },
      });
      renderScreen(<BookingsTab />, { auth: signedInAs("expert") });
      expect(await screen.findByText("Cora Quinn asks to move a session.")).toBeInTheDocument();
      const needsAction = screen.getByRole("region", { name: "Needs your action" });
      expect(ids(needsAction)).toEqual(["moving"]);
      expect(within(needsAction).getByText(`Asks to move to ${localMoment(asked, "Europe/London")}`)).toBeInTheDocument();
      expect(within(needsAction).getByRole("link", { name: "Review Move Request: Session moving with Cora Quinn" })).toHaveAttribute(
        "href",
        "/manage-booking/moving",
      );
      const upcoming = screen.getByRole("region", { name: "Upcoming" });
      expect(within(upcoming).getByRole("link", { name: "Manage Booking: Session staying with Cora Quinn" })).toHaveAttribute(
        "href",
        "/manage-booking/staying",
      );
      expect(within(upcoming).getByRole("button", { name: "Add to calendar: Session staying" })).toBeInTheDocument();
    },
  );

  // Issue 27.16: three waiting requests were announced as "a new session request".
  it("counts the requests waiting when there are several", async () => {
    fakeApi({
      "GET /experts/expert-1/schedule": { status: 200, body: { timezone: "Europe/London", slots: [], booked: [] } },
      "GET /bookings/expert/me": {
        status: 200,
        body: [
          b("r1", hours(24 * 3), { status: "pending" }),
          b("r2", hours(24 * 4), { status: "pending" }),
          b("r3", hours(24 * 5), { status: "pending" }),
          b("m1", hours(24 * 6), { reschedule_to: hours(24 * 7) }),
        ],
      },
    });
    renderScreen(<BookingsTab />, { auth: signedInAs("expert") });
    expect(await screen.findByText("You have 3 new session requests and 1 request to move a session.")).toBeInTheDocument();
  });
});
