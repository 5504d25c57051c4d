import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
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

// Issue 34.5: the API pages a person's bookings, newest first; older ones are a button away, never dropped.
describe("expert bookings tab, page by page", () => {
  const schedule = { status: 200, body: { timezone: "Europe/London", slots: [], booked: [] } };
  const older = "/bookings/expert/me?before=MjAzMC0wMS0wMXxvbGQ&limit=500";

  it("shows the first page, loads the older page the Link header names on request, then says the list is complete", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls = fakeApi({
      "GET /experts/expert-1/schedule": schedule,
      "GET /bookings/expert/me": {
        status: 200,
        body: [b("tomorrow", hours(24)), b("yesterday", hours(-24), { status: "completed" })],
        headers: { link: `</api/v1${older}>; rel="next"` },
      },
      [`GET ${older}`]: async () => {
        await held;
        return {
          status: 200,
          body: [b("last-month", hours(-24 * 30), { status: "completed" }), b("last-year", hours(-24 * 365), { status: "cancelled" })],
        };
      },
    });
    renderScreen(<BookingsTab />, { auth: signedInAs("expert") });
    const more = await screen.findByRole("button", { name: "Show older bookings" });
    expect(ids(screen.getByRole("region", { name: "Upcoming" }))).toEqual(["tomorrow"]);
    expect(ids(screen.getByRole("region", { name: "Past and cancelled" }))).toEqual(["yesterday"]);
    expect(calls.map((c) => c.path)).not.toContain(older);

    await userEvent.click(more);
    expect(await screen.findByRole("button", { name: "Loading older bookings…" })).toBeDisabled();
    expect(calls.map((c) => c.path)).toContain(older);
    release();

    await waitFor(() =>
      expect(ids(screen.getByRole("region", { name: "Past and cancelled" }))).toEqual(["yesterday", "last-month", "last-year"]),
    );
    expect(ids(screen.getByRole("region", { name: "Upcoming" }))).toEqual(["tomorrow"]);
    expect(screen.queryByRole("button", { name: /older bookings/ })).not.toBeInTheDocument();
    expect(screen.getByText("That's all your bookings.")).toBeInTheDocument();
  });

  it("shows no button and no closing line when one page holds every booking", async () => {
    const calls = fakeApi({
      "GET /experts/expert-1/schedule": schedule,
      "GET /bookings/expert/me": { status: 200, body: [b("tomorrow", hours(24)), b("yesterday", hours(-24), { status: "completed" })] },
    });
    renderScreen(<BookingsTab />, { auth: signedInAs("expert") });
    expect(ids(await screen.findByRole("region", { name: "Past and cancelled" }))).toEqual(["yesterday"]);
    expect(screen.queryByRole("button", { name: /older bookings/ })).not.toBeInTheDocument();
    expect(screen.queryByText("That's all your bookings.")).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith("/bookings/expert/me"))).toHaveLength(1);
  });
});
