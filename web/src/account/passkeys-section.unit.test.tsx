import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type * as SimpleWebAuthnBrowser from "@simplewebauthn/browser";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { PasskeysSection } from "./passkeys-section.tsx";

// Issue 33.4: the account's passkeys, named, with where they were added and when last used; adding
// one made on this device (the device's part is @simplewebauthn/browser's, stood in for here), and
// removing one.

const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));
vi.mock("@simplewebauthn/browser", async (actual) => ({ ...(await actual<typeof SimpleWebAuthnBrowser>()), ...browser }));

const OPTIONS = {
  challenge: "cmVnaXN0ZXI",
  rp: { name: "Expert Sessions", id: "localhost" },
  user: { id: "dQ", name: "c", displayName: "C" },
};
const ANSWER = { id: "new", rawId: "new", type: "public-key", response: {}, clientExtensionResults: {} };

beforeEach(() => {
  browser.browserSupportsWebAuthn.mockReturnValue(true);
  browser.startRegistration.mockResolvedValue(ANSWER);
});
afterEach(() => vi.unstubAllGlobals());

const passkey = (id: string, name: string, lastUsed: string | null = null) => ({
  id,
  name,
  device: "Chrome on Linux",
  created_at: "2026-06-01T09:00:00.000Z",
  last_used_at: lastUsed,
  synced: false,
});

describe("the passkeys section", () => {
  it("lists the passkeys, adds one named on this device, and removes one", async () => {
    let listed = [passkey("pk-laptop", "Laptop", "2026-06-02T10:30:00.000Z")];
    const calls = fakeApi({
      "GET /auth/passkeys": () => ({ status: 200, body: { passkeys: listed } }),
      "POST /auth/passkeys/options": { status: 200, body: OPTIONS },
      "POST /auth/passkeys": () => ((listed = [passkey("pk-phone", "Phone"), ...listed]), { status: 201, body: listed[0] }),
      "DELETE /auth/passkeys/pk-laptop": () => ((listed = listed.filter((p) => p.id !== "pk-laptop")), { status: 204 }),
    });
    renderScreen(<PasskeysSection />, { auth: signedInAs("creator") });
    const list = await screen.findByRole("list", { name: "Your passkeys" });
    expect(within(list).getByRole("listitem")).toHaveTextContent(/Laptop.*Added .*2026 on Chrome on Linux · last used .*2026/);

    await userEvent.type(screen.getByLabelText("Passkey name"), " Phone ");
    await userEvent.click(screen.getByRole("button", { name: "Add a Passkey" }));
    expect(await screen.findByText("The passkey “Phone” is added: you can sign in with it now.")).toBeInTheDocument();
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(await screen.findByText(/Added .* · not used yet/)).toBeInTheDocument();
    expect(screen.getByLabelText("Passkey name")).toHaveValue("");

    await userEvent.click(screen.getByRole("button", { name: "Remove Laptop" }));
    expect(await screen.findByText("The passkey “Laptop” is removed: it no longer signs you in.")).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      { method: "POST", path: "/auth/passkeys/options", body: undefined },
      { method: "POST", path: "/auth/passkeys", body: { response: ANSWER, name: "Phone" } },
      { method: "DELETE", path: "/auth/passkeys/pk-laptop", body: undefined },
    ]);
  });

  it("says why a passkey was not added: the catalogue's words, a cancelled prompt, a name too long", async () => {
    const calls = fakeApi({
      "GET /auth/passkeys": { status: 200, body: { passkeys: [] } },
      "POST /auth/passkeys/options": { status: 200, body: OPTIONS },
      "POST /auth/passkeys": { status: 409, body: { code: "passkey_already_registered", message: "x" } },
    });
    renderScreen(<PasskeysSection />, { auth: signedInAs("creator") });
    expect(await screen.findByText("You have no passkeys yet.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Add a Passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This passkey is already registered to your account.");

    browser.startRegistration.mockRejectedValueOnce(Object.assign(new Error("cancelled"), { name: "NotAllowedError" }));
    await userEvent.click(screen.getByRole("button", { name: "Add a Passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("No passkey was used: the request was cancelled or timed out.");

    await userEvent.type(screen.getByLabelText("Passkey name"), "x".repeat(61));
    await userEvent.click(screen.getByRole("button", { name: "Add a Passkey" }));
    expect(screen.getByText("Please give the passkey a name of up to 60 characters.")).toBeInTheDocument();
    expect(writes(calls).filter((c) => c.path === "/auth/passkeys/options")).toHaveLength(2);
  });

  it("offers no adding where the browser cannot make passkeys", async () => {
    browser.browserSupportsWebAuthn.mockReturnValue(false);
    fakeApi({ "GET /auth/passkeys": { status: 200, body: { passkeys: [passkey("pk-1", "Laptop")] } } });
    renderScreen(<PasskeysSection />, { auth: signedInAs("creator") });
    expect(await screen.findByText("This browser cannot create passkeys. Add one from a browser that can.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add a Passkey" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove Laptop" })).toBeInTheDocument();
  });
});
