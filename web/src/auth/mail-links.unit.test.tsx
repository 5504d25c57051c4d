import { configure, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { getSession } from "../shared/api-client.ts";
import type { AuthSession } from "../shared/api-types.ts";
import { Page } from "../shared/layout.tsx";
import { fakeApi, renderScreen, signedInAs, signedOut } from "../../test/screen-harness.tsx";
import { ConfirmTermsPage } from "./confirm-terms-page.tsx";
import { ForgotPasswordPage } from "./forgot-password-page.tsx";
import { LoginPage } from "./login-page.tsx";
import { ResetPasswordPage } from "./reset-password-page.tsx";
import { SignUpPage } from "./sign-up-page.tsx";
import { VerifyEmailPage } from "./verify-email-page.tsx";

// Issue 16: sign-up waits for the address to be confirmed from a mail; login says so; the mail's
// links verify (and sign in) or reset the password; a spent link says so and offers a new one.

// A query by role over the terms page's 17 sections can take over a second on a busy machine: wait longer than that.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

const session = (id: string, role: "creator" | "expert"): AuthSession => ({
  access_token: "a.b.c",
  expires_in: 900,
  expires_at: Math.floor(Date.now() / 1000) + 900,
  token_type: "bearer",
  user: { id, email: `${id}@example.com`, role, first_name: "Cora" },
});

const rateLimited = { status: 429, body: { code: "over_email_send_rate_limit", message: "x" } };

async function fillSignUp() {
  await userEvent.click(screen.getByLabelText("A creator"));
  await userEvent.type(screen.getByLabelText(/First Name/), "Cora");
  await userEvent.type(screen.getByLabelText(/Last Name/), "Quinn");
  await userEvent.type(screen.getByLabelText(/Email/), " cora@example.com ");
  await userEvent.type(screen.getByLabelText(/^Password/), "cora-password-1");
  await userEvent.click(screen.getByRole("button", { name: "Create Account" }));
}

describe("sign-up", () => {
  it("sends the browser's zone, keeps no session and asks the visitor to check their inbox", async () => {
    const calls = fakeApi({
      "POST /auth/signup": {
        status: 201,
        body: {
          user: { id: "u-1", email: "cora@example.com", role: "creator", first_name: "Cora" },
          confirmation_sent_at: "2026-03-01T10:00:00.000Z",
        },
      },
      "POST /auth/verify/resend": { status: 204 },
    });
    renderScreen(<SignUpPage />, { route: "/signup", path: "/signup" });
    await fillSignUp();
    expect(await screen.findByRole("heading", { name: "Check your inbox" })).toBeInTheDocument();
    expect(screen.getByText("cora@example.com")).toBeInTheDocument();
    expect(calls[0]!.body).toEqual({
      email: "cora@example.com",
      password: "cora-password-1",
      role: "creator",
      first_name: "Cora",
      last_name: "Quinn",
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(getSession()).toBeNull();
    expect(screen.getByTestId("location")).toHaveTextContent("/signup");

    await userEvent.click(screen.getByRole("button", { name: "Send again" }));
    expect(await screen.findByRole("status")).toHaveTextContent("We sent a new link to cora@example.com.");
    expect(calls[1]).toEqual({ method: "POST", path: "/auth/verify/resend", body: { email: "cora@example.com" } });
  });

  it("says so in the catalogue's words when sending again is over the rate limit", async () => {
    fakeApi({
      "POST /auth/signup": {
        status: 201,
        body: {
          user: { id: "u-1", email: "cora@example.com", role: "creator", first_name: "Cora" },
          confirmation_sent_at: "2026-03-01T10:00:00.000Z",
        },
      },
      "POST /auth/verify/resend": rateLimited,
    });
    renderScreen(<SignUpPage />, { route: "/signup", path: "/signup" });
    await fillSignUp();
    await userEvent.click(await screen.findByRole("button", { name: "Send again" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many attempts. Please wait a few minutes and try again.");
  });
});

describe("login before confirming", () => {
  it("shows the catalogue's message and sends another link to the typed address", async () => {
    const calls = fakeApi({
      "POST /auth/login": { status: 403, body: { code: "email_not_confirmed", message: "x" } },
      "POST /auth/verify/resend": { status: 204 },
    });
    renderScreen(<LoginPage />, { route: "/login", path: "/login" });
    await userEvent.type(screen.getByLabelText(/Email/), "cora@example.com");
    await userEvent.type(screen.getByLabelText(/Password/), "cora-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Please confirm your email before logging in.");
    await userEvent.click(screen.getByRole("button", { name: "Send again" }));
    expect(await screen.findByRole("status")).toHaveTextContent("We sent a new link to cora@example.com.");
    expect(calls.at(-1)).toEqual({ method: "POST", path: "/auth/verify/resend", body: { email: "cora@example.com" } });
  });

  it("offers no new link for a wrong password", async () => {
    fakeApi({ "POST /auth/login": { status: 401, body: { code: "invalid_credentials", message: "x" } } });
    renderScreen(<LoginPage />, { route: "/login", path: "/login" });
    await userEvent.type(screen.getByLabelText(/Email/), "cora@example.com");
    await userEvent.type(screen.getByLabelText(/Password/), "wrong-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Email or password is incorrect.");
    expect(screen.queryByRole("button", { name: "Send again" })).not.toBeInTheDocument();
  });
});

describe("the verification link", () => {
  it("posts the token once, signs in, and sends a new creator through the terms to the experts with the notice", async () => {
    const calls = fakeApi({ "POST /auth/verify": { status: 200, body: session("u-1", "creator") } });
    // The profile of the new session, as the auth provider loads it: terms not accepted yet.
    renderScreen(<VerifyEmailPage />, {
      route: "/verify-email?token=tok-1",
      path: "/verify-email",
      auth: signedInAs("creator", { id: "u-1" }, false),
      others: { "/confirm-terms": <ConfirmTermsPage /> },
    });
    expect(await screen.findByRole("heading", { name: "Terms and Conditions" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Your email is confirmed.");
    expect(calls).toEqual([{ method: "POST", path: "/auth/verify", body: { token: "tok-1" } }]);
    expect(getSession()?.user.id).toBe("u-1");
  });

  it("sends an expert who has accepted the terms to their dashboard", async () => {
    fakeApi({ "POST /auth/verify": { status: 200, body: session("expert-1", "expert") } });
    renderScreen(<VerifyEmailPage />, {
      route: "/verify-email?token=tok-2",
      path: "/verify-email",
      auth: signedInAs("expert", { id: "expert-1" }),
    });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/expert-dashboard/expert-1"));
  });

  it.each([
    [400, "email_link_invalid", "This link is no longer valid. Please request a new one."],
    [410, "email_link_expired", "This link has expired. Please request a new one."],
  ])("answered %i %s: the catalogue's message and a form for a new link", async (status, code, message) => {
    const calls = fakeApi({ "POST /auth/verify": { status, body: { code, message: "x" } }, "POST /auth/verify/resend": { status: 204 } });
    renderScreen(<VerifyEmailPage />, { route: "/verify-email?token=old", path: "/verify-email", auth: signedOut });
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(getSession()).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Send a new link" }));
    expect(screen.getByText("Please enter your email address.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Email/), "cora@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Send a new link" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "If cora@example.com is waiting for confirmation, we sent a new link to it.",
    );
    expect(calls.map((c) => c.path)).toEqual(["/auth/verify", "/auth/verify/resend"]);
  });

  it("without a token says the link is not valid and sends nothing", async () => {
    const calls = fakeApi({});
    renderScreen(<VerifyEmailPage />, { route: "/verify-email", path: "/verify-email" });
    expect(screen.getByRole("alert")).toHaveTextContent("This link is no longer valid. Please request a new one.");
    expect(calls).toHaveLength(0);
  });
});

describe("forgot password", () => {
  it("asks for an address and answers the same whatever the server knows", async () => {
    const calls = fakeApi({ "POST /auth/recover": { status: 204 } });
    renderScreen(<ForgotPasswordPage />, { route: "/forgot-password", path: "/forgot-password" });
    await userEvent.type(screen.getByLabelText(/Email/), "nobody");
    await userEvent.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(screen.getByText("Please enter a valid email address.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText(/Email/));
    await userEvent.type(screen.getByLabelText(/Email/), "cora@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "If an account exists for cora@example.com, we sent a link to reset the password.",
    );
    expect(calls).toEqual([{ method: "POST", path: "/auth/recover", body: { email: "cora@example.com" } }]);
  });

  it("shows the rate limit's message", async () => {
    fakeApi({ "POST /auth/recover": rateLimited });
    renderScreen(<ForgotPasswordPage />, { route: "/forgot-password", path: "/forgot-password" });
    await userEvent.type(screen.getByLabelText(/Email/), "cora@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many attempts. Please wait a few minutes and try again.");
  });
});

describe("the reset link", () => {
  const typePasswords = async (password: string, confirm: string) => {
    await userEvent.type(screen.getByLabelText(/^New Password/), password);
    await userEvent.type(screen.getByLabelText(/^Confirm New Password/), confirm);
    await userEvent.click(screen.getByRole("button", { name: "Set New Password" }));
  };

  it("checks the new password as everywhere, sets it, signs in and goes to the dashboard with a notice", async () => {
    const calls = fakeApi({ "POST /auth/reset": { status: 200, body: session("u-2", "creator") } });
    renderScreen(<ResetPasswordPage />, {
      route: "/reset-password?token=tok-r",
      path: "/reset-password",
      others: { "/creator-dashboard/:id": <Page>dashboard</Page> },
    });
    await typePasswords("short", "short");
    expect(
      screen.getByText("Password is too weak. Please choose a stronger one. At least 8 characters, with a letter and a digit."),
    ).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/^New Password/));
    await userEvent.clear(screen.getByLabelText(/^Confirm New Password/));
    await typePasswords("new-password-2", "other-password-2");
    expect(screen.getByText("Passwords do not match.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText(/^Confirm New Password/));
    await userEvent.type(screen.getByLabelText(/^Confirm New Password/), "new-password-2");
    await userEvent.click(screen.getByRole("button", { name: "Set New Password" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/creator-dashboard/u-2"));
    expect(screen.getByRole("status")).toHaveTextContent("Your password has been changed.");
    expect(calls).toEqual([{ method: "POST", path: "/auth/reset", body: { token: "tok-r", password: "new-password-2" } }]);
    expect(getSession()?.user.id).toBe("u-2");
  });

  it.each([
    [410, "otp_expired", "Your reset code has expired. Please request a new one."],
    [400, "email_link_invalid", "This link is no longer valid. Please request a new one."],
  ])("answered %i %s: the catalogue's message and a way to ask for a new link", async (status, code, message) => {
    fakeApi({ "POST /auth/reset": { status, body: { code, message: "x" } } });
    renderScreen(<ResetPasswordPage />, { route: "/reset-password?token=old", path: "/reset-password" });
    await typePasswords("new-password-2", "new-password-2");
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(screen.queryByRole("button", { name: "Set New Password" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("link", { name: "Request a new link" }));
    expect(screen.getByTestId("location")).toHaveTextContent("/forgot-password");
  });

  it("keeps the form for a password the server refuses (the same as before)", async () => {
    fakeApi({ "POST /auth/reset": { status: 422, body: { code: "same_password", message: "x" } } });
    renderScreen(<ResetPasswordPage />, { route: "/reset-password?token=tok", path: "/reset-password" });
    await typePasswords("old-password-1", "old-password-1");
    expect(await screen.findByRole("alert")).toHaveTextContent("You cannot reuse your old password.");
    expect(screen.getByRole("button", { name: "Set New Password" })).toBeInTheDocument();
  });
});
