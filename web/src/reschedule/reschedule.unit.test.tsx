import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { aBooking } from "../../test/booking-fixture.ts";
import { browserZone, clockTime, localMoment } from "../shared/local-time.ts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { CreatorDashboardPage } from "../creator-dashboard/creator-dashboard-page.tsx";
import { ManageBookingSteps } from "../manage-booking/manage-booking-page.tsx";
import { mayAskToMove, RequestNewTime, tooLateToMove } from "./request-new-time.tsx";

// Issue 17.3 on screen: the creator asks for a new time from the expert's bookable times, sees the
// open request and may withdraw it; the expert accepts or declines; too near the start the
// catalogue's refusal is shown and nothing is asked.

const zone = browserZone();
const inDays = (n: number, hour: number) => DateTime.now().setZone(zone).plus({ days: n }).startOf("day").set({ hour });
const current = inDays(3, 10).toUTC().toISO()!;
const newDay = inDays(4, 0);
const offered = [inDays(4, 9), inDays(4, 14)].map((t) => t.toUTC().toISO()!);
const creator = signedInAs("creator", { id: "c1" });
const booked = (more: Partial<Booking> = {}) =>
  aBooking({ session_id: "s-1", scheduled_time: current, prep_response_1: "a", prep_response_2: "b", prep_response_3: "c", ...more });
const card = () => within(screen.getByTestId("creator-booking"));

