import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen } from "../../test/screen-harness.tsx";
import { saveFile } from "../shared/save-file.ts";
import { YourData, yourDataFileName } from "./your-data.tsx";

// Issue 33.3: "Download your data" on the account saves GET /me/export as one JSON file; a refusal is shown as the API words it.

vi.mock("../shared/save-file.ts", () => ({ saveFile: vi.fn() }));
afterEach(() => vi.mocked(saveFile).mockClear());

describe("downloading your data", () => {
  it("saves the export under the product's name and today's date", async () => {
    const calls = fakeApi({ "GET /me/export": { status: 200, body: { format: "expert-sessions-export/1" } } });
    renderScreen(<YourData />);
    await userEvent.click(screen.getByRole("button", { name: "Download your data" }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain("GET /me/export");
    expect(vi.mocked(saveFile).mock.calls[0]![1]).toBe(yourDataFileName(new Date().toISOString().slice(0, 10)));
    expect(yourDataFileName("2026-11-28")).toBe("expert-sessions-data-2026-11-28.json");
  });

  it("shows the API's message when the download is refused", async () => {
    fakeApi({
      "GET /me/export": { status: 401, body: { code: "session_expired", message: "Your session has expired. Please log in again." } },
    });
    renderScreen(<YourData />);
    await userEvent.click(screen.getByRole("button", { name: "Download your data" }));
    expect(await screen.findByText("Your session has expired. Please log in again.")).toBeInTheDocument();
    expect(saveFile).not.toHaveBeenCalled();
  });
});
