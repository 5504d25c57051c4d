import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { EarningsBookingReply, EarningsTotalsReply, ExpertEarningsReply, ExpertMonthEarningsReply } from "@booking/contracts";
import type { Booking } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { PaymentsTab } from "./payments-tab.tsx";

/** Replies and renders can take a few seconds on a loaded machine (the default wait is one second). */
const WAIT = { timeout: 10_000 };

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

type Totals = EarningsTotalsReply;
type Row = EarningsBookingReply;

/** Money of earning bookings in one currency: the fee is 15 % of the net, the share the rest. */
const totals = (currency: Totals["currency"], sessions: number, gross: number, refunds: number): Totals => {
  const net = gross - refunds;
  const fee = Math.round(net * 0.15);
  return { currency, sessions, gross_cents: gross, refunds_cents: refunds, net_cents: net, fee_cents: fee, share_cents: net - fee };
};

const earnings: ExpertEarningsReply = {
  expert_id: "expert-1",
  months: [
    { month: "2026-04", ...totals("USD", 1, 9_000, 0) },
    { month: "2026-03", ...totals("USD", 2, 29_000, 9_000) },
  ],
  totals: totals("USD", 3, 38_000, 9_000),
  totals_by_currency: [totals("USD", 3, 38_000, 9_000)],
};

const row = (id: string, title: string, status: Row["status"], gross: number, refunds: number, more: Partial<Row> = {}): Row => {
  const { fee_cents, share_cents, net_cents } = totals("USD", 1, gross, refunds);
  const base = { booking_id: id, session_title: title, scheduled_time: "2026-03-10T10:00:00Z", status, gross_cents: gross };
  return {
    ...base,
    refunds_cents: refunds,
    net_cents,
    fee_basis_points: 1500,
    fee_cents,
    share_cents,
    currency: "USD",
    refund_state: "none",
    ...more,
  };
};

const march: ExpertMonthEarningsReply = {
  ...earnings.months[1]!,
  expert_id: "expert-1",
  by_currency: [earnings.months[1]!],
  bookings: [
    row("b1", "Pricing review", "completed", 15_000, 0),
    row("b2", "Launch plan", "confirmed", 5_000, 0, { scheduled_time: "2026-03-12T10:00:00Z" }),
    row("b3", "Brand deals", "cancelled", 9_000, 9_000, { scheduled_time: "2026-03-20T10:00:00Z", refund_state: "pending" }),
  ],
};

/** The payouts part of the expert's own tab. */
const payoutReplies = {
  "GET /experts/me/payout-account": {
    status: 200,
    body: { status: "none", provider: "test", account_id: null, held: false, held_reason: null, fee_basis_points: 1500 },
  },
  "GET /experts/me/balance": {
    status: 200,
    body: {
      balances: [{ currency: "USD", pending_cents: 12_750, available_cents: 0, payable_cents: 0, in_transit_cents: 0, paid_out_cents: 0 }],
    },
  },
  "GET /experts/me/payouts": { status: 200, body: { payouts: [] } },
  // May has no session: its statement holds April's release (the clearing period ran into May).
  "GET /experts/me/statements": { status: 200, body: { months: ["2026-05", "2026-04", "2026-03"] } },
};