describe("requesting a new time", () => {
  it("offers the expert's bookable times, asks for the chosen one, then shows the open request with Withdraw", async () => {
    let booking = booked();
    const calls = fakeApi({
      "GET /bookings/creator/me": () => ({ status: 200, body: [booking] }),
      "GET /sessions/s-1/availability": { status: 200, body: { timezone: zone, times: offered } },
      "POST /bookings/b1/reschedule": (body) => {
        booking = {
          ...booking,
          reschedule_to: (body as { scheduled_time: string }).scheduled_time,
          reschedule_requested_at: new Date().toISOString(),
        };
        return { status: 200, body: booking };
      },
      "POST /bookings/b1/reschedule/withdraw": () => {
        booking = { ...booking, reschedule_to: null, reschedule_requested_at: null };
        return { status: 200, body: booking };
      },
    });
    renderScreen(<CreatorDashboardPage />, { auth: creator });
    await screen.findByTestId("creator-booking");
    await userEvent.click(card().getByRole("button", { name: "Request a new time" }));
    const picker = within(screen.getByRole("region", { name: "Request a new time" }));
    expect(picker.getByText(/Your session stays at/)).toHaveTextContent(
      `Your session stays at ${localMoment(current, zone)} until your expert accepts the new time.`,
    );
    // The calendar opens on the month of the first day with a time (issue 27.16).
    await userEvent.click(await picker.findByRole("button", { name: newDay.toFormat("cccc, LLLL d, yyyy") }));
    expect(
      within(picker.getByRole("group", { name: "Available times" }))
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(offered.map((t) => clockTime(t, zone)));
    expect(picker.getByRole("button", { name: "Ask for this time" })).toBeDisabled();
    await userEvent.click(picker.getByRole("button", { name: clockTime(offered[1]!, zone) }));
    await userEvent.click(picker.getByRole("button", { name: `Ask for ${localMoment(offered[1]!, zone)}` }));

    const request = await card().findByRole("region", { name: "Request to move this session" });
    expect(request).toHaveTextContent(
      `You asked to move this session to ${localMoment(offered[1]!, zone)}. It stays at ${localMoment(current, zone)} until Maya Lind accepts.`,
    );
    expect(card().queryByRole("button", { name: "Request a new time" })).not.toBeInTheDocument();
    await userEvent.click(within(request).getByRole("button", { name: "Withdraw request" }));
    await waitFor(() => expect(card().queryByRole("region", { name: "Request to move this session" })).not.toBeInTheDocument());
    expect(writes(calls)).toEqual([
      { method: "POST", path: "/bookings/b1/reschedule", body: { scheduled_time: offered[1] } },
      { method: "POST", path: "/bookings/b1/reschedule/withdraw", body: undefined },
    ]);
  });

  it("shows the creator a declined request with the expert's reason, and no longer once another is open or the booking ended", async () => {
    const declined = { reschedule_declined_to: offered[0]!, reschedule_decline_reason: "I am away that week." };
    let booking = booked(declined);
    fakeApi({ "GET /bookings/creator/me": () => ({ status: 200, body: [booking] }) });
    const { unmount } = renderScreen(<CreatorDashboardPage />, { auth: creator });
    await screen.findByTestId("creator-booking");
    expect(await card().findByTestId("declined-move")).toHaveTextContent(
      `${booking.session.expertFirstName} declined your request to move this session to ` +
        `${localMoment(offered[0]!, zone)}: I am away that week. It stays at ${localMoment(current, zone)}.`,
    );
    unmount();
    for (const later of [
      { reschedule_to: offered[1]!, reschedule_requested_at: new Date().toISOString() },
      { status: "cancelled" as const },
    ]) {
      booking = booked({ ...declined, ...later });
      const { unmount: done } = renderScreen(<CreatorDashboardPage />, { auth: creator });
      await screen.findAllByText(/Deck review/);
      expect(screen.queryByTestId("declined-move")).not.toBeInTheDocument();
      done();
    }
  });

  it("says the time was taken in the catalogue's words and reads the times again", async () => {
    const calls = fakeApi({
      "GET /bookings/creator/me": { status: 200, body: [booked()] },
      "GET /sessions/s-1/availability": { status: 200, body: { timezone: zone, times: offered } },
      "POST /bookings/b1/reschedule": { status: 409, body: { code: "reschedule_time_taken", message: "x" } },
    });
    renderScreen(<CreatorDashboardPage />, { auth: creator });
    await screen.findByTestId("creator-booking");
    await userEvent.click(card().getByRole("button", { name: "Request a new time" }));
    const picker = within(screen.getByRole("region", { name: "Request a new time" }));
    // The calendar opens on the month of the first day with a time (issue 27.16).
    await userEvent.click(await picker.findByRole("button", { name: newDay.toFormat("cccc, LLLL d, yyyy") }));
    await userEvent.click(picker.getByRole("button", { name: clockTime(offered[0]!, zone) }));
    await userEvent.click(picker.getByRole("button", { name: /^Ask for / }));
    expect(await picker.findByRole("alert")).toHaveTextContent("That time is already taken. Please pick another.");
    await waitFor(() => expect(calls.filter((c) => c.path === "/sessions/s-1/availability")).toHaveLength(2));
  });

  it("less than 24 hours before the start offers no Request a new time and says why, asking nothing (issue 27.11)", async () => {
    const soon = new Date(Date.now() + 6 * 3_600_000).toISOString();
    const calls = fakeApi({ "GET /bookings/creator/me": { status: 200, body: [booked({ scheduled_time: soon })] } });
    renderScreen(<CreatorDashboardPage />, { auth: creator });
    await screen.findByTestId("creator-booking");
    expect(card().queryByRole("button", { name: "Request a new time" })).not.toBeInTheDocument();
    expect(card().getByTestId("move-unavailable")).toHaveTextContent(
      "A booking can be moved until 24 hours before it starts. This one starts sooner: please contact your expert or cancel it instead.",
    );
    // The dashboard's unread messages (issue 31.3) are read too; no times are asked for.
    expect(calls.map((c) => c.path).filter((path) => path !== "/me/unread-messages")).toEqual(["/bookings/creator/me"]);
  });

  it("a creator shown a proposed time may accept it, or answer with another time (issue 27.11)", async () => {
    const proposed = booked({ status: "time_proposed", previous_time: inDays(2, 10).toUTC().toISO()! });
    const calls = fakeApi({
      "GET /bookings/creator/me": { status: 200, body: [proposed] },
      "GET /sessions/s-1/availability": { status: 200, body: { timezone: zone, times: offered } },
      "POST /bookings/b1/reschedule": (body) => ({
        status: 200,
        body: { ...proposed, reschedule_to: (body as { scheduled_time: string }).scheduled_time },
      }),
    });
    renderScreen(<CreatorDashboardPage />, { auth: creator });
    await screen.findByTestId("creator-booking");
    expect(card().getByRole("button", { name: "Accept New Time" })).toBeInTheDocument();
    await userEvent.click(card().getByRole("button", { name: "Request a new time" }));
    const picker = within(screen.getByRole("region", { name: "Request a new time" }));
    const intro = `Maya proposed ${localMoment(current, zone)}. Ask for another of their times instead: it is held until they answer.`;
    expect(picker.getByText(/proposed/)).toHaveTextContent(intro);
    await userEvent.click(await picker.findByRole("button", { name: newDay.toFormat("cccc, LLLL d, yyyy") }));
    await userEvent.click(picker.getByRole("button", { name: clockTime(offered[0]!, zone) }));
    await userEvent.click(picker.getByRole("button", { name: `Ask for ${localMoment(offered[0]!, zone)}` }));
    await waitFor(() =>
      expect(writes(calls)).toEqual([{ method: "POST", path: "/bookings/b1/reschedule", body: { scheduled_time: offered[0] } }]),
    );
  });

  it("rules: who may ask, and when", () => {
    expect(mayAskToMove(booked())).toBe(true);
    expect(mayAskToMove(booked({ status: "pending" }))).toBe(true);
    expect(mayAskToMove(booked({ status: "pending", paid: false }))).toBe(false);
    expect(mayAskToMove(booked({ status: "time_proposed" }))).toBe(true);
    expect(mayAskToMove(booked({ status: "cancelled" }))).toBe(false);
    expect(mayAskToMove(booked({ reschedule_to: offered[0]! }))).toBe(false);
    const start = Date.parse("2030-03-05T10:00:00Z");
    const at = (reschedule_hours: number) => ({ scheduled_time: "2030-03-05T10:00:00Z", reschedule_hours });
    expect(tooLateToMove(at(24), start - 24 * 3_600_000)).toBeNull();
    expect(tooLateToMove(at(24), start - 24 * 3_600_000 + 1)).toMatch(/^A booking can be moved until 24 hours/);
    // Issue 31.4: the booking's own notice, the terms it was made under, not the default.
    expect(tooLateToMove(at(48), start - 30 * 3_600_000)).toMatch(/^A booking can be moved until 48 hours/);
    expect(tooLateToMove(at(12), start - 20 * 3_600_000)).toBeNull();
    expect(tooLateToMove(at(12), start - 11 * 3_600_000)).toMatch(/^A booking can be moved until 12 hours/);
  });

  it("follows the booking's own notice on screen: 48 hours refuses a move 30 hours ahead, 12 hours offers one 20 hours ahead (issue 31.4)", () => {
    const soon = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const { unmount } = renderScreen(<RequestNewTime booking={booked({ scheduled_time: soon(30), reschedule_hours: 48 })} />, {
      auth: creator,
    });
    expect(screen.getByTestId("move-unavailable")).toHaveTextContent(
      "A booking can be moved until 48 hours before it starts. This one starts sooner: please contact your expert or cancel it instead.",
    );
    expect(screen.queryByRole("button", { name: "Request a new time" })).toBeNull();
    unmount();
    renderScreen(<RequestNewTime booking={booked({ scheduled_time: soon(20), reschedule_hours: 12 })} />, { auth: creator });
    expect(screen.getByRole("button", { name: "Request a new time" })).toBeInTheDocument();
    expect(screen.queryByTestId("move-unavailable")).toBeNull();
  });
});

describe("answering a request to move", () => {
  const expert = signedInAs("expert", { id: "ux1", expert_id: "ux1" });
  const asked = booked({ reschedule_to: offered[0]!, reschedule_requested_at: new Date().toISOString() });

  it("the expert reads who asks for which time, in their zone, and accepts", async () => {
    const calls = fakeApi({
      "POST /bookings/b1/reschedule/accept": {
        status: 200,
        body: { ...asked, scheduled_time: offered[0], previous_time: current, reschedule_to: null },
      },
    });
    renderScreen(<ManageBookingSteps booking={asked} schedule={{ timezone: "Asia/Tokyo", slots: [], booked: [] }} />, { auth: expert });
    const request = screen.getByRole("region", { name: "Request to move this session" });
    expect(request).toHaveTextContent(
      `Cora Creator asks to move this session to ${localMoment(offered[0]!, "Asia/Tokyo")} (now ` +
        `${localMoment(current, "Asia/Tokyo")}). Both times are held until you answer.`,
    );
    await userEvent.click(within(request).getByRole("button", { name: "Accept new time" }));
    await waitFor(() => expect(writes(calls).map((c) => c.path)).toEqual(["/bookings/b1/reschedule/accept"]));
  });

  it("the expert may say why they decline: the reason goes with the decline, and none is sent when left empty", async () => {
    const declined = { status: 200, body: { ...asked, reschedule_to: null } };
    const calls = fakeApi({ "POST /bookings/b1/reschedule/decline": declined });
    const { unmount } = renderScreen(<ManageBookingSteps booking={asked} schedule={null} />, { auth: expert });
    const request = () => within(screen.getByRole("region", { name: "Request to move this session" }));
    await userEvent.click(request().getByRole("button", { name: "Decline" }));
    expect(writes(calls)).toEqual([]); // asking for the reason sends nothing yet
    await userEvent.click(request().getByRole("button", { name: "Back" }));
    await userEvent.click(request().getByRole("button", { name: "Decline" }));
    await userEvent.type(request().getByLabelText("Reason (optional, shown to the creator)"), "  I am away that week.  ");
    await userEvent.click(request().getByRole("button", { name: "Decline request" }));
    await waitFor(() =>
      expect(writes(calls).map((c) => [c.path, c.body])).toEqual([["/bookings/b1/reschedule/decline", { reason: "I am away that week." }]]),
    );
    unmount();

    const again = fakeApi({ "POST /bookings/b1/reschedule/decline": declined });
    renderScreen(<ManageBookingSteps booking={asked} schedule={null} />, { auth: expert });
    await userEvent.click(request().getByRole("button", { name: "Decline" }));
    await userEvent.click(request().getByRole("button", { name: "Decline request" }));
    await waitFor(() => expect(writes(again).map((c) => [c.path, c.body])).toEqual([["/bookings/b1/reschedule/decline", {}]]));
  });

  it("a decline that fails says why", async () => {
    fakeApi({ "POST /bookings/b1/reschedule/decline": { status: 409, body: { code: "reschedule_not_requested", message: "x" } } });
    renderScreen(<ManageBookingSteps booking={asked} schedule={null} />, { auth: expert });
    const request = within(screen.getByRole("region", { name: "Request to move this session" }));
    await userEvent.click(request.getByRole("button", { name: "Decline" }));
    await userEvent.click(request.getByRole("button", { name: "Decline request" }));
    expect(await screen.findByText("There is no request to move this booking waiting for an answer.")).toBeInTheDocument();
  });
});
