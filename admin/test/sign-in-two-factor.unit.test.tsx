import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { AdminContext } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { authProvider, storedSession } from "../src/auth-provider.ts";
import { SignInPage } from "../src/layout/sign-in-page.tsx";
import { fakeDataProvider } from "./console-fakes.ts";

// Issue 33.4: admins sign in with a second factor. An admin without one is shown its set-up in place
// of the console (the QR code or the key, a first code, the recovery codes once) and is signed in
// only after it; an admin with one gives the code (or a recovery code) after the password.

afterEach(async () => {
  // The console's session lives in the module's memory (issue 33.6): sign out, so the next test starts signed out.
  await authProvider.logout({});
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

type Reply = { status: number; body?: unknown };
/** fetch answering "METHOD /path" under /api/v1; the calls made, with their bodies. */
function fakeApi(replies: Record<string, Reply | ((body: unknown) => Reply)>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const key = `${(init?.method ?? "GET").toUpperCase()} ${String(input).replace(/^.*\/api\/v1/, "")}`;
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      calls.push({ key, body });
      const reply = replies[key];
      const r = typeof reply === "function" ? reply(body) : (reply ?? { status: 404, body: { code: "not_found", message: "Not found." } });
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
const CODES = Array.from({ length: 10 }, (_, i) => `abc${i}-defg-hjkm`);

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

describe("an admin's sign-in", () => {
  it("without two-factor sign-in: its set-up comes first, and the console's session only after the recovery codes", async () => {
    const calls = fakeApi({
      "POST /auth/login": { status: 200, body: session },
      "GET /auth/two-factor": { status: 200, body: { enrolled: false, enrolled_at: null, recovery_codes_left: 0, required: true } },
      "POST /auth/two-factor/enrol": {
        status: 200,
        body: { otpauth_uri: "otpauth://totp/x", qr_code: "data:image/svg+xml;base64,PHN2Zy8+", secret: "JBSWY3DPEHPK3PXP" },
      },
      "POST /auth/two-factor/confirm": (body) =>
        (body as { code: string }).code === "123456"
          ? { status: 200, body: { recovery_codes: CODES } }
          : {
              status: 400,
              body: {
                code: "two_factor_code_wrong",
                message: "That code is not right. Enter the 6-digit code your authenticator app shows now.",
              },
            },
    });
    signIn();
    const form = await screen.findByRole("form", { name: "Set up two-factor sign-in" });
    const qr = within(form).getByRole("img", { name: "QR code to scan with your authenticator app" });
    expect(qr.getAttribute("src")).toBe("data:image/svg+xml;base64,PHN2Zy8+");
    expect(within(form).getByLabelText("Key for your authenticator app").textContent).toBe("JBSW Y3DP EHPK 3PXP");
    expect(storedSession()).toBeNull();

    fireEvent.change(screen.getByLabelText(/6-digit code/), { target: { value: "654321" } });
    fireEvent.click(screen.getByRole("button", { name: "Turn On" }));
    expect((await screen.findByTestId("sign-in-error")).textContent).toContain("That code is not right.");
    fireEvent.change(screen.getByLabelText(/6-digit code/), { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Turn On" }));
    const codes = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(codes)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(storedSession()).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "I saved them" }));
    await waitFor(() => expect(storedSession()?.access_token).toBe("a.b.c"));
    expect(calls.filter((c) => c.key.startsWith("POST")).map((c) => [c.key, c.body])).toEqual([
      ["POST /auth/login", { email: "admin@example.com", password: "admin-password-1" }],
      ["POST /auth/two-factor/enrol", { current_password: "admin-password-1" }],
      ["POST /auth/two-factor/confirm", { code: "654321" }],
      ["POST /auth/two-factor/confirm", { code: "123456" }],
    ]);
  });

  it("with two-factor sign-in: the code after the password, or a recovery code instead", async () => {
    const calls = fakeApi({
      "POST /auth/login": { status: 200, body: { two_factor_required: true, challenge: "the-challenge" } },
      "POST /auth/login/two-factor": (body) =>
        (body as { recovery_code?: string }).recovery_code === "abc1defghjkm"
          ? { status: 200, body: session }
          : {
              status: 400,
              body: {
                code: "two_factor_code_wrong",
                message: "That code is not right. Enter the 6-digit code your authenticator app shows now.",
              },
            },
      "GET /auth/two-factor": {
        status: 200,
        body: { enrolled: true, enrolled_at: "2026-06-01T09:00:00.000Z", recovery_codes_left: 9, required: true },
      },
    });
    signIn();
    await screen.findByRole("form", { name: "Two-factor sign-in" });
    fireEvent.change(screen.getByLabelText(/6-digit code/), { target: { value: "111111" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect((await screen.findByTestId("sign-in-error")).textContent).toContain("That code is not right.");
    fireEvent.click(screen.getByRole("button", { name: "Use a recovery code instead" }));
    fireEvent.change(screen.getByLabelText(/Recovery code/), { target: { value: "ABC1-DEFG-HJKM" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(storedSession()?.access_token).toBe("a.b.c"));
    expect(calls.filter((c) => c.key === "POST /auth/login/two-factor").map((c) => c.body)).toEqual([
      { challenge: "the-challenge", code: "111111" },
      { challenge: "the-challenge", recovery_code: "abc1defghjkm" },
    ]);
  });

  it("a sign-in that took too long goes back to the password, saying why", async () => {
    fakeApi({
      "POST /auth/login": { status: 200, body: { two_factor_required: true, challenge: "the-challenge" } },
      "POST /auth/login/two-factor": {
        status: 401,
        body: { code: "two_factor_challenge_expired", message: "Your sign-in took too long. Please enter your password again." },
      },
    });
    signIn();
    await screen.findByRole("form", { name: "Two-factor sign-in" });
    fireEvent.change(screen.getByLabelText(/6-digit code/), { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await screen.findByRole("form", { name: "Sign in" });
    expect(screen.getByTestId("sign-in-error").textContent).toContain("Your sign-in took too long. Please enter your password again.");
    expect(storedSession()).toBeNull();
  });
});
