import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { APPLICATION_STATUSES } from "@booking/contracts";
import { App } from "../src/app.tsx";
import { ApplicationStatusChip } from "../src/applications/application-status.tsx";
import { resetConsoleAfterEach } from "./console-fakes.ts";
import { EXPERT, openBookings } from "./vetting-fakes.ts";

// Issue 30: an expert's page shows where their application stands, lets an admin suspend them (with a reason)
// and then lists their open bookings to resolve, since a suspension cancels none; and shows the standards they keep.

const api = vi.hoisted(() => ({ status: "approved", suspended: vi.fn(), reinstated: vi.fn() }));

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider } = await import("./console-fakes.ts");
  const { approvedExpert, openBookings: open, standing } = await import("./vetting-fakes.ts");
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getOne: (resource: string, params: { id: string }) =>
        resource === "experts"
          ? Promise.resolve({ data: { ...approvedExpert, vetting_status: api.status, verified: api.status === "approved" } })
          : fakeDataProvider.getOne(resource, params as never),
      expertStanding: () => Promise.resolve(standing),
      suspendExpert: (id: string, reason: string) => {
        api.suspended(id, reason);
        api.status = "suspended";
        return Promise.resolve({ status: "suspended", open_bookings: open });
      },
      reinstateExpert: (id: string, reason: string) => {
        api.reinstated(id, reason);
        api.status = "approved";
        return Promise.resolve({ status: "approved", open_bookings: [] });
      },
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

resetConsoleAfterEach(() => {
  api.status = "approved";
  api.suspended.mockClear();
  api.reinstated.mockClear();
});

async function openExpert(): Promise<void> {
  window.location.hash = `#/experts/${EXPERT}/show`;
  render(<App />);
  await screen.findByText("Erin Expert", {}, { timeout: 20_000 });
}

/** The label/value pairs of a `dl`. */
const pairsOf = (list: HTMLElement) =>
  [...list.querySelectorAll("dt")].map((term) => [term.textContent, term.nextElementSibling?.textContent ?? null]);

describe("an expert's vetting on their page", () => {
  it("shows the standards the expert keeps, figure by figure", async () => {
    await openExpert();
    expect(pairsOf(await screen.findByTestId("expert-standing"))).toEqual([
      ["Median time to answer", "3 h 20 min"],
      ["Acceptance rate", "80% of 10 answered requests"],
      ["Cancellations by the expert", "2"],
      ["Average rating", "4.6 of 5 (12 reviews)"],
      ["No-shows", "1 session missed (5% of sessions due)"],
    ]);
  }, 60_000);

  it("suspends an approved expert only with a reason, then lists the open bookings to resolve, each linked", async () => {
    await openExpert();
    expect(screen.getByTestId("vetting-approved").textContent).toBe("Approved");
    fireEvent.click(await screen.findByRole("button", { name: "Suspend" }));
    const ask = await screen.findByRole("dialog");
    const confirm = within(ask).getByRole("button", { name: "Suspend expert" });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(ask).getByLabelText(/Reason/), { target: { value: "Two no-shows this month" } });
    fireEvent.click(confirm);
    await waitFor(() => expect(api.suspended).toHaveBeenCalledWith(EXPERT, "Two no-shows this month"));

    const table = await screen.findByRole("table", { name: "Open bookings to resolve" });
    const resolved = await screen.findByRole("dialog", { name: "Erin Expert is suspended: open bookings to resolve" });
    expect(resolved.textContent).toContain("Nothing was cancelled.");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toMatch(/2026/);
    expect(rows[0]!.textContent).toContain("Confirmed");
    expect(rows[1]!.textContent).toContain("Pending");
    const links = within(table).getAllByRole("link", { name: "Resolve booking" });
    expect(links.map((link) => link.getAttribute("href"))).toEqual(openBookings.map((b) => `#/bookings/${b.id}/show`));

    // The page reads the expert again: suspended, and offered reinstatement.
    fireEvent.click(within(resolved).getByRole("button", { name: "Close" }));
    expect((await screen.findByTestId("vetting-suspended")).textContent).toBe("Suspended");
    expect(await screen.findByRole("button", { name: "Reinstate" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Suspend" })).toBeNull();
  }, 60_000);

  it("reinstates a suspended expert with a reason", async () => {
    api.status = "suspended";
    await openExpert();
    fireEvent.click(await screen.findByRole("button", { name: "Reinstate" }));
    const ask = await screen.findByRole("dialog");
    fireEvent.change(within(ask).getByLabelText(/Reason/), { target: { value: "Explained and apologised" } });
    fireEvent.click(within(ask).getByRole("button", { name: "Reinstate expert" }));
    await waitFor(() => expect(api.reinstated).toHaveBeenCalledWith(EXPERT, "Explained and apologised"));
    expect(await screen.findByRole("button", { name: "Suspend" })).toBeTruthy();
  }, 60_000);
});

describe("the vetting status chip", () => {
  it("names each of the seven statuses in words", () => {
    render(
      <>
        {APPLICATION_STATUSES.map((status) => (
          <ApplicationStatusChip key={status} status={status} />
        ))}
      </>,
    );
    expect(APPLICATION_STATUSES.map((status) => screen.getByTestId(`vetting-${status}`).textContent)).toEqual([
      "Draft",
      "Submitted",
      "In review",
      "Changes requested",
      "Approved",
      "Rejected",
      "Suspended",
    ]);
  });
});
