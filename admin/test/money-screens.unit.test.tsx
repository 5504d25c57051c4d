import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../src/app.tsx";
import { resetConsoleAfterEach } from "./console-fakes.ts";
import { BOOKING, EXPERT } from "./money-fakes.ts";

// Issue 29.3-29.6 in the console: the trial balance says per currency whether it balances; failed
// transfers and payouts show why and how often; the reconciliation runs on demand; a booking's
// page shows its money trail; an expert's page their statement. Money is never added across currencies.

const sent = vi.hoisted(() => ({ create: vi.fn(), statement: vi.fn(), file: vi.fn() }));

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider, hostileRecord } = await import("./console-fakes.ts");
  const { moneyLists, payoutAccounts } = await import("./money-fakes.ts");
  const run = { run_id: "run-2", at: "2026-03-02T09:00:00.000Z", provider: "test", by: "admin", complete: true, note: null };
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getList: (resource: string, params: never) => {
        const list = moneyLists[resource];
        return list ? Promise.resolve({ data: list, total: list.length }) : fakeDataProvider.getList(resource, params);
      },
      getOne: (resource: string, { id }: { id: string }) =>
        resource === "payout-accounts"
          ? Promise.resolve({ data: payoutAccounts.find((a) => a.id === id) })
          : Promise.resolve({ data: { ...hostileRecord(resource, id), paid_cents: 0, refund_due_cents: 0, timeline: [] } }),
      create: (resource: string, params: { data: object }) => {
        sent.create(resource, params.data);
        return Promise.resolve({ data: { ...run, ledger_count: 12, provider_count: 12, difference_count: 0, differences: [] } });
      },
      expertStatementFile: (expertId: string, month: string, format: string) => {
        sent.file(expertId, month, format);
        return Promise.resolve(new Blob(["%PDF-1.7"], { type: "application/pdf" }));
      },
      expertStatement: (expertId: string, month: string) => {
        sent.statement(expertId, month);
        const usd = { currency: "USD", opening_cents: 0, earnings_cents: 15_000, fee_cents: 2_250, refunds_cents: 0 };
        const eur = { currency: "EUR", opening_cents: 8_500, earnings_cents: 0, fee_cents: 0, refunds_cents: 0 };
        return Promise.resolve({
          expert_id: expertId,
          month,
          currencies: [
            { ...usd, transfers_cents: 12_750, reversals_cents: 0, payouts_cents: 0, closing_cents: 12_750 },
            { ...eur, transfers_cents: 0, reversals_cents: 0, payouts_cents: 8_500, closing_cents: 1 },
          ],
        });
      },
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

const { createObjectURL, revokeObjectURL } = URL;

resetConsoleAfterEach(() => {
  Object.assign(URL, { createObjectURL, revokeObjectURL });
  sent.create.mockClear();
  sent.statement.mockClear();
  sent.file.mockClear();
  vi.restoreAllMocks();
});

const text = (element: Element | null) => (element?.textContent ?? "").replace(/\s/g, " ");
const cells = (row: Element) => [...row.querySelectorAll("td")].map(text);

function open(hash: string): void {
  window.location.hash = hash;
  render(<App />);
}

describe("the trial balance", () => {
  it("totals each currency apart and says USD is balanced and EUR is NOT", async () => {
    open("#/trial-balance");
    const usd = await screen.findByTestId("total-USD", {}, { timeout: 20_000 });
    expect(cells(usd)).toEqual(["USD", "USD 150.00", "USD 150.00", "3", "Balanced"]);
    const eur = screen.getByTestId("total-EUR");
    expect(eur.getAttribute("data-balanced")).toBe("false");
    expect(cells(eur)).toEqual(["EUR", "EUR 90.00", "EUR 80.00", "2", "NOT balanced (debits − credits = EUR 10.00)"]);
  }, 60_000);
});

describe("failed transfers and payouts", () => {
  it("the Transfers list shows a failed transfer, its attempts, why it failed and when it is tried next", async () => {
    open("#/transfers");
    const status = await screen.findByTestId("transfer-failed", {}, { timeout: 20_000 });
    const row = cells(status.closest("tr")!);
    expect(row).toEqual(expect.arrayContaining(["USD 127.50", "Failed", "3"]));
    expect(row.find((c) => c.startsWith("Insufficient platform balance"))).toMatch(/Next try .*2026/);
    // A refund after the transfer: the share to take back, and why the provider refuses it.
    const sent = cells(screen.getByTestId("transfer-sent").closest("tr")!);
    expect(sent).toEqual(expect.arrayContaining(["USD 42.50 (failing: The expert's account cannot cover the reversal)"]));
  }, 60_000);

  it("the Payouts list shows a failed payout in its currency with the provider's reason", async () => {
    open("#/payouts");
    const status = await screen.findByTestId("payout-failed", {}, { timeout: 20_000 });
    expect(cells(status.closest("tr")!)).toEqual(
      expect.arrayContaining(["EUR 85.00", "The expert", "Failed", "Bank account closed", "po_1"]),
    );
  }, 60_000);
});

