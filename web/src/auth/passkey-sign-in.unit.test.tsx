import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type * as SimpleWebAuthnBrowser from "@simplewebauthn/browser";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen } from "../../test/screen-harness.tsx";
import { LoginPage } from "./login-page.tsx";

// Issue 33.4: the login page signs in with a passkey alone ("Sign in with a passkey": no address,
// no password), and the second step after the password offers "Use a passkey" where the account has
// one. The device's part (navigator.credentials) is @simplewebauthn/browser's, stood in for here;
// the browser walk (web/e2e/passkey-walk.e2e.test.ts) runs it on Chromium's virtual authenticator.

const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));
vi.mock("@simplewebauthn/browser", async (actual) => ({ ...(await actual<typeof SimpleWebAuthnBrowser>()), ...browser }));

beforeEach(() => {
  browser.browserSupportsWebAuthn.mockReturnValue(true);
  browser.startAuthentication.mockResolvedValue(ASSERTION);
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const OPTIONS = { challenge: "c2lnbi1pbg", rpId: "localhost", userVerification: "required" };
const ASSERTION = { id: "cred", rawId: "cred", type: "public-key", response: {}, clientExtensionResults: {} };
const CHALLENGE = "challenge-body.challenge-signature";
const session = {
  access_token: "a.b.c",
  expires_in: 900,
  expires_at: Math.floor(Date.now() / 1000) + 900,
  token_type: "bearer",
  user: { id: "exp-1", email: "m@example.com", role: "expert", first_name: "M" },
};

async function givePassword() {
  renderScreen(<LoginPage />, { route: "/login", path: "/login" });
  await userEvent.type(screen.getByLabelText(/Email/), "m@example.com");
  await userEvent.type(screen.getByLabelText(/Password/), "password-1");
  await userEvent.click(screen.getByRole("button", { name: "Login" }));
}

describe("signing in with a passkey alone", () => {
  it("asks the device with the API's options and signs in with its answer", async () => {
    const calls = fakeApi({
      "POST /auth/passkeys/sign-in/options": { status: 200, body: OPTIONS },
      "POST /auth/passkeys/sign-in": { status: 200, body: session },
    });
    renderScreen(<LoginPage />, { route: "/login", path: "/login" });
    await userEvent.click(screen.getByRole("button", { name: "Sign in with a passkey" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/expert-dashboard/exp-1"));
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(calls.map((c) => [c.method, c.path, c.body])).toContainEqual(["POST", "/auth/passkeys/sign-in", { response: ASSERTION }]);
  });

  it("says so when the passkey is refused, or when the person closed the device's prompt", async () => {
    fakeApi({
      "POST /auth/passkeys/sign-in/options": { status: 200, body: OPTIONS },
      "POST /auth/passkeys/sign-in": { status: 400, body: { code: "passkey_removed", message: "x" } },
    });
    renderScreen(<LoginPage />, { route: "/login", path: "/login" });
    await userEvent.click(screen.getByRole("button", { name: "Sign in with a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This passkey was removed from your account and no longer signs you in. Sign in with your password, or use another passkey.",
    );
    browser.startAuthentication.mockRejectedValueOnce(
      Object.assign(new Error("The operation either timed out or was not allowed."), { name: "NotAllowedError" }),
    );
    await userEvent.click(screen.getByRole("button", { name: "Sign in with a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("No passkey was used: the request was cancelled or timed out.");
  });

  it("is left out where the browser cannot use passkeys", () => {
    browser.browserSupportsWebAuthn.mockReturnValue(false);
    renderScreen(<LoginPage />, { route: "/login", path: "/login" });
    expect(screen.getByRole("button", { name: "Login" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign in with a passkey" })).not.toBeInTheDocument();
  });
});

describe("a passkey as the second step", () => {
  it("beside the code, when the account has both: the passkey answers the password's challenge", async () => {
    const calls = fakeApi({
      "POST /auth/login": { status: 200, body: { two_factor_required: true, challenge: CHALLENGE, second_factors: ["code", "passkey"] } },
      "POST /auth/login/two-factor/passkey/options": { status: 200, body: OPTIONS },
      "POST /auth/login/two-factor/passkey": { status: 200, body: session },
    });
    await givePassword();
    expect(await screen.findByLabelText("6-digit code")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Use a passkey" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/expert-dashboard/exp-1"));
    expect(calls.filter((c) => c.path.startsWith("/auth/login/two-factor/passkey")).map((c) => c.body)).toEqual([
      { challenge: CHALLENGE },
      { challenge: CHALLENGE, response: ASSERTION },
    ]);
  });

  it("alone, when the account has passkeys and no authenticator app; a sign-in that took too long starts again", async () => {
    fakeApi({
      "POST /auth/login": { status: 200, body: { two_factor_required: true, challenge: CHALLENGE, second_factors: ["passkey"] } },
      "POST /auth/login/two-factor/passkey/options": {
        status: 401,
        body: { code: "two_factor_challenge_expired", message: "Your sign-in took too long. Please enter your password again." },
      },
    });
    await givePassword();
    expect(await screen.findByText("Confirm it is you with one of the passkeys you added to your account.")).toBeInTheDocument();
    expect(screen.queryByLabelText("6-digit code")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Use a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your sign-in took too long. Please enter your password again.");
    expect(screen.getByRole("button", { name: "Login" })).toBeInTheDocument();
  });
});
