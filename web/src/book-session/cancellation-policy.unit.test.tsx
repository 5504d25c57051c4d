import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { aBooking, aSession } from "../../test/booking-fixture.ts";
import { localMoment } from "../shared/local-time.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { BookSessionPage } from "./book-session-page.tsx";
import { PaymentStep } from "./payment-step.tsx";

// The creator sees the cancellation policy before paying (detail and payment steps) and after
// (confirmation): in words before a time is held, with the booking's own deadline from the API after.

const session = aSession();
const booking: Booking = aBooking({ status: "pending", paid: false, payment_state: "unpaid" });
const DEADLINE = "2030-03-04T10:00:00.000Z";
const policyReply = { status: 200, body: { refund_cents: 0, paid_cents: 0, full_refund_until: DEADLINE } };
const auth = signedInAs("creator");
const AFTER =
  "Later cancellations are not refunded. If Maya declines or cancels, or you cancel before Maya accepts your request, you are refunded in full.";

beforeEach(() => sessionStorage.clear());

describe("the cancellation policy in the booking wizard", () => {
  it("the detail step states the rule before any time is chosen", async () => {
    const calls = fakeApi({ "GET /sessions/s1": { status: 200, body: session } });
    renderScreen(<BookSessionPage />, { route: "/book-session/s1", path: "/book-session/:id", auth });
    const policy = await screen.findByTestId("cancellation-policy");
    expect(policy).toHaveTextContent(/^Cancellation policy/);
    expect(policy).toHaveTextContent(`Cancel at least 24 hours before the session and you get a full refund. ${AFTER}`);
    expect(policy).toHaveTextContent("You can ask to move it until 24 hours before the start.");
    expect(calls.some((c) => c.path.endsWith("/cancellation"))).toBe(false);
  });

  it("the detail step states the session's own cut-offs, before any time is held (issue 31.4)", async () => {
    fakeApi({ "GET /sessions/s1": { status: 200, body: aSession({ full_refund_hours: 48, reschedule_hours: 12 }) } });
    renderScreen(<BookSessionPage />, { route: "/book-session/s1", path: "/book-session/:id", auth });
    const policy = await screen.findByTestId("cancellation-policy");
    expect(policy).toHaveTextContent(`Cancel at least 48 hours before the session and you get a full refund. ${AFTER}`);
    expect(policy).toHaveTextContent("You can ask to move it until 12 hours before the start.");
    expect(policy).not.toHaveTextContent(/24 hours/);
  });

  it("the payment step gives the booking's own deadline, from the API", async () => {
    fakeApi({
      "POST /stripe/test-intent": { status: 200, body: { clientSecret: "secret", paymentId: "p", amount: 15000, publishableKey: null } },
      "GET /bookings/b1/cancellation": policyReply,
    });
    renderScreen(<PaymentStep booking={booking} onPaid={() => undefined} onStartOver={() => undefined} />, { auth });
    expect(
      await screen.findByText(`Cancel before ${localMoment(DEADLINE)} and you get a full refund.`, { exact: false }),
    ).toBeInTheDocument();
    expect(screen.getByTestId("cancellation-policy")).toHaveTextContent(AFTER);
    expect(screen.getByTestId("cancellation-policy")).toHaveTextContent("You can ask to move it until 24 hours before the start.");
  });

  it("the payment step names the move notice the booking was made under (issue 31.4)", async () => {
    fakeApi({
      "POST /stripe/test-intent": { status: 200, body: { clientSecret: "secret", paymentId: "p", amount: 15000, publishableKey: null } },
      "GET /bookings/b1/cancellation": policyReply,
    });
    const booked = { ...booking, full_refund_hours: 72, reschedule_hours: 48 };
    renderScreen(<PaymentStep booking={booked} onPaid={() => undefined} onStartOver={() => undefined} />, { auth });
    expect(await screen.findByText(/You can ask to move it until 48 hours before the start\./)).toBeInTheDocument();
  });

  it("the confirmation step repeats it", async () => {
    fakeApi({ "GET /sessions/s1": { status: 200, body: session }, "GET /bookings/b1/cancellation": policyReply });
    const paidBooking = { ...booking, paid: true, payment_state: "paid" };
    sessionStorage.setItem(
      "expert-sessions.booking-flow.s1",
      JSON.stringify({ bookingId: "b1", bookingData: paidBooking, scheduledTime: booking.scheduled_time, step: 4, reached: 4, paid: true }),
    );
    renderScreen(<BookSessionPage />, { route: "/book-session/s1", path: "/book-session/:id", auth });
    expect(await screen.findByRole("heading", { name: "Request sent" })).toBeInTheDocument();
    expect(
      await screen.findByText(`Cancel before ${localMoment(DEADLINE)} and you get a full refund.`, { exact: false }),
    ).toBeInTheDocument();
  });
});
