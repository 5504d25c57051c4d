import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { aBooking } from "../../test/booking-fixture.ts";
import { CancelBookingButton, RELEASE, refundSentence } from "./cancel-booking.tsx";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";

// The cancel dialog says what the cancellation gives back, as the API's answer (the calendar's
// cancellation policy) has it, before anyone confirms.

const booking = aBooking();
const policy = (refund_cents: number, paid_cents = 15_000) => ({
  status: 200,
  body: { refund_cents, paid_cents, full_refund_until: "2030-03-04T10:00:00.000Z" },
});
const cancelled = { status: 200, body: { ...booking, status: "cancelled" } };

async function openDialog() {
  await userEvent.click(screen.getByRole("button", { name: "Cancel Session: Deck review" }));
  return screen.getByRole("dialog", { name: "Cancel this booking?" });
}

describe("the cancel dialog tells what comes back", () => {
  it("a creator cancelling early is told the full amount, then cancels", async () => {
    const calls = fakeApi({ "GET /bookings/b1/cancellation": policy(15_000), "PATCH /bookings/b1/status": cancelled });
    renderScreen(<CancelBookingButton booking={booking} />, { auth: signedInAs("creator") });
    const dialog = await openDialog();
    expect(within(dialog).getByText("Are you sure you want to cancel this booking?")).toBeInTheDocument();
    expect(await within(dialog).findByText("You will get $150 back.")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Yes, Cancel" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PATCH")).toBe(true));
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ status: "cancelled" });
  });

  it("a creator cancelling late is told it is not refunded", async () => {
    fakeApi({ "GET /bookings/b1/cancellation": policy(0) });
    renderScreen(<CancelBookingButton booking={booking} />, { auth: signedInAs("creator") });
    const dialog = await openDialog();
    expect(
      await within(dialog).findByText("It is less than 24 hours before the session, so this cancellation is not refunded."),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/will get/)).not.toBeInTheDocument();
  });

  it("a late cancellation names the booking's own cut-off, the terms it was made under (issue 31.4)", async () => {
    fakeApi({ "GET /bookings/b1/cancellation": policy(0) });
    renderScreen(<CancelBookingButton booking={aBooking({ full_refund_hours: 72 })} />, { auth: signedInAs("creator") });
    const dialog = await openDialog();
    expect(
      await within(dialog).findByText("It is less than 72 hours before the session, so this cancellation is not refunded."),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/24 hours/)).not.toBeInTheDocument();
  });

  it("the expert is told what the creator gets back", async () => {
    fakeApi({ "GET /bookings/b1/cancellation": policy(15_050, 15_050) });
    renderScreen(<CancelBookingButton booking={booking} />, { auth: signedInAs("expert") });
    const dialog = await openDialog();
    expect(await within(dialog).findByText("The creator will get $150.50 back.")).toBeInTheDocument();
  });

  it("an unpaid booking says nothing of refunds", async () => {
    fakeApi({ "GET /bookings/b1/cancellation": policy(0, 0) });
    renderScreen(<CancelBookingButton booking={booking} />, { auth: signedInAs("creator") });
    const dialog = await openDialog();
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "Yes, Cancel" })).toBeEnabled());
    expect(within(dialog).queryByTestId("cancel-refund")).not.toBeInTheDocument();
  });

  it("releasing an unpaid hold does not ask about refunds", async () => {
    const calls = fakeApi({ "PATCH /bookings/b1/status": cancelled });
    renderScreen(<CancelBookingButton booking={booking} wording={RELEASE} />, { auth: signedInAs("creator") });
    await userEvent.click(screen.getByRole("button", { name: "Release this time: Deck review" }));
    const dialog = screen.getByRole("dialog", { name: "Release this time?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Yes, Release" }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["PATCH /bookings/b1/status"]));
  });

  it("amounts are in the booking's currency, whole when they can be", () => {
    const reply = (refund: number) => ({ refund_cents: refund, paid_cents: 15_050, full_refund_until: "2030-01-01T00:00:00.000Z" });
    expect(refundSentence(reply(15_000), true, "USD")).toBe("You will get $150 back.");
    expect(refundSentence(reply(15_050), false, "EUR")).toBe("The creator will get €150.50 back.");
    expect(refundSentence(reply(0), true, "USD", 48)).toBe(
      "It is less than 48 hours before the session, so this cancellation is not refunded.",
    );
  });
});
