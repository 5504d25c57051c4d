import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";
import { aSession } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { BookSessionPage } from "./book-session-page.tsx";

// Issue 27.6: after paying, a request the expert has still to accept is not "Confirmed": the
// wizard says until when the expert may accept and what happens if they do not.

const session = aSession({ id: "s-1", expert_id: "e-1", expert: { id: "e-1", name: "Maya Lind", first_name: "Maya" } });
const respondBy = "2030-01-03T09:00:00.000Z";
const paidBooking = {
  id: "b-1",
  status: "pending",
  paid: true,
  payment_state: "paid",
  session_id: "s-1",
  session_title: "Deck review",
  scheduled_time: "2030-01-05T10:00:00.000Z",
  expert_name: "Maya Lind",
  session: { title: "Deck review", price: 150, expertFirstName: "Maya" },
  prep_question_1: "Goal?",
  prep_response_1: "Grow",
  respond_by: respondBy,
  instant_booking: false,
} as unknown as Booking;

function atConfirmation(reply: Booking) {
  sessionStorage.setItem(
    "expert-sessions.booking-flow.s-1",
    JSON.stringify({
      bookingId: "b-1",
      bookingData: paidBooking,
      scheduledTime: paidBooking.scheduled_time,
      step: 4,
      reached: 4,
      paid: true,
    }),
  );
  fakeApi({ "GET /sessions/s-1": { status: 200, body: session }, "GET /bookings/b-1": { status: 200, body: reply } });
  renderScreen(<BookSessionPage />, { route: "/book-session/s-1", path: "/book-session/:id", auth: signedInAs("creator") });
}

beforeEach(() => sessionStorage.clear());

describe("the wizard's last step", () => {
  it("a paid request says who has until when to accept, and that it is refunded in full otherwise", async () => {
    atConfirmation(paidBooking);
    expect(await screen.findByRole("heading", { name: "Request sent" })).toBeInTheDocument();
    expect(screen.getByText(`Maya has until ${localMoment(respondBy)} to accept.`, { exact: false })).toBeInTheDocument();
    expect(
      screen.getByText(
        /If Maya does not accept by then, the request is cancelled and everything you paid is refunded in full, automatically/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: /Confirmed/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId("outcome-confirmed")).not.toBeInTheDocument();
  });

  it("an instant booking, accepted on payment, says Confirmed", async () => {
    atConfirmation({ ...paidBooking, status: "confirmed", respond_by: null, instant_booking: true } as unknown as Booking);
    expect(await screen.findByRole("heading", { name: "Confirmed" })).toBeInTheDocument();
    expect(screen.getByTestId("outcome-confirmed")).toBeInTheDocument();
    expect(screen.queryByText(/has until/)).not.toBeInTheDocument();
  });
});
