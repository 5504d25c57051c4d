import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { EarningsBookingReply, ExpertEarningsReply, ExpertMonthEarningsReply } from "@booking/contracts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { PaymentsTab } from "./payments-tab.tsx";

// Issue 34.5: a month's bookings in the payments tab come a page at a time. The first page shows
// under the month; "Show more bookings" follows the `Link: rel="next"` header until the last page,
// and the month's row keeps the whole month's totals whatever is loaded.

const WAIT = { timeout: 10_000 };
const totals = {
  currency: "USD" as const,
  sessions: 5,
  gross_cents: 50_000,
  refunds_cents: 0,
  net_cents: 50_000,
  fee_cents: 7_500,
  share_cents: 42_500,
};
const earnings: ExpertEarningsReply = {
  expert_id: "expert-1",
  months: [{ month: "2026-03", ...totals }],
  totals,
  totals_by_currency: [totals],
};
const row = (n: number): EarningsBookingReply => ({
  booking_id: `b${n}`,
  session_title: `Session ${n}`,
  scheduled_time: `2026-03-1${n}T10:00:00Z`,
  status: "completed",
  currency: "USD",
  gross_cents: 10_000,
  refunds_cents: 0,
  net_cents: 10_000,
  fee_basis_points: 1500,
  fee_cents: 1_500,
  share_cents: 8_500,
  refund_state: "none",
});
const month = (rows: EarningsBookingReply[]): ExpertMonthEarningsReply => ({
  month: "2026-03",
  ...totals,
  expert_id: "expert-1",
  by_currency: [{ month: "2026-03", ...totals }],
  bookings: rows,
});
const linkTo = (path: string) => ({ link: `</api/v1${path}>; rel="next"` });

describe("a month's bookings in the payments tab", () => {
  it("load a page at a time until the last, each booking once, in the API's order", async () => {
    const calls = fakeApi({
      "GET /experts/me/payout-account": {
        status: 200,
        body: { status: "none", provider: "test", account_id: null, held: false, held_reason: null, fee_basis_points: 1500 },
      },
      "GET /experts/me/balance": { status: 200, body: { balances: [] } },
      "GET /experts/me/payouts": { status: 200, body: { payouts: [] } },
      "GET /experts/me/statements": { status: 200, body: { months: [] } },
      "GET /bookings/expert/me": { status: 200, body: [] },
      "GET /experts/me/earnings": { status: 200, body: earnings },
      "GET /experts/me/earnings/2026-03": {
        status: 200,
        body: month([row(1), row(2)]),
        headers: linkTo("/experts/me/earnings/2026-03?before=c1&limit=2"),
      },
      "GET /experts/me/earnings/2026-03?before=c1&limit=2": {
        status: 200,
        body: month([row(3), row(4)]),
        headers: linkTo("/experts/me/earnings/2026-03?before=c2&limit=2"),
      },
      "GET /experts/me/earnings/2026-03?before=c2&limit=2": { status: 200, body: month([row(5)]) },
    });
    renderScreen(<PaymentsTab />, { auth: signedInAs("expert") });
    await userEvent.click(await screen.findByRole("button", { name: "March 2026" }, WAIT));
    const list = await screen.findByRole("table", { name: "Bookings in March 2026" }, WAIT);
    const titles = () =>
      within(list)
        .getAllByRole("row")
        .slice(1)
        .map((r) => within(r).queryByText(/^Session \d$/)?.textContent)
        .filter(Boolean);
    await within(list).findByText("Session 2", undefined, WAIT);
    expect(titles()).toEqual(["Session 1", "Session 2"]);
    await userEvent.click(within(list).getByRole("button", { name: "Show more bookings" }));
    await within(list).findByText("Session 4", undefined, WAIT);
    await userEvent.click(within(list).getByRole("button", { name: "Show more bookings" }));
    await within(list).findByText("Session 5", undefined, WAIT);
    expect(titles()).toEqual(["Session 1", "Session 2", "Session 3", "Session 4", "Session 5"]);
    expect(within(list).queryByRole("button", { name: "Show more bookings" })).toBeNull();
    expect(screen.getByRole("row", { name: /^March 2026/ })).toHaveTextContent(/March 2026\s*5\s*—\s*\$500\.00/);
    expect(calls.filter((c) => c.path.startsWith("/experts/me/earnings/2026-03"))).toHaveLength(3);
  });
});
