import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { TwoFactorSection } from "./two-factor-section.tsx";
import { groupedKey } from "./two-factor-setup.tsx";

// Issue 33.4: the account's "Two-factor sign-in" section. Setting it up asks for the password, shows
// the QR code and the key to type, takes the first code and shows the ten recovery codes once;
// turning it off takes the password and a code (or a recovery code); admins cannot turn it off.

afterEach(() => vi.unstubAllGlobals());

const OFF = { enrolled: false, enrolled_at: null, recovery_codes_left: 0, required: false };
const ON = { enrolled: true, enrolled_at: "2026-06-01T09:00:00.000Z", recovery_codes_left: 10, required: false };
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const CODES = Array.from({ length: 10 }, (_, i) => `abc${i}-defg-hjkm`);
const QR = "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=";

describe("the two-factor sign-in section", () => {
  it("sets it up: the password, then the QR code or the key and a first code, then the recovery codes shown once", async () => {
    let status: object = OFF;
    const calls = fakeApi({
      "GET /auth/two-factor": () => ({ status: 200, body: status }),
      "POST /auth/two-factor/enrol": (body) =>
        (body as { current_password: string }).current_password === "my-password-1"
          ? { status: 200, body: { otpauth_uri: `otpauth://totp/x?secret=${SECRET}`, qr_code: QR, secret: SECRET } }
          : { status: 403, body: { code: "reauthentication_needed", message: "x" } },
      "POST /auth/two-factor/confirm": (body) => {
        if ((body as { code: string }).code !== "123456") return { status: 400, body: { code: "two_factor_code_wrong", message: "x" } };
        status = ON;
        return { status: 200, body: { recovery_codes: CODES } };
      },
    });
    renderScreen(<TwoFactorSection />, { auth: signedInAs("creator") });
    expect(await screen.findByText(/Add a second step to your sign-in/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Set Up Two-Factor Sign-In" }));

    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByText("Please enter your current password.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Current Password"), "not-it-1");
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Please log in again to confirm this action.");
    expect(screen.getByText("This is not your current password.")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("Current Password"));
    await userEvent.type(screen.getByLabelText("Current Password"), "my-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));

    expect(await screen.findByRole("img", { name: "QR code to scan with your authenticator app" })).toHaveAttribute("src", QR);
    expect(screen.getByLabelText("Key for your authenticator app")).toHaveTextContent(groupedKey(SECRET));
    await userEvent.click(screen.getByRole("button", { name: "Turn On" }));
    expect(screen.getByText("Please enter the 6-digit code from your authenticator app.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("6-digit code"), "12ab56");
    await userEvent.click(screen.getByRole("button", { name: "Turn On" }));
    expect(screen.getByText("That code is not right. Enter the 6-digit code your authenticator app shows now.")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("6-digit code"));
    await userEvent.type(screen.getByLabelText("6-digit code"), "654321");
    await userEvent.click(screen.getByRole("button", { name: "Turn On" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That code is not right.");
    await userEvent.clear(screen.getByLabelText("6-digit code"));
    await userEvent.type(screen.getByLabelText("6-digit code"), "123 456");
    await userEvent.click(screen.getByRole("button", { name: "Turn On" }));

    const shown = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(shown)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(screen.getByText(/They are shown only now/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "I Saved Them" }));
    expect(await screen.findByText(/Two-factor sign-in is on \(since/)).toBeInTheDocument();
    expect(screen.getByText(/10 recovery codes left\./)).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Recovery codes" })).not.toBeInTheDocument();
    expect(writes(calls).map((c) => [c.path, c.body])).toEqual([
      ["/auth/two-factor/enrol", { current_password: "not-it-1" }],
      ["/auth/two-factor/enrol", { current_password: "my-password-1" }],
      ["/auth/two-factor/confirm", { code: "654321" }],
      ["/auth/two-factor/confirm", { code: "123456" }],
    ]);
  });

  it("turns it off with the password and a recovery code instead of the app's code", async () => {
    let status: object = { ...ON, recovery_codes_left: 2 };
    const calls = fakeApi({
      "GET /auth/two-factor": () => ({ status: 200, body: status }),
      "DELETE /auth/two-factor": () => ((status = OFF), { status: 204 }),
    });
    renderScreen(<TwoFactorSection />, { auth: signedInAs("expert") });
    expect(await screen.findByText(/2 recovery codes left\./)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Turn Off" }));
    await userEvent.click(screen.getByRole("button", { name: "Turn Off Two-Factor Sign-In" }));
    expect(screen.getByText("Please enter your current password.")).toBeInTheDocument();
    expect(screen.getByText("Please enter the 6-digit code from your authenticator app.")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Current Password"), "my-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Use a recovery code instead" }));
    await userEvent.type(screen.getByLabelText("Recovery code"), "ABC1 DEFG HJKM");
    await userEvent.click(screen.getByRole("button", { name: "Turn Off Two-Factor Sign-In" }));
    expect(await screen.findByText("Two-factor sign-in is off.")).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Set Up Two-Factor Sign-In" })).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      { method: "DELETE", path: "/auth/two-factor", body: { current_password: "my-password-1", recovery_code: "abc1defghjkm" } },
    ]);
  });

  it("tells an admin it is required, and offers no way to turn it off", async () => {
    fakeApi({ "GET /auth/two-factor": { status: 200, body: { ...ON, required: true } } });
    renderScreen(<TwoFactorSection />, { auth: signedInAs("admin") });
    expect(await screen.findByText("Admins keep two-factor sign-in on.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Set Up Again With Another App" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Turn Off" })).not.toBeInTheDocument();
  });

  it("groups the key to type in fours", () => {
    expect(groupedKey("JBSWY3DPEHPK3PXP")).toBe("JBSW Y3DP EHPK 3PXP");
  });
});
