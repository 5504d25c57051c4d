import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { browserZone } from "../shared/local-time.ts";
import { saveFile } from "../shared/save-file.ts";
import { ManageBookingSteps } from "../manage-booking/manage-booking-page.tsx";
import { BookingReceipts, type Receipt } from "./booking-receipts.tsx";

/** Replies and renders can take a few seconds on a loaded machine (the default wait is one second). */
const WAIT = { timeout: 10_000 };

// Issue 29.7: a paid booking's receipts, one PDF per payment and per refund, for its creator.

vi.mock("../shared/save-file.ts", () => ({ saveFile: vi.fn() }));
afterEach(() => vi.mocked(saveFile).mockClear());

const booking = aBooking({ id: "b1", creator_id: "c1", paid_cents: 15_000 });
const receipts: Receipt[] = [
  {
    kind: "payment",
    key: "ev-pay",
    amount_cents: 15_000,
    currency: "USD",
    at: "2030-03-01T10:00:00Z",
    url: "/api/v1/bookings/b1/receipts/ev-pay.pdf",
  },
  {
    kind: "refund",
    key: "ev-ref",
    amount_cents: 7_500,
    currency: "USD",
    at: "2030-03-02T10:00:00Z",
    url: "/api/v1/bookings/b1/receipts/ev-ref.pdf",
  },
];

describe("receipts", () => {
  it("the creator of a paid booking sees one link per payment and refund, and downloads its PDF", async () => {
    // The reader's zone goes with the file, for an account that has none saved.
    const file = `/bookings/b1/receipts/ev-ref.pdf?tz=${encodeURIComponent(browserZone())}`;
    const calls = fakeApi({
      "GET /bookings/b1/receipts": { status: 200, body: { receipts } },
      [`GET ${file}`]: { status: 200, body: "pdf" },
    });
    renderScreen(<BookingReceipts booking={booking} />, { auth: signedInAs("creator", { id: "c1" }) });
    expect(screen.getByRole("heading", { name: "Receipts" })).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: /Payment receipt: \$150\.00, .*March 1, 2030 \(PDF\)/ }, WAIT)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: /Refund receipt: \$75\.00/ }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1), WAIT);
    expect(vi.mocked(saveFile).mock.calls[0]![1]).toBe("refund-receipt-ev-ref.pdf");
    expect(calls.map((c) => c.path)).toContain(file);
  });

  it("nothing for an unpaid booking, nor for anyone but its creator or an admin", () => {
    const calls = fakeApi({});
    const { unmount } = renderScreen(<BookingReceipts booking={{ ...booking, paid_cents: 0 }} />, {
      auth: signedInAs("creator", { id: "c1" }),
    });
    expect(screen.queryByRole("heading", { name: "Receipts" })).toBeNull();
    unmount();
    renderScreen(<BookingReceipts booking={booking} />, { auth: signedInAs("creator", { id: "someone-else" }) });
    expect(screen.queryByRole("heading", { name: "Receipts" })).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it("Manage Booking shows them to an admin helping the creator, not to the expert", async () => {
    fakeApi({ "GET /bookings/b1/receipts": { status: 200, body: { receipts } } });
    const { unmount } = renderScreen(<ManageBookingSteps booking={booking} schedule={null} />, { auth: signedInAs("admin", { id: "a1" }) });
    expect(await screen.findByRole("button", { name: /Payment receipt/ }, WAIT)).toBeInTheDocument();
    unmount();
    renderScreen(<ManageBookingSteps booking={booking} schedule={null} />, { auth: signedInAs("expert", { id: "ux1" }) });
    expect(screen.queryByRole("heading", { name: "Receipts" })).toBeNull();
  });
});
