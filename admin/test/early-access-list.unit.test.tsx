import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { EarlyAccessRequestRecord } from "@booking/contracts";
import { App } from "../src/app.tsx";
import { resetConsoleAfterEach } from "./console-fakes.ts";

// Issue 26 item 10: anyone who knows an address can send the early-access form for it, so a later
// request must not erase the earlier one. The console shows the latest request with how many
// versions it replaced, and those versions (who, as what, what they needed, when) under its row.

const request: EarlyAccessRequestRecord = {
  id: "00000000-0000-4000-8000-0000000000ea",
  name: "Not Vic",
  email: "vic@example.com",
  role: "creator",
  need: "Cancel my request",
  created_at: "2026-03-10T09:00:00.000Z",
  updated_at: "2026-03-11T18:30:00.000Z",
  earlier: [{ name: "Vic Tim", role: "expert", need: "Coaching podcasters on growth", asked_at: "2026-03-10T09:00:00.000Z" }],
};

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider } = await import("./console-fakes.ts");
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getList: (resource: string) =>
        resource === "early-access" ? Promise.resolve({ data: [request], total: 1 }) : fakeDataProvider.getList(resource, {} as never),
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

resetConsoleAfterEach();

describe("the early-access list", () => {
  it("shows the latest request, how many it replaced, and the earlier versions under its row", async () => {
    window.location.hash = "#/early-access";
    render(<App />);
    const row = await waitFor(() => screen.getByRole("row", { name: /Not Vic/ }), { timeout: 20_000 });
    expect(row.textContent).toContain("Cancel my request");
    expect(row.textContent).toMatch(/1, last changed/);
    // react-admin hides its expand icon from assistive tech (the row itself expands on click).
    fireEvent.click(row.querySelector('[aria-label="Expand"]')!);
    const earlier = await screen.findByRole("region", { name: "Earlier versions" });
    expect(earlier.textContent).toMatch(/Asked .* by Vic Tim, as an expert/);
    expect(earlier.textContent).toContain("Coaching podcasters on growth");
  }, 60_000);
});