describe("the reconciliation", () => {
  it("lists the latest run's differences and runs it again on demand", async () => {
    open("#/reconciliation");
    const kind = await screen.findByTestId("difference-amount", {}, { timeout: 20_000 });
    expect(cells(kind.closest("tr")!)).toEqual(expect.arrayContaining(["Amounts differ", "Payment", "USD 150.00", "USD 140.00"]));
    expect(text(screen.getByTestId("reconciliation-heading"))).toMatch(/^Differences found by the run at .*run-1/);
    fireEvent.click(screen.getByRole("button", { name: "Run reconciliation now" }));
    await waitFor(() => expect(sent.create).toHaveBeenCalledWith("reconciliation/run", {}));
    expect(text(await screen.findByTestId("reconciliation-run"))).toMatch(
      /no differences; 12 ledger and 12 provider \(test\) movements compared/,
    );
  }, 60_000);
});

describe("a booking's money trail", () => {
  it("shows each posting of the booking, debits and credits in its currency, the event named once", async () => {
    open(`#/bookings/${BOOKING}/show`);
    const trail = await screen.findByRole("table", { name: "Money trail" }, { timeout: 20_000 });
    const rows = [...trail.querySelectorAll("tbody tr")].map((tr) => [tr.getAttribute("data-event-type"), ...cells(tr).slice(1)]);
    expect(rows).toEqual([
      ["PaymentSucceeded", "PaymentSucceeded", "platform_cash", "USD 150.00", ""],
      ["PaymentSucceeded", "", "bookings_held", "", "USD 150.00"],
      ["EarningReleased", "EarningReleased", "bookings_held", "USD 150.00", ""],
      ["EarningReleased", "", "platform_fee_revenue", "", "USD 22.50"],
      ["EarningReleased", "", "expert_payable", "", "USD 127.50"],
    ]);
    expect(trail.querySelector(`tr[data-account="expert_payable:${EXPERT}"]`)).not.toBeNull();
    expect(screen.queryByText(/does not balance/)).toBeNull();
  }, 60_000);
});

describe("an expert's statement", () => {
  it("shows the month per currency, never added, and says which currency does not add up", async () => {
    open(`#/payout-accounts/${EXPERT}/show`);
    const statement = await screen.findByTestId("expert-statement", {}, { timeout: 20_000 });
    expect(sent.statement).toHaveBeenCalledWith(EXPERT, new Date().toISOString().slice(0, 7));
    const header = [...statement.querySelectorAll("thead th")].map(text);
    expect(header.slice(1)).toEqual(["USD", "EUR"]);
    const line = (key: string) => [...statement.querySelectorAll(`tr[data-line="${key}"] td`)].map(text);
    expect(line("earnings_cents")).toEqual(["USD 150.00", "EUR 0.00"]);
    expect(line("fee_cents")).toEqual(["− USD 22.50", "EUR 0.00"]);
    expect(line("closing_cents")).toEqual(["USD 127.50", "EUR 0.01"]);
    expect(text(screen.getByText(/does not add up/))).toMatch(/in EUR:/);
    fireEvent.change(within(screen.getByTestId("expert-statement").parentElement!).getByLabelText("Month"), {
      target: { value: "2026-02" },
    });
    await waitFor(() => expect(sent.statement).toHaveBeenCalledWith(EXPERT, "2026-02"));
  }, 60_000);

  it("downloads the month's statement as the expert gets it, as PDF and as CSV", async () => {
    const saved: string[] = [];
    URL.createObjectURL = () => "blob:statement";
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    open(`#/payout-accounts/${EXPERT}/show`);
    await screen.findByTestId("expert-statement", {}, { timeout: 20_000 });
    const month = new Date().toISOString().slice(0, 7);
    fireEvent.click(screen.getByRole("button", { name: "Download PDF" }));
    await waitFor(() => expect(saved).toEqual([`statement-${month}.pdf`]));
    fireEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toEqual([`statement-${month}.pdf`, `statement-${month}.csv`]));
    expect(sent.file.mock.calls).toEqual([
      [EXPERT, month, "pdf"],
      [EXPERT, month, "csv"],
    ]);
  }, 60_000);
});
