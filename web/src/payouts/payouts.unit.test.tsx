import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExpertBalanceReply, PayoutAccountReply, PayoutReply } from "@booking/contracts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { saveFile } from "../shared/save-file.ts";
import { PayoutAccountPanel } from "./payout-account-panel.tsx";
import { PayoutHistory } from "./payout-history.tsx";
import { PayoutsSummary } from "./payouts-section.tsx";
import { StatementDownloads } from "./statement-downloads.tsx";

/** Replies and renders can take a few seconds on a loaded machine (the default wait is one second). */
const WAIT = { timeout: 10_000 };

// Issue 29.2-29.4 and 29.7 on the expert's Payments tab: the payout account, the balance per
// currency with a payout on request, the payouts, and the monthly statements.

vi.mock("../shared/save-file.ts", () => ({ saveFile: vi.fn() }));
afterEach(() => vi.mocked(saveFile).mockClear());

const auth = signedInAs("expert");
const account = (change: Partial<PayoutAccountReply> = {}): PayoutAccountReply => ({
  status: "enabled",
  provider: "test",
  account_id: "acct_1",
  held: false,
  held_reason: null,
  fee_basis_points: 1500,
  ...change,
});
const balance = (currency: "USD" | "EUR", available: number, payable = available): ExpertBalanceReply["balances"][number] => ({
  currency,
  pending_cents: 12_750,
  available_cents: available,
  payable_cents: payable,
  in_transit_cents: 5_000,
  paid_out_cents: 30_000,
});
const payout: PayoutReply = {
  payout_key: "payout-1",
  payout_id: "po_1",
  amount_cents: 8_500,
  currency: "EUR",
  status: "paid",
  failure_reason: null,
  by: "expert",
  requested_at: "2026-03-10T10:00:00Z",
  paid_at: "2026-03-12T10:00:00Z",
};

function summary(acct: PayoutAccountReply, balances: ExpertBalanceReply["balances"], more: Parameters<typeof fakeApi>[0] = {}) {
  const calls = fakeApi({
    "GET /experts/me/payout-account": { status: 200, body: acct },
    "GET /experts/me/balance": { status: 200, body: { balances } },
    ...more,
  });
  renderScreen(<PayoutsSummary />, { auth, others: { "/payouts/test-onboarding": <p>Test onboarding</p> } });
  return calls;
}

