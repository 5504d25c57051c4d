import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../src/app.tsx";
import { hostileRecord, resetConsoleAfterEach } from "./console-fakes.ts";

// Issue 27.20: the console's Verify/Unverify and Rebuild acted on one click. Vetting now asks for a
// confirmation and a reason (kept with the event, shown in the expert's history); Rebuild asks first.

const expertId = "00000000-0000-4000-8000-0000000000e1";
const sent = vi.hoisted(() => ({ update: vi.fn(), rebuild: vi.fn() }));
const decision = {
  id: "ev-1",
  stream_id: `expert-${expertId}`,
  type: "ExpertVerified",
  recorded_at: "2026-02-01T10:00:00.000Z",
  data: { expertId, by: "admin-1", reason: "Portfolio and two references checked" },
  metadata: { actor: { userId: "admin-1", role: "admin" } },
};

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider, hostileRecord: record } = await import("./console-fakes.ts");
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getOne: (resource: string, { id }: { id: string }) => Promise.resolve({ data: { ...record(resource, id), tags: [] } }),
      getList: (resource: string, params: never) =>
        resource === "events" ? Promise.resolve({ data: [decision], total: 1 }) : fakeDataProvider.getList(resource, params),
      update: (resource: string, params: { id: string; data: object }) => {
        sent.update(resource, params.data);
        return Promise.resolve({ data: { ...record(resource, params.id), ...params.data } });
      },
      rebuildProjection: (name: string) => {
        sent.rebuild(name);
        return Promise.resolve({ started: true });
      },
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

resetConsoleAfterEach(() => {
  sent.update.mockClear();
  sent.rebuild.mockClear();
});

describe("the console's confirmations", () => {
  it("asks for a reason before verifying an expert, sends it, and shows it in the vetting history", async () => {
    window.location.hash = `#/experts/${expertId}/show`;
    render(<App />);
    fireEvent.click(await screen.findByRole("button", { name: "Verify" }, { timeout: 20_000 }));
    const dialog = await screen.findByRole("dialog");
    expect(sent.update).not.toHaveBeenCalled();
    const confirm = within(dialog).getByRole("button", { name: "Verify expert" });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: "Portfolio and references checked" } });
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(sent.update).toHaveBeenCalledWith(
        "experts",
        expect.objectContaining({ verified: true, reason: "Portfolio and references checked" }),
      ),
    );
    expect(await screen.findByText(/Portfolio and two references checked/)).toBeTruthy();
    expect(hostileRecord("experts").verified).toBe(false);
  }, 60_000);

  it("rebuilds a read model only once the admin confirms", async () => {
    window.location.hash = "#/projections";
    render(<App />);
    fireEvent.click(await screen.findByRole("button", { name: /^Rebuild / }, { timeout: 20_000 }));
    const dialog = await screen.findByRole("dialog");
    expect(sent.rebuild).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(sent.rebuild).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    fireEvent.click(await screen.findByRole("button", { name: /^Rebuild / }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Rebuild" }));
    await waitFor(() => expect(sent.rebuild).toHaveBeenCalledTimes(1));
  }, 60_000);
});
