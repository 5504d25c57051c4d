import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type * as SimpleWebAuthnBrowser from "@simplewebauthn/browser";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { errorCatalogue } from "@booking/contracts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { DeleteAccount } from "./delete-account.tsx";

// Issue 33.2: "Delete your account" on the account page. A confirm step says what goes and what stays and asks the
// password (and a code with two-factor sign-in on), or, for a person with a passkey (issue 33.4), offers the passkey
// in their place; the API's refusals are shown in its words; once erased, the person is signed out to the landing page.

// The device's part is @simplewebauthn/browser's, stood in for here; no passkeys in this browser unless a test says so.
const browser = vi.hoisted(() => ({ browserSupportsWebAuthn: vi.fn(() => false), startAuthentication: vi.fn() }));
vi.mock("@simplewebauthn/browser", async (actual) => ({ ...(await actual<typeof SimpleWebAuthnBrowser>()), ...browser }));

beforeEach(() => browser.browserSupportsWebAuthn.mockReturnValue(false));
afterEach(() => vi.unstubAllGlobals());

const OFF = { enrolled: false, enrolled_at: null, recovery_codes_left: 0, required: false };
const ON = { enrolled: true, enrolled_at: "2026-06-01T09:00:00.000Z", recovery_codes_left: 10, required: false };
const OPEN_BOOKING =
  "Your account cannot be deleted while you have 1 open booking: “Pricing review” on 2030-03-05. Cancel or finish it first.";
const PASSKEY = {
  id: "pk-1",
  name: "Laptop",
  device: "Chrome on Linux",
  created_at: "2026-06-01T09:00:00.000Z",
  last_used_at: null,
  synced: false,
};
const ERASED = { status: 200, body: { user_id: "creator-1", erased_at: "2030-03-05T11:30:00.000Z" } };

const open = () => renderScreen(<DeleteAccount />, { route: "/account", path: "/account", auth: signedInAs("creator") });

