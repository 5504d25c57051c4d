import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { clockTime } from "../shared/local-time.ts";
import { ManageBookingSteps } from "./manage-booking-page.tsx";
import { validateCard } from "../book-session/payment-step.tsx";
import { calendarDays } from "../shared/month-calendar.tsx";
import type { Schedule } from "../shared/api-types.ts";

describe("month calendar", () => {
  it("is 42 days starting on a Monday", () => {
    const days = calendarDays(DateTime.fromISO("2026-11-15"));
    expect(days).toHaveLength(42);
    expect(days[0]!.toISODate()).toBe("2026-10-26");
    expect(days.every((d, i) => i % 7 !== 0 || d.weekday === 1)).toBe(true);
  });
});

describe("payments", () => {
  it("checks the card form", () => {
    expect(validateCard({ number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123" })).toEqual({});
    expect(Object.keys(validateCard({ number: "42", expiry: "13/30", cvc: "1" }))).toEqual(["number", "expiry", "cvc"]);
  });
});

describe("managing a request", () => {
  const request = aBooking({ status: "pending", payment_state: "unpaid", paid: false });
  const auth = signedInAs("expert", { id: "ux1", expert_id: "ux1" });

  it("an unpaid request says Awaiting payment instead of offering Accept; a paid one offers Accept", () => {
    const { unmount } = renderScreen(<ManageBookingSteps booking={request} schedule={null} />, { auth });
    expect(screen.queryByRole("button", { name: "Accept Booking" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Awaiting payment" })).toBeDisabled();
    expect(screen.getByText("Cora Creator has not paid yet. You can accept once the payment arrives.")).toBeInTheDocument();
    unmount();
    renderScreen(<ManageBookingSteps booking={{ ...request, paid: true, payment_state: "paid" }} schedule={null} />, { auth });
    expect(screen.getByRole("button", { name: "Accept Booking" })).toBeEnabled();
    expect(screen.queryByRole("button", { name: "Awaiting payment" })).not.toBeInTheDocument();
  });

  it("offers Propose another time beside Accept and Decline on the first screen (issue 27.12)", () => {
    fakeApi({});
    renderScreen(<ManageBookingSteps booking={{ ...request, paid: true, payment_state: "paid" }} schedule={null} />, { auth });
    const actions = screen.getAllByRole("button").map((b) => b.textContent);
    expect(actions).toEqual(expect.arrayContaining(["Accept Booking", "Propose another time", "Request More Info", "Decline"]));
    expect(actions.indexOf("Propose another time")).toBe(actions.indexOf("Accept Booking") + 1);
  });

  it("Accept confirms the requested time; nothing else is asked", async () => {
    const calls = fakeApi({ "PATCH /bookings/b1/status": { status: 200, body: { ...request, status: "confirmed", paid: true } } });
    renderScreen(<ManageBookingSteps booking={{ ...request, paid: true, payment_state: "paid" }} schedule={null} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Accept Booking" }));
    await userEvent.click(screen.getByRole("button", { name: "Confirm Date & Time" }));
    expect(await screen.findByText("Booking Confirmed")).toBeInTheDocument();
    // The page also reads the booking's conversation (issue 31.3): only what it changes is counted.
    expect(writes(calls)).toEqual([{ method: "PATCH", path: "/bookings/b1/status", body: { status: "confirmed" } }]);
  });

  it("Propose offers only the times the API gives (the expert's bookable times), not the requested one, and sends the chosen one", async () => {
    const zone = "Europe/London";
    const schedule: Schedule = { timezone: zone, slots: [], booked: [] };
    const day = DateTime.now().setZone(zone).plus({ days: 2 }).startOf("day");
    const at = (d: DateTime, hour: number, minute = 0) => d.set({ hour, minute }).toUTC().toISO()!;
    const next = day.plus({ days: 1 });
    const requested = at(day, 10);
    const calls = fakeApi({
      // The API's answer includes the booking's own time (it may stay there); proposing it would change nothing.
      [`GET /bookings/b1/proposable-times?date=${day.toISODate()}`]: {
        status: 200,
        body: { timezone: zone, times: [at(day, 9), requested, at(day, 14, 30)] },
      },
      [`GET /bookings/b1/proposable-times?date=${next.toISODate()}`]: { status: 200, body: { timezone: zone, times: [at(next, 11)] } },
      "PATCH /bookings/b1/schedule": (body) => ({
        status: 200,
        body: { ...request, status: "time_proposed", scheduled_time: (body as { scheduled_time: string }).scheduled_time },
      }),
    });
    const paid = { ...request, scheduled_time: requested, paid: true, payment_state: "paid" as const };
    renderScreen(<ManageBookingSteps booking={paid} schedule={schedule} />, { auth });
    expect(calls).toHaveLength(0); // nothing is asked until the expert chooses to propose
    await userEvent.click(screen.getByRole("button", { name: "Propose another time" }));
    const offered = async () =>
      within(await screen.findByRole("group", { name: "Times" }))
        .getAllByRole("button")
        .map((b) => b.textContent);
    expect(await offered()).toEqual([clockTime(at(day, 9), zone), clockTime(at(day, 14, 30), zone)]);
    expect(screen.getByRole("button", { name: "Propose this time" })).toBeDisabled();
    if (next.month !== day.month) await userEvent.click(screen.getByRole("button", { name: "Next month" }));
    await userEvent.click(document.querySelector<HTMLElement>(`[data-day="${next.toISODate()}"]`)!);
    expect(await offered()).toEqual([clockTime(at(next, 11), zone)]);
    await userEvent.click(screen.getByRole("button", { name: clockTime(at(next, 11), zone) }));
    await userEvent.click(screen.getByRole("button", { name: "Propose this time" }));
    expect(await screen.findByText("New Time Proposed")).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: "PATCH", path: "/bookings/b1/schedule", body: { scheduled_time: at(next, 11) } }]);
  });

  it("while the creator's request to move is open, Propose is not offered and the page says why", () => {
    fakeApi({});
    const moveAsked = { reschedule_to: "2030-03-06T10:00:00.000Z", reschedule_requested_at: "2030-03-01T10:00:00.000Z" };
    const asked = { ...request, paid: true, payment_state: "paid" as const, ...moveAsked };
    renderScreen(<ManageBookingSteps booking={asked} schedule={null} />, { auth });
    expect(screen.queryByRole("button", { name: "Propose another time" })).not.toBeInTheDocument();
    expect(screen.getByText("The creator asked to move this booking. Accept or decline that request first.")).toBeInTheDocument();
  });

  it("a proposed time the creator answered with another says that accepting theirs confirms the session (issue 27.11)", () => {
    fakeApi({});
    const countered = {
      ...request,
      status: "time_proposed" as const,
      paid: true,
      payment_state: "paid" as const,
      reschedule_to: "2030-03-06T10:00:00.000Z",
    };
    renderScreen(<ManageBookingSteps booking={countered} schedule={null} />, { auth });
    expect(screen.getByTestId("proposal-answered")).toHaveTextContent(
      "You proposed another time; Cora Creator asks for the time below instead. Accepting it confirms the session.",
    );
    expect(screen.getByRole("button", { name: "Accept new time" })).toBeInTheDocument();
  });

  it("shows the expert the cancellation policy the creator was promised", () => {
    fakeApi({});
    renderScreen(<ManageBookingSteps booking={{ ...request, paid: true, payment_state: "paid" }} schedule={null} />, { auth });
    expect(screen.getByTestId("cancellation-policy")).toHaveTextContent(
      "Cora Creator can cancel for a full refund until 24 hours before the session; later cancellations are " +
        "not refunded. If you decline or cancel, Cora Creator is refunded in full.",
    );
  });

  it("Decline asks for the reason the creator will see, then cancels with it", async () => {
    const calls = fakeApi({
      "PATCH /bookings/b1/status": (body) => ({
        status: 200,
        body: { ...request, status: "cancelled", cancelled_by: "expert", cancel_reason: (body as { reason: string }).reason },
      }),
    });
    renderScreen(<ManageBookingSteps booking={{ ...request, paid: true, payment_state: "paid" }} schedule={null} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Decline" }));
    expect(screen.getByText(/Cora Creator will see your reason and is refunded in full/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Decline Booking" }));
    expect(await screen.findByText("Please tell the creator why you are declining.")).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
    await userEvent.type(screen.getByLabelText(/Reason for declining/), "  I am travelling that week.  ");
    await userEvent.click(screen.getByRole("button", { name: "Decline Booking" }));
    expect(await screen.findByText("Booking Declined")).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      { method: "PATCH", path: "/bookings/b1/status", body: { status: "cancelled", reason: "I am travelling that week." } },
    ]);
  });
});
