import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { browserZone, clockTime } from "../shared/local-time.ts";
import { aSession } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { BookSessionPage } from "./book-session-page.tsx";

// Issue 27.8: reaching payment holds the time; the wizard shows until when (the server's held_until),
// takes the hold up again when the creator comes back, lets her release it, and says when it lapsed.

const NOW = DateTime.fromISO("2030-01-01T09:00:00.000Z");
const zone = browserZone();
const tomorrow = NOW.setZone(zone).plus({ days: 1 }).startOf("day");
const [heldTime, otherTime] = [tomorrow.set({ hour: 10 }), tomorrow.set({ hour: 14 })].map((t) => t.toUTC().toISO()!) as [string, string];
const session = aSession({ id: "s-1", expert_id: "e-1", expert: { id: "e-1", name: "Maya Lind", first_name: "Maya" } });
const hold = (minutesLeft: number, id = "b-1"): Booking =>
  ({
    id,
    status: "pending",
    paid: false,
    payment_state: "unpaid",
    scheduled_time: heldTime,
    session_id: "s-1",
    session_title: "Deck review",
    price: 150,
    length_minutes: 60,
    held_until: NOW.plus({ minutes: minutesLeft }).toUTC().toISO()!,
    session: { title: "Deck review", price: 150, expertFirstName: "Maya" },
  }) as Booking;
const auth = signedInAs("creator");
const intent = { status: 200, body: { clientSecret: "secret", paymentId: "p", amount: 15000, publishableKey: null } };
const page = (route = "/book-session/s-1") => renderScreen(<BookSessionPage />, { route, path: "/book-session/:id", auth });
const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => {
  sessionStorage.clear();
  // Only the clock and the countdown's interval are faked: the fake API's promises and the testing library's waits run as usual.
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
  vi.setSystemTime(NOW.toJSDate());
});
afterEach(() => vi.useRealTimers());

describe("the hold on a time at the payment step", () => {
  it("counts down to the server's held_until", async () => {
    fakeApi({
      "GET /sessions/s-1": { status: 200, body: session },
      "GET /bookings/b-1": { status: 200, body: hold(15) },
      "POST /stripe/test-intent": intent,
    });
    page("/book-session/s-1?booking=b-1");
    const timer = await screen.findByRole("timer");
    expect(timer).toHaveTextContent("15:00");
    expect(screen.getByText(new RegExp(`held for you until ${clockTime(hold(15).held_until, zone)}`, "i"))).toBeInTheDocument();
    await tick(61_000);
    expect(timer).toHaveTextContent("13:59");
  });

  it("when it runs out, says the hold lapsed and goes back to the time step", async () => {
    fakeApi({
      "GET /sessions/s-1": { status: 200, body: session },
      "GET /bookings/b-1": { status: 200, body: hold(1) },
      "POST /stripe/test-intent": intent,
      "GET /sessions/s-1/availability": { status: 200, body: { timezone: "UTC", times: [heldTime, otherTime] } },
    });
    page("/book-session/s-1?booking=b-1");
    await screen.findByRole("timer");
    await tick(60_000);
    expect(await screen.findByTestId("wizard-step-1")).toBeInTheDocument();
    expect(screen.getByTestId("hold-notice")).toHaveTextContent(/hold on .* lapsed/i);
    expect(screen.queryByText(/You are holding/)).not.toBeInTheDocument();
  });

  it("'Release this time' cancels the hold and offers the time again at the time step", async () => {
    let released = false;
    const calls = fakeApi({
      "GET /sessions/s-1": { status: 200, body: session },
      "GET /bookings/b-1": { status: 200, body: hold(12) },
      "POST /stripe/test-intent": intent,
      "PATCH /bookings/b-1/status": () => ((released = true), { status: 200, body: { ...hold(12), status: "cancelled" } }),
      "GET /sessions/s-1/availability": () => ({
        status: 200,
        body: { timezone: "UTC", times: released ? [heldTime, otherTime] : [otherTime] },
      }),
    });
    page("/book-session/s-1?booking=b-1");
    await userEvent.click(await screen.findByRole("button", { name: "Release this time" }));
    expect(await screen.findByTestId("wizard-step-1")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PATCH")).toMatchObject({ path: "/bookings/b-1/status", body: { status: "cancelled" } });
    expect(screen.getByTestId("hold-notice")).toHaveTextContent(/released/i);
    await userEvent.click(await screen.findByRole("button", { name: tomorrow.toFormat("cccc, LLLL d, yyyy") }));
    expect(screen.getByRole("button", { name: clockTime(heldTime, zone) })).toBeInTheDocument();
    expect(screen.queryByText(/You are holding/)).not.toBeInTheDocument();
  });

  it("coming back to the session page with a hold open resumes at payment with that time", async () => {
    const calls = fakeApi({
      "GET /sessions/s-1": { status: 200, body: session },
      "POST /stripe/test-intent": intent,
      "GET /bookings/creator/me": {
        status: 200,
        body: [{ ...hold(9, "b-old"), status: "cancelled" }, hold(9), { ...hold(9, "b-other"), session_id: "s-2" }],
      },
    });
    page();
    expect(await screen.findByTestId("wizard-step-2")).toBeInTheDocument();
    expect(await screen.findByRole("timer")).toHaveTextContent("9:00");
    await waitFor(() => expect(calls.find((c) => c.path === "/stripe/test-intent")?.body).toEqual({ bookingId: "b-1", amount: 15000 }));
  });

  it("a creator with no open hold on this session starts at the session's details", async () => {
    fakeApi({
      "GET /sessions/s-1": { status: 200, body: session },
      "GET /bookings/creator/me": { status: 200, body: [{ ...hold(9), paid: true, payment_state: "paid" }, { ...hold(-1, "b-lapsed") }] },
    });
    page();
    expect(await screen.findByTestId("wizard-step-0")).toBeInTheDocument();
  });
});
