import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { zoneText } from "@booking/contracts";
import { App } from "../src/app.tsx";

// Issue 27.15: the console wrote 'Dec 4, 2026, 5:00 AM' (no zone) and, in the Refunds list, '12/2/2026, 9:00:00 AM'.
// Every list writes a moment one way: the admin's locale, weekday and month name, and the zone named.

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider } = await import("./console-fakes.ts");
  return { ...(await original<object>()), dataProvider: fakeDataProvider };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

const AT = "2026-01-10T12:00:00.000Z"; // every time of the fake records
const adminZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

afterEach(() => {
  cleanup();
  localStorage.clear();
  window.location.hash = "";
  vi.restoreAllMocks();
});

async function firstRowOf(list: string): Promise<string> {
  vi.spyOn(navigator, "language", "get").mockReturnValue("en-GB");
  window.location.hash = `#/${list}`;
  render(<App />);
  const rows = await waitFor(
    () => {
      const found = screen.getAllByRole("row");
      expect(found.length).toBeGreaterThan(1);
      return found;
    },
    { timeout: 20_000 },
  );
  return rows[1]!.textContent ?? "";
}

describe("dates in the console's lists", () => {
  it("the Refunds list writes when a refund was owed and is tried next with the day in words and the zone named", async () => {
    const row = await firstRowOf("refunds");
    expect(row).toContain(`Saturday, 10 January 2026, `);
    expect(row.split(`(${zoneText(AT, adminZone)})`).length - 1).toBe(2); // owed since, and the next try
    expect(row).not.toMatch(/\d+\/\d+\/\d+/);
  }, 60_000);

  it("the Bookings list writes the scheduled and booked times with the day in words and the zone named", async () => {
    const row = await firstRowOf("bookings");
    expect(row.split(`Saturday, 10 January 2026, `).length - 1).toBe(2);
    expect(row).toContain(`(${zoneText(AT, adminZone)})`);
  }, 60_000);
});
