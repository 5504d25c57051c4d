import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { DateTime } from "luxon";
import { beforeEach, describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { browserZone, clockTime } from "../shared/local-time.ts";
import { aSession } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { BookSessionPage } from "./book-session-page.tsx";

const session = aSession({ id: "s-1", expert_id: "e-1", expert: { id: "e-1", name: "Maya Lind", first_name: "Maya" } });
const zone = browserZone();
const tomorrow = DateTime.now().setZone(zone).plus({ days: 1 }).startOf("day");
const [heldTime, otherTime] = [tomorrow.set({ hour: 10 }), tomorrow.set({ hour: 14 })].map((t) => t.toUTC().toISO()!);
const booking = (id: string, scheduled_time: string): Booking =>
  ({
    id,
    status: "pending",
    paid: false,
    payment_state: "unpaid",
    scheduled_time,
    session_id: "s-1",
    session_title: "Deck review",
    price: 150,
    length_minutes: 60,
    held_until: scheduled_time,
  }) as Booking;
const intent = { status: 200, body: { clientSecret: "secret", paymentId: "p", amount: 15000, publishableKey: null } };
const auth = signedInAs("creator");
/** The session, its held booking b-1 (taken up from the dashboard), a payment intent and another free time. */
const heldBooking = {
  "GET /sessions/s-1": { status: 200, body: session },
  "GET /bookings/b-1": { status: 200, body: booking("b-1", heldTime!) },
  "POST /stripe/test-intent": intent,
  "GET /sessions/s-1/availability": { status: 200, body: { timezone: "Europe/London", times: [otherTime] } },
};

beforeEach(() => sessionStorage.clear());

describe("booking wizard", () => {
  it("takes an unpaid booking from the dashboard straight to its payment step", async () => {
    const calls = fakeApi(heldBooking);
    renderScreen(<BookSessionPage />, { route: "/book-session/s-1?booking=b-1", path: "/book-session/:id", auth });
    expect(await screen.findByTestId("wizard-step-2")).toBeInTheDocument();
    expect(await screen.findByLabelText("Card number")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/stripe/test-intent")?.body).toEqual({ bookingId: "b-1", amount: 15000 });
  });

  it("goes back from payment to choose another time, releasing the held one before holding the new one", async () => {
    const calls = fakeApi({
      ...heldBooking,
      "PATCH /bookings/b-1/status": { status: 200, body: { ...booking("b-1", heldTime!), status: "cancelled" } },
      "POST /bookings": { status: 201, body: { booking: booking("b-2", otherTime!) } },
    });
    renderScreen(<BookSessionPage />, { route: "/book-session/s-1?booking=b-1", path: "/book-session/:id", auth });
    await screen.findByTestId("wizard-step-2");
    expect(screen.getByRole("tab", { name: /Select Time/ })).toBeEnabled();
    await userEvent.click(await screen.findByRole("button", { name: "Choose another time" }));
    expect(await screen.findByText(/You are holding/)).toBeInTheDocument();
    await userEvent.click(await screen.findByRole("button", { name: tomorrow.toFormat("cccc, LLLL d, yyyy") }));
    await userEvent.click(screen.getByRole("button", { name: clockTime(otherTime!, zone) }));
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    await screen.findByTestId("wizard-step-2");
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "/stripe/test-intent").map((c) => (c.body as { bookingId: string }).bookingId)).toEqual([
        "b-1",
        "b-2",
      ]),
    );
    const writes = calls.filter((c) => c.method !== "GET" && c.path !== "/stripe/test-intent").map((c) => `${c.method} ${c.path}`);
    expect(writes).toEqual(["PATCH /bookings/b-1/status", "POST /bookings"]);
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ status: "cancelled" });
  });

  it("keeps the held time when the creator changes their mind", async () => {
    const calls = fakeApi(heldBooking);
    renderScreen(<BookSessionPage />, { route: "/book-session/s-1?booking=b-1", path: "/book-session/:id", auth });
    await userEvent.click(await screen.findByRole("tab", { name: /Select Time/ }));
    await userEvent.click(await screen.findByRole("button", { name: "Keep this time" }));
    expect(await screen.findByTestId("wizard-step-2")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PATCH" || c.path === "/bookings")).toEqual([]);
  });
  it("tells an admin that admins cannot book, not that experts cannot", async () => {
    fakeApi({});
    renderScreen(<BookSessionPage />, { route: "/book-session/s-1", path: "/book-session/:id", auth: signedInAs("admin") });
    expect(await screen.findByText("Admins cannot book sessions. Sign in with a creator account to book.")).toBeInTheDocument();
    expect(screen.queryByText("Experts cannot book sessions.")).not.toBeInTheDocument();
  });
});
