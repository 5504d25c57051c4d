import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { AccountTab } from "../expert-dashboard/account-tab.tsx";
import { AccountPage } from "./account-page.tsx";

// Issue 16: the zone mails give times in and the reminder switch, on the creator's account page and
// the expert dashboard's Account tab, saved with PUT /auth/me/preferences.

describe("email preferences", () => {
  it("a creator starts from their saved zone and reminders, and saves both", async () => {
    const creator = signedInAs("creator", { timezone: "America/New_York", reminder_mails: true });
    const calls = fakeApi({ "PUT /auth/me/preferences": (body) => ({ status: 200, body: { ...creator.user, ...(body as object) } }) });
    renderScreen(<AccountPage />, { route: "/account", path: "/account", auth: creator });
    const section = screen.getByRole("region", { name: "Email Preferences" });
    const zone = within(section).getByRole("combobox", { name: "Times in emails" });
    expect((zone as HTMLInputElement).value).toMatch(/\) America\/New_York$/);
    const reminders = within(section).getByRole("switch", { name: "Send me reminders before sessions" });
    expect(reminders).toBeChecked();
    expect(
      within(section).getByText("Mails about booking changes, confirming your email and resetting your password are always sent."),
    ).toBeInTheDocument();

    await userEvent.clear(zone);
    await userEvent.type(zone, "Europe/Lisbon");
    await userEvent.click(await screen.findByRole("option", { name: /Europe\/Lisbon/ }));
    await userEvent.click(reminders);
    await userEvent.click(within(section).getByRole("button", { name: "Save Preferences" }));
    expect(await within(section).findByRole("status")).toHaveTextContent("Your email preferences have been saved.");
    expect(writes(calls)).toEqual([
      { method: "PUT", path: "/auth/me/preferences", body: { timezone: "Europe/Lisbon", reminder_mails: false } },
    ]);
  });

  it("an expert has them on the dashboard's Account tab, beside the password; a refusal shows the catalogue's words", async () => {
    const expert = signedInAs("expert", { timezone: "Etc/Unknown-Zone", reminder_mails: false });
    fakeApi({ "PUT /auth/me/preferences": { status: 400, body: { code: "schedule_timezone_invalid", message: "x" } } });
    renderScreen(<AccountTab />, { auth: expert });
    expect(screen.getByRole("region", { name: "Change Password" })).toBeInTheDocument();
    const section = screen.getByRole("region", { name: "Email Preferences" });
    // A zone this browser does not list is still the one shown.
    expect(within(section).getByRole("combobox", { name: "Times in emails" })).toHaveValue("Etc/Unknown-Zone");
    expect(within(section).getByRole("switch", { name: "Send me reminders before sessions" })).not.toBeChecked();
    await userEvent.click(within(section).getByRole("button", { name: "Save Preferences" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent(/timezone/i);
  });
});