describe("deleting your account", () => {
  it("asks again before anything is deleted, and can be left", async () => {
    const calls = fakeApi({ "GET /auth/two-factor": { status: 200, body: OFF } });
    open();
    await userEvent.click(screen.getByRole("button", { name: "Delete your account" }));
    expect(screen.getByText(/This cannot be undone/)).toBeInTheDocument();
    expect(screen.getByText(/shown as made by “Deleted user”/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Keep My Account" }));
    expect(screen.getByRole("button", { name: "Delete your account" })).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
  });

  it("takes the password, shows why it is refused, and once erased signs out to the landing page", async () => {
    let reply: object = { status: 403, body: { code: "erasure_password_wrong", message: errorCatalogue.erasure_password_wrong.message } };
    const calls = fakeApi({ "GET /auth/two-factor": { status: 200, body: OFF }, "POST /me/erasure": () => reply as never });
    open();
    await userEvent.click(screen.getByRole("button", { name: "Delete your account" }));
    await userEvent.click(screen.getByRole("button", { name: "Delete My Account for Good" }));
    expect(screen.getByText("Please enter your password.")).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);

    await userEvent.type(screen.getByLabelText("Your Password"), "not-it-1");
    await userEvent.click(screen.getByRole("button", { name: "Delete My Account for Good" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(errorCatalogue.erasure_password_wrong.message);
    expect(screen.getByText("This is not your password.")).toBeInTheDocument();

    reply = { status: 409, body: { code: "erasure_open_bookings", message: OPEN_BOOKING } };
    await userEvent.click(screen.getByRole("button", { name: "Delete My Account for Good" }));
    expect(await screen.findByText(OPEN_BOOKING)).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/account");

    reply = ERASED;
    await userEvent.click(screen.getByRole("button", { name: "Delete My Account for Good" }));
    expect(await screen.findByTestId("location")).toHaveTextContent(/^\/$/);
    expect(writes(calls).map((c) => c.body)).toEqual(Array(3).fill({ current_password: "not-it-1" }));
  });

  it("with two-factor sign-in on, asks a code too and sends it", async () => {
    const calls = fakeApi({ "GET /auth/two-factor": { status: 200, body: ON }, "POST /me/erasure": ERASED });
    open();
    await userEvent.click(screen.getByRole("button", { name: "Delete your account" }));
    await userEvent.type(screen.getByLabelText("Your Password"), "my-password-1");
    await userEvent.click(await screen.findByRole("button", { name: "Delete My Account for Good" }));
    expect(await screen.findByText("Please enter the 6-digit code from your authenticator app.")).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
    await userEvent.type(screen.getByLabelText("6-digit code"), "123 456");
    await userEvent.click(screen.getByRole("button", { name: "Delete My Account for Good" }));
    expect(await screen.findByTestId("location")).toHaveTextContent(/^\/$/);
    expect(writes(calls)).toEqual([{ method: "POST", path: "/me/erasure", body: { current_password: "my-password-1", code: "123456" } }]);
  });

  it("with a passkey, confirms with it in place of the password and the code, and says why one was refused", async () => {
    browser.browserSupportsWebAuthn.mockReturnValue(true);
    const options = { challenge: "ZXJhc2U", rpId: "localhost", allowCredentials: [{ id: "pk", type: "public-key" }] };
    const answer = { id: "pk", rawId: "pk", type: "public-key", response: {}, clientExtensionResults: {} };
    browser.startAuthentication.mockRejectedValueOnce(Object.assign(new Error("cancelled"), { name: "NotAllowedError" }));
    browser.startAuthentication.mockResolvedValue(answer);
    let reply: object = { status: 400, body: { code: "passkey_unknown", message: errorCatalogue.passkey_unknown.message } };
    const calls = fakeApi({
      "GET /auth/two-factor": { status: 200, body: ON },
      "GET /auth/passkeys": { status: 200, body: { passkeys: [PASSKEY] } },
      "POST /me/erasure/passkey/options": { status: 200, body: options },
      "POST /me/erasure": () => reply as never,
    });
    open();
    await userEvent.click(screen.getByRole("button", { name: "Delete your account" }));
    const confirm = await screen.findByRole("button", { name: "Confirm with a passkey" });
    expect(screen.getByLabelText("Your Password")).toBeInTheDocument();

    await userEvent.click(confirm);
    expect(await screen.findByRole("alert")).toHaveTextContent("No passkey was used: the request was cancelled or timed out.");
    await userEvent.click(confirm);
    expect(await screen.findByRole("alert")).toHaveTextContent(errorCatalogue.passkey_unknown.message);
    expect(screen.getByTestId("location")).toHaveTextContent("/account");

    reply = ERASED;
    await userEvent.click(confirm);
    expect(await screen.findByTestId("location")).toHaveTextContent(/^\/$/);
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
    expect(writes(calls)).toEqual([
      { method: "POST", path: "/me/erasure/passkey/options", body: undefined },
      { method: "POST", path: "/me/erasure/passkey/options", body: undefined },
      { method: "POST", path: "/me/erasure", body: { passkey: answer } },
      { method: "POST", path: "/me/erasure/passkey/options", body: undefined },
      { method: "POST", path: "/me/erasure", body: { passkey: answer } },
    ]);
  });

  it("offers no passkey to a person without one", async () => {
    browser.browserSupportsWebAuthn.mockReturnValue(true);
    fakeApi({ "GET /auth/two-factor": { status: 200, body: OFF }, "GET /auth/passkeys": { status: 200, body: { passkeys: [] } } });
    open();
    await userEvent.click(screen.getByRole("button", { name: "Delete your account" }));
    expect(await screen.findByLabelText("Your Password")).toBeInTheDocument();
    await screen.findByRole("button", { name: "Delete My Account for Good" });
    expect(screen.queryByRole("button", { name: "Confirm with a passkey" })).toBeNull();
  });
});
