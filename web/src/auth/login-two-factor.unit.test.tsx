import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen } from "../../test/screen-harness.tsx";
import { LoginPage } from "./login-page.tsx";

// Issue 33.4: with two-factor sign-in on, the password gives a challenge and the login page asks for
// the code the authenticator app shows, or a recovery code; a sign-in that took too long starts again.

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

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
  return screen.findByRole("form", { name: "Two-factor sign-in" });
}

describe("the login's code step", () => {
  it("asks for the 6-digit code after the password, says when it is wrong, and signs in with the right one", async () => {
    const calls = fakeApi({
      "POST /auth/login": { status: 200, body: { two_factor_required: true, challenge: CHALLENGE } },
      "POST /auth/login/two-factor": (body) =>
        (body as { code?: string }).code === "123456"
          ? { status: 200, body: session }
          : { status: 400, body: { code: "two_factor_code_wrong", message: "x" } },
    });
    await givePassword();
    expect(localStorage.length).toBe(0);
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText("Please enter the 6-digit code from your authenticator app.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("6-digit code"), "111111");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "That code is not right. Enter the 6-digit code your authenticator app shows now.",
    );
    await userEvent.clear(screen.getByLabelText("6-digit code"));
    await userEvent.type(screen.getByLabelText("6-digit code"), "123456");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/expert-dashboard/exp-1"));
    expect(calls.filter((c) => c.path === "/auth/login/two-factor").map((c) => c.body)).toEqual([
      { challenge: CHALLENGE, code: "111111" },
      { challenge: CHALLENGE, code: "123456" },
    ]);
  });

  it("takes a recovery code instead", async () => {
    const calls = fakeApi({
      "POST /auth/login": { status: 200, body: { two_factor_required: true, challenge: CHALLENGE } },
      "POST /auth/login/two-factor": { status: 200, body: session },
    });
    await givePassword();
    await userEvent.click(screen.getByRole("button", { name: "Use a recovery code instead" }));
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText("Please enter one of your recovery codes.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Recovery code"), "abcd-efgh-jkmn");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/expert-dashboard/exp-1"));
    expect(calls.at(-1)!.body).toEqual({ challenge: CHALLENGE, recovery_code: "abcdefghjkmn" });
  });

  it("a sign-in that took too long goes back to the password, saying why", async () => {
    fakeApi({
      "POST /auth/login": { status: 200, body: { two_factor_required: true, challenge: CHALLENGE } },
      "POST /auth/login/two-factor": {
        status: 401,
        body: { code: "two_factor_challenge_expired", message: "Your sign-in took too long. Please enter your password again." },
      },
    });
    await givePassword();
    await userEvent.type(screen.getByLabelText("6-digit code"), "123456");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your sign-in took too long. Please enter your password again.");
    expect(screen.getByRole("button", { name: "Login" })).toBeInTheDocument();
    expect(screen.getByLabelText(/Password/)).toHaveValue("");
  });
});
