import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type * as SimpleWebAuthnBrowser from "@simplewebauthn/browser";
import { AdminContext } from "react-admin";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { errorCatalogue } from "@booking/contracts";
import { authProvider, storedSession } from "../src/auth-provider.ts";
import { SignInPage } from "../src/layout/sign-in-page.tsx";
import { fakeDataProvider } from "./console-fakes.ts";

// Issue 33.4: an admin with a passkey gives it as the second step of the console's sign-in, as in the web app:
// "Use a passkey" beside the code (the code's path kept), or alone for an admin whose only second factor is a
// passkey. The device's part is @simplewebauthn/browser's, stood in for here. What the browser reports and what the
// API refuses are said on the page; a sign-in that took too long goes back to the password.

const browser = vi.hoisted(() => ({ browserSupportsWebAuthn: vi.fn(() => true), startAuthentication: vi.fn() }));
vi.mock("@simplewebauthn/browser", async (actual) => ({ ...(await actual<typeof SimpleWebAuthnBrowser>()), ...browser }));

const OPTIONS = { challenge: "c2Vjb25k", rpId: "localhost", allowCredentials: [{ id: "pk", type: "public-key" }] };
const ANSWER = { id: "pk", rawId: "pk", type: "public-key", response: {}, clientExtensionResults: {} };

beforeEach(() => {
  browser.browserSupportsWebAuthn.mockReturnValue(true);
  browser.startAuthentication.mockReset().mockResolvedValue(ANSWER);
});
afterEach(async () => {
  // The console's session lives in the module's memory (issue 33.6): sign out, so the next test starts signed out.
  await authProvider.logout({});
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

type Reply = { status: number; body?: unknown };
/** fetch answering "METHOD /path" under /api/v1; the calls made, with their bodies. */
function fakeApi(replies: Record<string, Reply | (() => Reply)>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const key = `${(init?.method ?? "GET").toUpperCase()} ${String(input).replace(/^.*\/api\/v1/, "")}`;
      calls.push({ key, body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined });
      const reply = replies[key];
      const r = typeof reply === "function" ? reply() : (reply ?? { status: 404, body: { code: "not_found", message: "Not found." } });
      return new Response(JSON.stringify(r.body ?? {}), { status: r.status, headers: { "content-type": "application/json" } });
    }),
  );
  return calls;
}

const session = {
  access_token: "a.b.c",
  expires_in: 900,
  expires_at: Math.floor(Date.now() / 1000) + 900,
  token_type: "bearer",
  user: { id: "admin-1", email: "admin@example.com", role: "admin", first_name: "Admin" },
};
const challenged = (secondFactors: string[]) => ({
  status: 200,
  body: { two_factor_required: true, challenge: "the-challenge", second_factors: secondFactors },
});
const refusal = (code: keyof typeof errorCatalogue) => ({
  status: errorCatalogue[code].status,
  body: { code, message: errorCatalogue[code].message },
});

function signIn() {
  render(
    <AdminContext authProvider={authProvider} dataProvider={fakeDataProvider}>
      <SignInPage />
    </AdminContext>,
  );
  fireEvent.change(screen.getByLabelText(/Email/), { target: { value: "admin@example.com" } });
  fireEvent.change(screen.getByLabelText(/Password/), { target: { value: "admin-password-1" } });
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("an admin's sign-in with a passkey", () => {
  it("offers the passkey beside the code, and signs in with it", async () => {
    const calls = fakeApi({
      "POST /auth/login": challenged(["code", "passkey"]),
      "POST /auth/login/two-factor/passkey/options": { status: 200, body: OPTIONS },
      "POST /auth/login/two-factor/passkey": { status: 200, body: session },
    });
    signIn();
    await screen.findByRole("form", { name: "Two-factor sign-in" });
    expect(screen.getByLabelText(/6-digit code/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Use a passkey" }));
    await waitFor(() => expect(storedSession()?.access_token).toBe("a.b.c"));
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(calls.map((c) => [c.key, c.body])).toEqual([
      ["POST /auth/login", { email: "admin@example.com", password: "admin-password-1" }],
      ["POST /auth/login/two-factor/passkey/options", { challenge: "the-challenge" }],
      ["POST /auth/login/two-factor/passkey", { challenge: "the-challenge", response: ANSWER }],
    ]);
  });

  it("with a passkey as the only second factor: the passkey is the step; a cancelled prompt and a refusal are said", async () => {
    let answered: Reply = refusal("passkey_unknown");
    fakeApi({
      "POST /auth/login": challenged(["passkey"]),
      "POST /auth/login/two-factor/passkey/options": { status: 200, body: OPTIONS },
      "POST /auth/login/two-factor/passkey": () => answered,
    });
    browser.startAuthentication.mockRejectedValueOnce(
      Object.assign(new Error("The operation was not allowed."), { name: "NotAllowedError" }),
    );
    signIn();
    await screen.findByRole("form", { name: "Two-factor sign-in" });
    expect(screen.queryByLabelText(/6-digit code/)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Use a passkey" }));
    expect((await screen.findByTestId("sign-in-error")).textContent).toBe("No passkey was used: the request was cancelled or timed out.");
    fireEvent.click(screen.getByRole("button", { name: "Use a passkey" }));
    await waitFor(() => expect(screen.getByTestId("sign-in-error").textContent).toBe(errorCatalogue.passkey_unknown.message));
    expect(storedSession()).toBeNull();

    answered = { status: 200, body: session };
    fireEvent.click(screen.getByRole("button", { name: "Use a passkey" }));
    await waitFor(() => expect(storedSession()?.access_token).toBe("a.b.c"));
  });

  it("a sign-in that took too long goes back to the password; a browser without passkeys keeps the code alone", async () => {
    fakeApi({
      "POST /auth/login": challenged(["code", "passkey"]),
      "POST /auth/login/two-factor/passkey/options": refusal("two_factor_challenge_expired"),
    });
    signIn();
    await screen.findByRole("form", { name: "Two-factor sign-in" });
    fireEvent.click(screen.getByRole("button", { name: "Use a passkey" }));
    await screen.findByRole("form", { name: "Sign in" });
    expect(screen.getByTestId("sign-in-error").textContent).toBe(errorCatalogue.two_factor_challenge_expired.message);
    expect(browser.startAuthentication).not.toHaveBeenCalled();

    browser.browserSupportsWebAuthn.mockReturnValue(false);
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await screen.findByRole("form", { name: "Two-factor sign-in" });
    expect(screen.getByLabelText(/6-digit code/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Use a passkey" })).toBeNull();
  });
});
