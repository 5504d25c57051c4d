import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../shared/screen-harness.tsx";
import { PaymentsTab } from "./payments-tab.tsx";

const b = (id: string, price: number, status: Booking["status"], more: Partial<Booking> = {}) =>
  ({ id, scheduled_time: "2026-03-10T10:00:00Z", length_minutes: 60, price, status, paid: true, payment_state: "paid", ...more }) as Booking;

describe("payments tab", () => {
  it("counts only accepted (confirmed or completed) paid bookings, net of refunds, and shows paid requests awaiting acceptance apart", async () => {
    fakeApi({
      "GET /bookings/expert/me": {
        status: 200,
        body: [
          b("confirmed", 150, "confirmed"),
          b("completed", 50, "completed"),
          b("new-request", 100, "pending"),
          b("asked-for-info", 70, "more_info_requested"),
          b("refunded", 90, "cancelled", { payment_state: "refund_due" }),
          b("unpaid", 80, "pending", { paid: false, payment_state: "unpaid" }),
        ],
      },
    });
    renderScreen(<PaymentsTab />, { auth: signedInAs("expert") });
    expect(await screen.findByTestId("earnings-total")).toHaveTextContent("$200.00");
    expect(screen.getByRole("row", { name: /March 2026/ })).toHaveTextContent(/March 2026\s*2\s*\$200\.00/);
    expect(screen.getByTestId("pending-payments")).toHaveTextContent("Awaiting your acceptance: 2 paid requests, $170.00.");
  });
});