describe("payments tab", () => {
  it("shows the API's months with sessions and totals net of refunds, a month's bookings on demand, and paid requests awaiting acceptance apart", async () => {
    const calls = fakeApi({
      ...payoutReplies,
      "GET /experts/me/earnings": { status: 200, body: earnings },
      "GET /experts/me/earnings/2026-03": { status: 200, body: march },
      "GET /bookings/expert/me": {
        status: 200,
        body: [b("confirmed", 150, "confirmed"), b("new-request", 100, "pending"), b("asked-for-info", 70, "more_info_requested")],
      },
    });
    renderScreen(<PaymentsTab />, { auth: signedInAs("expert") });
    expect(await screen.findByTestId("earnings-total", undefined, WAIT)).toHaveTextContent("$290.00");
    // Month, sessions, refunds, net, then the platform fee and the expert's share (issue 29.1).
    expect(screen.getByRole("row", { name: /March 2026/ })).toHaveTextContent(
      /March 2026\s*2\s*−\$90\.00\s*\$200\.00\s*\$30\.00\s*\$170\.00/,
    );
    expect(screen.getByRole("row", { name: /April 2026/ })).toHaveTextContent(/April 2026\s*1\s*—\s*\$90\.00\s*\$13\.50\s*\$76\.50/);
    expect(screen.getByRole("row", { name: /^Total/ })).toHaveTextContent(/Total\s*3\s*−\$90\.00\s*\$290\.00\s*\$43\.50\s*\$246\.50/);
    expect(await screen.findByTestId("pending-payments", undefined, WAIT)).toHaveTextContent(
      "Awaiting your acceptance: 2 paid requests, $170.00.",
    );

    await userEvent.click(screen.getByRole("button", { name: "March 2026" }));
    const list = await screen.findByRole("table", { name: "Bookings in March 2026" }, WAIT);
    expect(within(list).getAllByRole("row")).toHaveLength(4);
    expect(within(list).getByRole("row", { name: /Brand deals/ })).toHaveTextContent(
      /Brand deals \(cancelled\).*\$90\.00\s*−\$90\.00 Refund pending\s*\$0\.00\s*\$0\.00\s*\$0\.00/,
    );
    // Issue 29.1: each earning shows the platform fee and the expert's share.
    expect(within(list).getByRole("row", { name: /Pricing review/ })).toHaveTextContent(/\$150\.00\s*—\s*\$150\.00\s*\$22\.50\s*\$127\.50/);
    expect(calls.some((c) => c.path === "/experts/me/earnings/2026-03")).toBe(true);
  });

  it("an expert earning in two currencies sees each month and total per currency, never added together (issue 29.8)", async () => {
    const eur = totals("EUR", 1, 20_000, 0);
    fakeApi({
      ...payoutReplies,
      "GET /experts/me/earnings": {
        status: 200,
        body: { ...earnings, months: [earnings.months[1]!, { month: "2026-03", ...eur }], totals_by_currency: [earnings.totals, eur] },
      },
      "GET /experts/me/earnings/2026-03": {
        status: 200,
        body: { ...march, bookings: [...march.bookings, row("b9", "Euro launch", "completed", 20_000, 0, { currency: "EUR" })] },
      },
      "GET /bookings/expert/me": { status: 200, body: [] },
    });
    renderScreen(<PaymentsTab />, { auth: signedInAs("expert") });
    expect(await screen.findByRole("row", { name: /March 2026 \(EUR\)/ }, WAIT)).toHaveTextContent(/1\s*—\s*€200\.00\s*€30\.00\s*€170\.00/);
    expect(screen.getByTestId("earnings-total")).toHaveTextContent("$290.00");
    expect(screen.getByTestId("earnings-total-EUR")).toHaveTextContent("€200.00");
    expect(screen.getByRole("row", { name: /^Total \(EUR\)/ })).toHaveTextContent("€170.00");
    await userEvent.click(screen.getByRole("button", { name: "March 2026 (EUR)" }));
    const list = await screen.findByRole("table", { name: "Bookings in March 2026" }, WAIT);
    expect(within(list).getAllByRole("row")).toHaveLength(2);
    expect(within(list).getByRole("row", { name: /Euro launch/ })).toHaveTextContent(/€200\.00\s*—\s*€200\.00\s*€30\.00\s*€170\.00/);
  });

  it("the expert's own tab shows their payout account, balance, payouts and a statement per month with money, and no withdraw button (issue 29)", async () => {
    fakeApi({
      ...payoutReplies,
      "GET /experts/me/earnings": { status: 200, body: earnings },
      "GET /bookings/expert/me": { status: 200, body: [] },
    });
    renderScreen(<PaymentsTab />, { auth: signedInAs("expert") });
    expect(await screen.findByRole("button", { name: "Connect your payout account" }, WAIT)).toBeInTheDocument();
    expect(await screen.findByRole("table", { name: "Your balance by currency" }, WAIT)).toHaveTextContent("$127.50");
    expect(await screen.findByText("Your payouts will appear here.", undefined, WAIT)).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "PDF: download the March 2026 statement" }, WAIT)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "CSV: download the April 2026 statement" })).toBeInTheDocument();
    // The statements are the API's months, a month without sessions among them.
    expect(screen.getByRole("button", { name: "PDF: download the May 2026 statement" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Withdraw Earnings" })).toBeNull();
    expect(screen.queryByText("Withdrawals are not available yet.")).toBeNull();
  });

  it("an admin looking at an expert's dashboard sees that expert's earnings, and is sent to the console for their payouts", async () => {
    const calls = fakeApi({
      "GET /experts/ux9/earnings": {
        status: 200,
        body: { expert_id: "ux9", months: [], totals: totals("USD", 0, 0, 0), totals_by_currency: [] },
      },
      "GET /bookings/expert/ux9": { status: 200, body: [] },
    });
    renderScreen(<PaymentsTab />, {
      auth: signedInAs("admin"),
      route: "/expert-dashboard/ux9/payments",
      path: "/expert-dashboard/:id/payments",
    });
    expect(await screen.findByText("Payments for your sessions will appear here.", undefined, WAIT)).toBeInTheDocument();
    expect(screen.getByText("This expert's payout account, balance and payouts are in the console.")).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toContain("/experts/ux9/earnings");
    expect(calls.some((c) => c.path.startsWith("/experts/me/"))).toBe(false);
  });
});
