import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../src/app.tsx";
import { resetConsoleAfterEach } from "./console-fakes.ts";
import { EXPERT, HELD_EXPERT } from "./money-fakes.ts";

// Issue 29.2: the console shows each expert's payout account (status, hold and its reason, what is
// available and pending per currency) and lets an admin hold payouts, with a reason, and resume them.

const sent = vi.hoisted(() => ({ create: vi.fn() }));

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider } = await import("./console-fakes.ts");
  const { moneyLists, payoutAccounts } = await import("./money-fakes.ts");
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getList: (resource: string, params: never) => {
        const list = moneyLists[resource];
        return list ? Promise.resolve({ data: list, total: list.length }) : fakeDataProvider.getList(resource, params);
      },
      create: (resource: string, params: { data: object }) => {
        sent.create(resource, params.data);
        return Promise.resolve({ data: payoutAccounts[0] });
      },
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

resetConsoleAfterEach(() => sent.create.mockClear());

const text = (element: Element) => (element.textContent ?? "").replace(/\s/g, " ");

async function rowOf(name: string): Promise<HTMLElement> {
  window.location.hash = "#/payout-accounts";
  render(<App />);
  const cell = await screen.findByText(name, {}, { timeout: 20_000 });
  return cell.closest("tr")!;
}

describe("the payout accounts list", () => {
  it("shows an account's status and, per currency on its own line, what is available and pending", async () => {
    const row = await rowOf("Erin Expert");
    expect(text(row)).toContain("Payouts enabled");
    const lines = [...within(row).getByTestId("payout-balances").children].map(text);
    expect(lines).toEqual(["USD 42.50 available · USD 127.50 pending", "EUR 85.00 available · EUR 0.00 pending"]);
    expect(within(row).queryByTestId("payouts-held")).toBeNull();
  }, 60_000);

  it("shows a held account as held, with the admin's reason", async () => {
    const row = await rowOf("Hal Held");
    expect(text(row)).toContain("Onboarding incomplete");
    expect(text(within(row).getByTestId("payouts-held"))).toBe("HeldChargeback under review");
  }, 60_000);

  it("holds an expert's payouts only with a reason, and sends the reason", async () => {
    await rowOf("Erin Expert");
    fireEvent.click(screen.getByRole("button", { name: "Hold payouts of Erin Expert" }));
    const dialog = await screen.findByRole("dialog");
    const confirm = within(dialog).getByRole("button", { name: "Hold payouts" });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: "   " } });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: "Identity check pending" } });
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(sent.create).toHaveBeenCalledWith(`payout-accounts/${EXPERT}/hold`, {
        reason: "Identity check pending",
      }),
    );
    expect(sent.create).toHaveBeenCalledTimes(1);
  }, 60_000);

  it("resumes a held expert's payouts once the admin confirms", async () => {
    await rowOf("Hal Held");
    expect(screen.queryByRole("button", { name: "Hold payouts of Hal Held" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Resume payouts of Hal Held" }));
    const dialog = await screen.findByRole("dialog");
    expect(sent.create).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Resume payouts" }));
    await waitFor(() => expect(sent.create).toHaveBeenCalledWith(`payout-accounts/${HELD_EXPERT}/resume`, {}));
  }, 60_000);
});
