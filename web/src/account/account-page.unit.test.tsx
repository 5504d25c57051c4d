import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Header } from "../shared/layout.tsx";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { validatePasswordChange } from "../expert-dashboard/account-tab.tsx";
import { AccountPage } from "./account-page.tsx";
import { validateNames } from "./names-form.tsx";

// Issue 13.8: creators get an account page (names and password), linked from the header; changing
// the password asks for the current one (issue 12.3).

const creator = signedInAs("creator", { first_name: "Cora", last_name: "Quinn" });

describe("the creator's account page", () => {
  it("starts from the user's names and saves new ones with PATCH /auth/me", async () => {
    const calls = fakeApi({ "PATCH /auth/me": { status: 200, body: { ...creator.user, first_name: "Corinne", last_name: "Quinn" } } });
    renderScreen(<AccountPage />, { route: "/account", path: "/account", auth: creator });
    expect(screen.getByRole("heading", { name: "Your Account" })).toBeInTheDocument();
    const first = screen.getByLabelText("First Name");
    expect(first).toHaveValue("Cora");
    expect(screen.getByLabelText("Last Name")).toHaveValue("Quinn");
    await userEvent.clear(first);
    await userEvent.click(screen.getByRole("button", { name: "Save Name" }));
    expect(screen.getByText("Please enter your first name.")).toBeInTheDocument();
    await userEvent.type(first, " Corinne ");
    await userEvent.click(screen.getByRole("button", { name: "Save Name" }));
    expect(await screen.findByText("Your name has been saved.")).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: "PATCH", path: "/auth/me", body: { first_name: "Corinne", last_name: "Quinn" } }]);
  });

  it("changes the password only with the current one, and says so when it is wrong", async () => {
    const calls = fakeApi({
      "GET /calendar/feed": {
        status: 200,
        body: { webcal_url: "webcal://x/api/v1/calendar/t.ics", https_url: "https://x/api/v1/calendar/t.ics" },
      },
      // The page's other sections (issue 33): they load, and say nothing this test looks for.
      "GET /auth/two-factor": { status: 200, body: { enrolled: false, enrolled_at: null, recovery_codes_left: 0, required: false } },
      "GET /auth/sign-ins": { status: 200, body: { sign_ins: [] } },
      "GET /auth/passkeys": { status: 200, body: { passkeys: [] } },
      "POST /auth/password": (body) =>
        (body as { current_password: string }).current_password === "cora-password-1"
          ? { status: 204 }
          : { status: 403, body: { code: "reauthentication_needed", message: "x" } },
    });
    renderScreen(<AccountPage />, { route: "/account", path: "/account", auth: creator });
    await userEvent.type(screen.getByLabelText("New Password", { exact: true }), "new-password-2");
    await userEvent.type(screen.getByLabelText("Confirm New Password"), "new-password-2");
    await userEvent.click(screen.getByRole("button", { name: "Save Password" }));
    expect(screen.getByText("Please enter your current password.")).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);

    await userEvent.type(screen.getByLabelText("Current Password"), "not-it-1");
    await userEvent.click(screen.getByRole("button", { name: "Save Password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Please log in again to confirm this action.");
    expect(screen.getByText("This is not your current password.")).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText("Current Password"));
    await userEvent.type(screen.getByLabelText("Current Password"), "cora-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Save Password" }));
    expect(
      await screen.findByText(
        "Your password has been changed. Your calendar feed has a new address: subscribe again with it under Calendar Feed.",
      ),
    ).toBeInTheDocument();
    expect(writes(calls).map((c) => c.body)).toEqual([
      { current_password: "not-it-1", password: "new-password-2" },
      { current_password: "cora-password-1", password: "new-password-2" },
    ]);
    await waitFor(() => expect(screen.getByLabelText("Current Password")).toHaveValue(""));
  });

  it("is linked from the header for creators (experts have their dashboard's Account tab)", () => {
    const { unmount } = renderScreen(<Header />, { auth: creator });
    expect(screen.getByRole("link", { name: "Account" })).toHaveAttribute("href", "/account");
    unmount();
    renderScreen(<Header />, { auth: signedInAs("expert") });
    expect(screen.queryByRole("link", { name: "Account" })).not.toBeInTheDocument();
  });

  it("validation rules", () => {
    expect(validateNames(" ", "Q")).toEqual({ firstName: "Please enter your first name." });
    expect(validateNames("C", "x".repeat(101))).toEqual({ lastName: "Your last name can be at most 100 characters." });
    expect(validatePasswordChange("", "", "")).toEqual({
      current: "Please enter your current password.",
      password: "Please enter a new password.",
    });
    expect(validatePasswordChange("old-1", "new-password-2", "other")).toEqual({ confirm: "Passwords do not match." });
    expect(validatePasswordChange("old-1", "short", "short")).toEqual({ password: "Password is too weak. Please choose a stronger one." });
  });
});