describe("payout account", () => {
  it("without one: connecting it asks the API for an account and goes on to its onboarding", async () => {
    const calls = summary(account({ status: "none", account_id: null }), [], {
      "POST /experts/me/payout-account": {
        status: 201,
        body: { onboarding_url: `${window.location.origin}/payouts/test-onboarding?account=acct_1` },
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Connect your payout account" }, WAIT));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/payouts/test-onboarding"), WAIT);
    expect(writes(calls).map((c) => `${c.method} ${c.path}`)).toEqual(["POST /experts/me/payout-account"]);
  });

  it("incomplete: asks to finish connecting it, and says why a connection failed", async () => {
    summary(account({ status: "incomplete" }), [], {
      "POST /experts/me/payout-account": { status: 409, body: { code: "payout_account_exists", message: "x" } },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Finish connecting your payout account" }, WAIT));
    expect(await screen.findByRole("alert", undefined, WAIT)).toHaveTextContent("A payout account is already connected.");
  });

  it("enabled: says it is connected; held: says so with the admin's reason", () => {
    renderScreen(<PayoutAccountPanel account={account({ held: true, held_reason: "Identity check pending." })} />, { auth });
    expect(screen.getByTestId("payout-account-status")).toHaveTextContent("Payout account connected");
    expect(screen.queryByRole("button", { name: /payout account/ })).toBeNull();
    expect(screen.getByTestId("payouts-held")).toHaveTextContent("Your payouts are on hold");
    expect(screen.getByTestId("payouts-held")).toHaveTextContent("Reason: Identity check pending.");
  });
});

describe("balance", () => {
  it("shows each currency apart and explains when pending money is released", async () => {
    summary(account(), [balance("USD", 4_000), balance("EUR", 0)]);
    const table = await screen.findByRole("table", { name: "Your balance by currency" }, WAIT);
    expect(within(table).getByRole("row", { name: /USD/ })).toHaveTextContent(/USD\s*\$127\.50\s*\$40\.00\s*\$50\.00\s*\$300\.00/);
    expect(within(table).getByRole("row", { name: /EUR/ })).toHaveTextContent(/EUR\s*€127\.50\s*€0\.00\s*€50\.00\s*€300\.00/);
    expect(screen.getByTestId("balance-explained")).toHaveTextContent("released 7 days after the session is completed");
  });

  it("offers a payout only from the minimum up, and only to a connected account that is not held", async () => {
    summary(account({ status: "incomplete" }), [balance("USD", 4_000)]);
    const button = await screen.findByRole("button", { name: /Request payout/ }, WAIT);
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription("Finish connecting your payout account to request a payout.");
  });

  it("below the minimum the button says from how much it can be asked", async () => {
    summary(account(), [balance("EUR", 1_999)]);
    const button = await screen.findByRole("button", { name: /Request payout/ }, WAIT);
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription("You can request a payout once €20 is available.");
  });

  it("money released but not yet transferred to the payout account cannot be asked for yet, and the button says why", async () => {
    summary(account(), [balance("USD", 12_750, 0)]);
    const button = await screen.findByRole("button", { name: /Request payout/ }, WAIT);
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      "Your money is on its way to your payout account. You can request a payout once it has arrived.",
    );
  });

  it("held payouts cannot be requested", async () => {
    summary(account({ held: true, held_reason: "Dispute" }), [balance("USD", 4_000)]);
    expect(await screen.findByRole("button", { name: /Request payout/ }, WAIT)).toHaveAccessibleDescription("Your payouts are on hold.");
  });

  it("requests a payout of the currency's available money and says so", async () => {
    const calls = summary(account(), [balance("USD", 0), balance("EUR", 8_500)], {
      "POST /experts/me/payouts": { status: 201, body: { ...payout, status: "requested", payout_id: null, paid_at: null } },
    });
    const eur = within(await screen.findByRole("row", { name: /EUR/ }, WAIT)).getByRole("button", { name: "Request payout of €85.00" });
    expect(within(screen.getByRole("row", { name: /USD/ })).getByRole("button", { name: /Request payout/ })).toBeDisabled();
    await userEvent.click(eur);
    expect(await screen.findByRole("status", undefined, WAIT)).toHaveTextContent("Payout of €85.00 requested.");
    expect(writes(calls)).toEqual([{ method: "POST", path: "/experts/me/payouts", body: { currency: "EUR" } }]);
    // The balance is read again after the payout.
    await waitFor(() => expect(calls.filter((c) => c.path === "/experts/me/balance")).toHaveLength(2), WAIT);
  });

  it("shows the API's refusal in the catalogue's words", async () => {
    summary(account(), [balance("USD", 4_000)], {
      "POST /experts/me/payouts": { status: 409, body: { code: "payout_account_incomplete", message: "x" } },
    });
    await userEvent.click(await screen.findByRole("button", { name: /Request payout/ }, WAIT));
    expect(await screen.findByRole("alert", undefined, WAIT)).toHaveTextContent(
      "Your payout account is not ready yet: finish connecting it to receive payouts.",
    );
  });
});

describe("payouts and statements", () => {
  it("lists payouts with amount, who asked, status and dates; a failed one says why and that the money is back", () => {
    const failed: PayoutReply = {
      ...payout,
      payout_key: "p2",
      status: "failed",
      failure_reason: "Bank account closed",
      by: "schedule",
      paid_at: null,
    };
    renderScreen(<PayoutHistory payouts={[payout, failed]} />, { auth });
    const rows = within(screen.getByRole("table", { name: "Your payouts" })).getAllByRole("row");
    expect(rows[1]).toHaveTextContent(/March 10, 2026.*You\s*€85\.00\s*Paid\s*.*March 12, 2026/);
    expect(rows[2]).toHaveTextContent(/Weekly payout\s*€85\.00\s*Failed: Bank account closed\. The money is available again\.\s*—/);
  });

  it("downloads a month's statement as PDF or CSV with the session's token", async () => {
    const calls = fakeApi({
      "GET /experts/me/statements/2026-03.pdf": { status: 200, body: "pdf" },
      "GET /experts/me/statements/2026-03.csv": { status: 200, body: "csv" },
    });
    renderScreen(<StatementDownloads months={["2026-04", "2026-03"]} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "PDF: download the March 2026 statement" }));
    await userEvent.click(screen.getByRole("button", { name: "CSV: download the March 2026 statement" }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(2), WAIT);
    expect(vi.mocked(saveFile).mock.calls.map(([, name]) => name)).toEqual(["statement-2026-03.pdf", "statement-2026-03.csv"]);
    expect(calls.map((c) => c.path)).toEqual(["/experts/me/statements/2026-03.pdf", "/experts/me/statements/2026-03.csv"]);
  });

  it("says why a statement could not be downloaded", async () => {
    fakeApi({});
    renderScreen(<StatementDownloads months={["2026-04"]} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "PDF: download the April 2026 statement" }));
    expect(await screen.findByRole("alert", undefined, WAIT)).toBeInTheDocument();
    expect(saveFile).not.toHaveBeenCalled();
  });
});
