import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { fakeApi, renderScreen, signedInAs } from "../shared/screen-harness.tsx";
import { ManageBookingSteps, proposableTimes } from "./manage-booking-page.tsx";
import { earningsByMonth } from "../expert-dashboard/payments-tab.tsx";
import { validateCard } from "../booking/payment-step.tsx";
import { calendarDays } from "../shared/month-calendar.tsx";
import type { Booking } from "../shared/api-types.ts";

describe("times an expert may propose", () => {
  const now = DateTime.fromISO("2026-03-02T00:00:00Z");
  const booking = { id: "b", scheduled_time: "2026-03-05T09:00:00.000Z", length_minutes: 60 };

  it("are 9:00 AM to 5:30 PM half-hourly in the expert's zone", () => {
    const times = proposableTimes("2026-03-04", "Europe/London", booking, [], now);
    expect(times).toHaveLength(18);
    expect(times[0]).toBe("2026-03-04T09:00:00.000Z");
    expect(times.at(-1)).toBe("2026-03-04T17:30:00.000Z");
    expect(proposableTimes("2026-03-04", "America/New_York", booking, [], now)[0]).toBe("2026-03-04T14:00:00.000Z");
  });

  it("skip other bookings but not this booking's own time, and stay inside 28 days", () => {
    const busy = [{ scheduled_time: "2026-03-04T12:00:00.000Z", length_minutes: 60 }, { scheduled_time: booking.scheduled_time, length_minutes: 60 }];
    const times = proposableTimes("2026-03-04", "Europe/London", booking, busy, now);
    expect(times).not.toContain("2026-03-04T11:30:00.000Z");
    expect(times).not.toContain("2026-03-04T12:30:00.000Z");
    expect(proposableTimes("2026-03-05", "Europe/London", booking, busy, now)).toContain(booking.scheduled_time);
    expect(proposableTimes("2026-04-30", "Europe/London", booking, [], now)).toEqual([]);
  });
});

describe("month calendar", () => {
  it("is 42 days starting on a Monday", () => {
    const days = calendarDays(DateTime.fromISO("2026-11-15"));
    expect(days).toHaveLength(42);
    expect(days[0]!.toISODate()).toBe("2026-10-26");
    expect(days.every((d, i) => i % 7 !== 0 || d.weekday === 1)).toBe(true);
  });
});

describe("payments", () => {
  it("adds up paid, not cancelled bookings by month", () => {
    const b = (time: string, price: number, more: Partial<Booking> = {}) => ({ scheduled_time: time, price, paid: true, status: "confirmed", payment_state: "paid", ...more }) as Booking;
    expect(earningsByMonth([b("2026-03-02T10:00:00Z", 150), b("2026-03-20T10:00:00Z", 50), b("2026-04-01T10:00:00Z", 90), b("2026-04-02T10:00:00Z", 90, { status: "cancelled" }), b("2026-04-03T10:00:00Z", 90, { paid: false })])).toEqual([
      { month: "2026-04", label: "April 2026", sessions: 1, total: 90 },
      { month: "2026-03", label: "March 2026", sessions: 2, total: 200 },
    ]);
  });
  it("checks the card form", () => {
    expect(validateCard({ number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123" })).toEqual({});
    expect(Object.keys(validateCard({ number: "42", expiry: "13/30", cvc: "1" }))).toEqual(["number", "expiry", "cvc"]);
  });
});

describe("managing a request", () => {
  const request: Booking = {
    id: "b1", status: "pending", scheduled_time: "2030-03-05T10:00:00.000Z", previous_time: null, length_minutes: 60, session_id: "s1", session_title: "Deck review",
    session: { title: "Deck review", price: 150, expertFirstName: "Maya" }, expert_id: "ux1", creator_id: "c1", creator_name: "Cora Creator", expert_name: "Maya Lind",
    expert_image: null, profile_image: null, info_request_note: null, prep_question_1: "Goal?", prep_question_2: null, prep_question_3: null,
    prep_response_1: null, prep_response_2: null, prep_response_3: null, price: 150, payment_state: "unpaid", paid: false, held_until: "2030-03-01T10:15:00.000Z",
    has_notes: false, cancelled_by: null, cancel_reason: null, created_at: "2030-03-01T10:00:00.000Z",
  };
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

  it("Decline asks for the reason the creator will see, then cancels with it", async () => {
    const calls = fakeApi({ "PATCH /bookings/b1/status": (body) => ({ status: 200, body: { ...request, status: "cancelled", cancelled_by: "expert", cancel_reason: (body as { reason: string }).reason } }) });
    renderScreen(<ManageBookingSteps booking={{ ...request, paid: true, payment_state: "paid" }} schedule={null} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Decline" }));
    expect(screen.getByText(/Cora Creator will see your reason and is refunded in full/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Decline Booking" }));
    expect(await screen.findByText("Please tell the creator why you are declining.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.type(screen.getByLabelText(/Reason for declining/), "  I am travelling that week.  ");
    await userEvent.click(screen.getByRole("button", { name: "Decline Booking" }));
    expect(await screen.findByText("Booking Declined")).toBeInTheDocument();
    expect(calls).toEqual([{ method: "PATCH", path: "/bookings/b1/status", body: { status: "cancelled", reason: "I am travelling that week." } }]);
  });
});
