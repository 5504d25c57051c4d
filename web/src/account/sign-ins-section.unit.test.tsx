import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { SignInsSection } from "./sign-ins-section.tsx";

// Issue 33.5: "Where you're signed in": every active sign-in with its device, this one marked "This
// device" (it is ended by logging out, not from here); any other can be signed out, or all at once.

afterEach(() => vi.unstubAllGlobals());

const signIn = (id: string, device: string, current = false) => ({
  id,
  device,
  first_seen_at: "2026-06-01T09:00:00.000Z",
  last_seen_at: "2026-06-02T10:30:00.000Z",
  current,
});

describe("the sign-ins section", () => {
  it("lists each sign-in with its device; this device has no sign-out; another is signed out, then all the others", async () => {
    let listed = [signIn("s-phone", "Safari on iPhone", true), signIn("s-laptop", "Chrome on Linux"), signIn("s-work", "Edge on Windows")];
    const calls = fakeApi({
      "GET /auth/sign-ins": () => ({ status: 200, body: { sign_ins: listed } }),
      "DELETE /auth/sign-ins/s-laptop": () => ((listed = listed.filter((s) => s.id !== "s-laptop")), { status: 204 }),
      "POST /auth/logout": () => ((listed = listed.filter((s) => s.current)), { status: 204 }),
    });
    renderScreen(<SignInsSection />, { auth: signedInAs("creator") });
    const list = await screen.findByRole("list", { name: "Your sign-ins" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((r) => within(r).getByText(/ on /).textContent)).toEqual(["Safari on iPhone", "Chrome on Linux", "Edge on Windows"]);
    expect(within(rows[0]!).getByText("This device")).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole("button")).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent(/Signed in .*2026.* · last active .*2026/);

    await userEvent.click(within(rows[1]!).getByRole("button", { name: /^Sign out Chrome on Linux/ }));
    expect(await screen.findByText("Chrome on Linux is signed out.")).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: /^Sign out Edge on Windows/ })).toBeInTheDocument();
    expect(screen.queryByText("Chrome on Linux")).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Sign Out Everywhere Else" }));
    expect(await screen.findByText("You are signed out everywhere else.")).toBeInTheDocument();
    expect(screen.queryByText("Edge on Windows")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign Out Everywhere Else" })).not.toBeInTheDocument();
    expect(writes(calls)).toEqual([
      { method: "DELETE", path: "/auth/sign-ins/s-laptop", body: undefined },
      { method: "POST", path: "/auth/logout", body: { scope: "others" } },
    ]);
  });

  it("says so in the catalogue's words when a sign-in had ended already", async () => {
    fakeApi({
      "GET /auth/sign-ins": {
        status: 200,
        body: { sign_ins: [signIn("s-phone", "Safari on iPhone", true), signIn("s-old", "Firefox on Linux")] },
      },
      "DELETE /auth/sign-ins/s-old": {
        status: 404,
        body: { code: "sign_in_not_found", message: "This sign-in was not found. It may have ended already." },
      },
    });
    renderScreen(<SignInsSection />, { auth: signedInAs("creator") });
    await userEvent.click(await screen.findByRole("button", { name: /^Sign out Firefox on Linux/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This sign-in was not found. It may have ended already.");
  });
});
