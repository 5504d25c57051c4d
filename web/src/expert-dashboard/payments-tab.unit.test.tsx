import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ExpertEarningsReply, ExpertMonthEarningsReply } from "@booking/contracts";
import type { Booking } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../shared/screen-harness.tsx";
import { PaymentsTab } from "./payments-tab.tsx";

const b = (id: string, price: number, status: Booking["status"], more: Partial<Booking> = {}) =>
  ({
    id,
    scheduled_time: "2026-03-10T10:00:00Z",
    length_minutes: 60,
    price,
    status,
    paid: true,
    payment_state: "paid",
    ...more,
  }) as Booking;

const earnings: ExpertEarningsReply = {
  expert_id: "expert-1",
  months: [
    { month: "2026-04", sessions: 1, gross_cents: 9_000, refunds_cents: 0, net_cents: 9_000 },
    { month: "2026-03", sessions: 2, gross_cents: 29_000, refunds_cents: 9_000, net_cents: 20_000 },
  ],
  totals: { sessions: 3, gross_cents: 38_000, refunds_cents: 9_000, net_cents: 29_000 },
};

const march: ExpertMonthEarningsReply = {
  ...earnings.months[1]!,
  expert_id: "expert-1",
  bookings: [
    {
      booking_id: "b1",
      session_title: "Pricing review",
      scheduled_time: "2026-03-10T10:00:00Z",
      status: "completed",
      gross_cents: 15_000,
      refunds_cents: 0,
      net_cents: 15_000,
      refund_state: "none",
    },
    {
      booking_id: "b2",
      session_title: "Launch plan",
      scheduled_time: "2026-03-12T10:00:00Z",
      status: "confirmed",
      gross_cents: 5_000,
      refunds_cents: 0,
      net_cents: 5_000,
      refund_state: "none",
    },
    {
      booking_id: "b3",
      session_title: "Brand deals",
      scheduled_time: "2026-03-20T10:00:00Z",
      status: "cancelled",
      gross_cents: 9_000,
      refunds_cents: 9_000,
      net_cents: 0,
      refund_state: "pending",
    },
  ],
};

describe("payments tab", () => {
  it("shows the API's months with sessions and totals net of refunds, a month's bookings on demand, and paid requests awaiting acceptance apart", async () => {
    const calls = fakeApi({
      "GET /experts/me/earnings": { status: 200, body: earnings },
      "GET /experts/me/earnings/2026-03": { status: 200, body: march },
      "GET /bookings/expert/me": {
        status: 200,
        body: [b("confirmed", 150, "confirmed"), b("new-request", 100, "pending"), b("asked-for-info", 70, "more_info_requested")],
      },
    });
    renderScreen(<PaymentsTab />, { auth: signedInAs("expert") });
    expect(await screen.findByTestId("earnings-total")).toHaveTextContent("$290.00");
    expect(screen.getByRole("row", { name: /March 2026/ })).toHaveTextContent(/March 2026\s*2\s*−\$90\.00\s*\$200\.00/);
    expect(screen.getByRole("row", { name: /April 2026/ })).toHaveTextContent(/April 2026\s*1\s*—\s*\$90\.00/);
    expect(await screen.findByTestId("pending-payments")).toHaveTextContent("Awaiting your acceptance: 2 paid requests, $170.00.");

    await userEvent.click(screen.getByRole("button", { name: "March 2026" }));
    const list = await screen.findByRole("table", { name: "Bookings in March 2026" });
    expect(within(list).getAllByRole("row")).toHaveLength(4);
    expect(within(list).getByRole("row", { name: /Brand deals/ })).toHaveTextContent(
      /Brand deals \(cancelled\).*\$90\.00\s*−\$90\.00 Refund pending\s*\$0\.00/,
    );
    expect(calls.some((c) => c.path === "/experts/me/earnings/2026-03")).toBe(true);
  });

  it("an admin looking at an expert's dashboard sees that expert's earnings; withdrawing says it is not available yet", async () => {
    const calls = fakeApi({
      "GET /experts/ux9/earnings": {
        status: 200,
        body: { expert_id: "ux9", months: [], totals: { sessions: 0, gross_cents: 0, refunds_cents: 0, net_cents: 0 } },
      },
      "GET /bookings/expert/ux9": { status: 200, body: [] },
    });
    renderScreen(<PaymentsTab />, {
      auth: signedInAs("admin"),
      route: "/expert-dashboard/ux9/payments",
      path: "/expert-dashboard/:id/payments",
    });
    expect(await screen.findByText("Payments for your sessions will appear here.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Withdraw Earnings" })).toBeDisabled();
    expect(screen.getByText("Withdrawals are not available yet.")).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toContain("/experts/ux9/earnings");
  });
});
