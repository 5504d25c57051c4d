import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { aBooking } from "../../test/booking-fixture.ts";
import { localMoment } from "../shared/local-time.ts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { CreatorDashboardPage } from "../creator-dashboard/creator-dashboard-page.tsx";
import { ManageBookingSteps } from "../manage-booking/manage-booking-page.tsx";
import { JoinSession } from "./join-session.tsx";

// Issue 17.6 on screen: the expert sets the meeting link on manage-booking; both parties see
// "Join the session" from 15 minutes before the start, and until then when it appears.

const ROOM = "https://meet.example.com/deck-review";
const expert = signedInAs("expert", { id: "ux1", expert_id: "ux1" });
afterEach(() => vi.useRealTimers());

describe("join the session", () => {
  it("is a link to the meeting once the API shows it, opening in a new tab", () => {
    renderScreen(
      <JoinSession booking={aBooking({ join_link: ROOM, join_link_opens_at: "2030-03-05T09:45:00.000Z", join_link_source: "expert" })} />,
    );
    const join = screen.getByRole("link", { name: "Join the session: Deck review" });
    expect(join).toHaveAttribute("href", ROOM);
    expect(join).toHaveAttribute("target", "_blank");
    expect(join).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("says when it appears, reads the booking again at that moment and then offers it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const opensAt = new Date(Date.now() + 60_000).toISOString();
    let booking: Booking = aBooking({
      scheduled_time: new Date(Date.now() + 16 * 60_000).toISOString(),
      join_link_opens_at: opensAt,
      join_link_source: "expert",
    });
    fakeApi({ "GET /bookings/creator/me": () => ({ status: 200, body: [booking] }) });
    renderScreen(<CreatorDashboardPage />, { auth: signedInAs("creator", { id: "c1" }) });
    expect(await screen.findByTestId("join-link-later")).toHaveTextContent("The link appears 15 minutes before the start.");
    expect(screen.queryByRole("link", { name: /^Join the session/ })).not.toBeInTheDocument();
    booking = { ...booking, join_link: ROOM };
    await act(async () => {
      vi.advanceTimersByTime(62_000);
    });
    expect(await screen.findByRole("link", { name: "Join the session: Deck review" })).toHaveAttribute("href", ROOM);
  });

  it("says which host the link opens beside it, a look-alike host in the punycode that gives it away", () => {
    renderScreen(
      <JoinSession
        booking={aBooking({
          join_link: "https://meet.jit.si/deck-review",
          join_link_opens_at: "2030-03-05T09:45:00.000Z",
          join_link_source: "expert",
        })}
      />,
    );
    const join = screen.getByRole("link", { name: "Join the session: Deck review" });
    expect(join).toHaveAccessibleDescription("on meet.jit.si");
    expect(screen.getByTestId("join-link-host")).toHaveTextContent("on meet.jit.si");
  });

  it.each([
    ["as stored now", "https://xn--zom-sed.us/j/1"],
    ["as stored before links were normalised, with a Cyrillic о", "https://z\u043eom.us/j/1"],
  ])("a zoom.us look-alike shows its real host (%s)", (_when, link) => {
    renderScreen(
      <JoinSession booking={aBooking({ join_link: link, join_link_opens_at: "2030-03-05T09:45:00.000Z", join_link_source: "expert" })} />,
    );
    expect(screen.getByTestId("join-link-host")).toHaveTextContent("on xn--zom-sed.us");
    expect(screen.queryByText(/zoom\.us/)).not.toBeInTheDocument();
  });

  it("is not mentioned for a booking that will have no link", () => {
    renderScreen(<JoinSession booking={aBooking()} />);
    expect(screen.queryByText(/link/i)).not.toBeInTheDocument();
  });
});

describe("the expert's meeting link", () => {
  it("checks the address as the API does, saves it and says when both parties see it", async () => {
    const opensAt = "2030-03-05T09:45:00.000Z";
    const calls = fakeApi({
      "PUT /bookings/b1/join-link": (body) => ({
        status: 200,
        body: { booking_id: "b1", url: (body as { url: string }).url, opens_at: opensAt },
      }),
    });
    renderScreen(<ManageBookingSteps booking={aBooking()} schedule={{ timezone: "Europe/London", slots: [], booked: [] }} />, {
      auth: expert,
    });
    const form = within(screen.getByRole("form", { name: "Meeting link" }));
    expect(form.getByText("No meeting link yet: add one so you both know where to meet.")).toBeInTheDocument();
    await userEvent.type(form.getByLabelText("Video meeting link"), "http://meet.example.com/x");
    await userEvent.click(form.getByRole("button", { name: "Save meeting link" }));
    expect(form.getByText("Please enter a meeting link that starts with https://, without spaces.")).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
    await userEvent.clear(form.getByLabelText("Video meeting link"));
    await userEvent.type(form.getByLabelText("Video meeting link"), ` ${ROOM} `);
    await userEvent.click(form.getByRole("button", { name: "Save meeting link" }));
    expect(await form.findByRole("status")).toHaveTextContent(
      `Both of you see the link from ${localMoment(opensAt, "Europe/London")}, 15 minutes before the start.`,
    );
    expect(form.getByText(`Saved: ${ROOM} (opens meet.example.com)`)).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: "PUT", path: "/bookings/b1/join-link", body: { url: ROOM } }]);
  });

  it("shows the link as the API stored it, with the host it opens, so a look-alike host is plain to the expert", async () => {
    const calls = fakeApi({
      "PUT /bookings/b1/join-link": {
        status: 200,
        body: { booking_id: "b1", url: "https://xn--zom-sed.us/j/1", opens_at: "2030-03-05T09:45:00.000Z" },
      },
    });
    renderScreen(<ManageBookingSteps booking={aBooking()} schedule={null} />, { auth: expert });
    const form = within(screen.getByRole("form", { name: "Meeting link" }));
    await userEvent.type(form.getByLabelText("Video meeting link"), "https://z\u043eom.us/j/1");
    await userEvent.click(form.getByRole("button", { name: "Save meeting link" }));
    expect(await form.findByText("Saved: https://xn--zom-sed.us/j/1 (opens xn--zom-sed.us)")).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: "PUT", path: "/bookings/b1/join-link", body: { url: "https://z\u043eom.us/j/1" } }]);
  });

  it("refuses a link with a zero-width character or a backslash before sending it", async () => {
    const calls = fakeApi({});
    renderScreen(<ManageBookingSteps booking={aBooking()} schedule={null} />, { auth: expert });
    const form = within(screen.getByRole("form", { name: "Meeting link" }));
    for (const typed of ["https://zo\u200bom.us/j/1", "https://zoom.us\\@evil.test/x"]) {
      await userEvent.clear(form.getByLabelText("Video meeting link"));
      await userEvent.type(form.getByLabelText("Video meeting link"), typed);
      await userEvent.click(form.getByRole("button", { name: "Save meeting link" }));
      expect(form.getByText("Please enter a meeting link that starts with https://, without spaces.")).toBeInTheDocument();
    }
    expect(writes(calls)).toHaveLength(0);
  });

  it("says what link the booking has now, and shows a refusal in the catalogue's words", async () => {
    fakeApi({ "PUT /bookings/b1/join-link": { status: 409, body: { code: "join_link_not_confirmed", message: "x" } } });
    renderScreen(
      <ManageBookingSteps
        booking={aBooking({ join_link_source: "generated", join_link_opens_at: "2030-03-05T09:45:00.000Z" })}
        schedule={null}
      />,
      { auth: expert },
    );
    const form = within(screen.getByRole("form", { name: "Meeting link" }));
    expect(form.getByText("A meeting room is made for this session. Enter your own link to meet there instead.")).toBeInTheDocument();
    expect(screen.getByTestId("join-link-later")).toBeInTheDocument();
    await userEvent.type(form.getByLabelText("Video meeting link"), ROOM);
    await userEvent.click(form.getByRole("button", { name: "Save meeting link" }));
    await waitFor(() => expect(form.getByRole("alert")).toHaveTextContent("A meeting link can be set once the booking is confirmed."));
  });

  it("is not offered before the booking is confirmed", () => {
    fakeApi({});
    renderScreen(<ManageBookingSteps booking={aBooking({ status: "pending" })} schedule={null} />, { auth: expert });
    expect(screen.queryByRole("form", { name: "Meeting link" })).not.toBeInTheDocument();
  });
});
