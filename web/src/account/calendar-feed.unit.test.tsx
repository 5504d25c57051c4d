import { screen, waitFor, waitForElementToBeRemoved, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { AccountTab } from "../expert-dashboard/account-tab.tsx";
import { AccountPage } from "./account-page.tsx";

// Issue 17.2: the personal calendar feed in the account (the creator's /account, the expert's
// Account tab): a webcal: link to subscribe, the https address to copy, and a new address.

const feed = (token: string) => ({
  webcal_url: `webcal://app.example/api/v1/calendar/${token}.ics`,
  https_url: `https://app.example/api/v1/calendar/${token}.ics`,
});
const section = () => within(screen.getByRole("region", { name: "Calendar Feed" }));
const FEED_ENDS = "Signing out everywhere or changing your password ends this address too: copy the new one from here and subscribe again.";

describe("the calendar feed", () => {
  it("offers the webcal link to subscribe and copies the https address", async () => {
    fakeApi({ "GET /calendar/feed": { status: 200, body: feed("first") } });
    const writeText = vi.fn(async () => {});
    renderScreen(<AccountPage />, { route: "/account", path: "/account", auth: signedInAs("creator") });
    // user-event installs its own clipboard on setup; this one records what the page copies.
    const user = userEvent.setup();
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    expect(await section().findByRole("link", { name: "Subscribe in your calendar app" })).toHaveAttribute(
      "href",
      "webcal://app.example/api/v1/calendar/first.ics",
    );
    expect(section().getByLabelText("Calendar address")).toHaveValue("https://app.example/api/v1/calendar/first.ics");
    await user.click(section().getByRole("button", { name: "Copy address" }));
    expect(writeText).toHaveBeenCalledWith("https://app.example/api/v1/calendar/first.ics");
    expect(section().getByRole("button", { name: "Copied" })).toBeInTheDocument();
  });

  it("gets a new address only after saying the old one stops working", async () => {
    const calls = fakeApi({
      "GET /calendar/feed": { status: 200, body: feed("first") },
      "POST /calendar/feed/regenerate": { status: 200, body: feed("second") },
    });
    renderScreen(<AccountTab />, { auth: signedInAs("expert") });
    await userEvent.click(await section().findByRole("button", { name: "Get a new address" }));
    const dialog = screen.getByRole("dialog", { name: "Get a new calendar address?" });
    expect(dialog).toHaveTextContent(
      "The current address stops working at once: calendars subscribed to it stop updating, and you subscribe again with the new one.",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep the current address" }));
    await waitForElementToBeRemoved(() => screen.queryByRole("dialog"));
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);

    await userEvent.click(section().getByRole("button", { name: "Get a new address" }));
    await userEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Get a new address" }));
    await waitForElementToBeRemoved(() => screen.queryByRole("dialog"));
    expect(await section().findByRole("status")).toHaveTextContent(
      "Your calendar has a new address. Subscribe again with it; the old one no longer works.",
    );
    expect(section().getByLabelText("Calendar address")).toHaveValue("https://app.example/api/v1/calendar/second.ics");
    expect(section().getByRole("link", { name: "Subscribe in your calendar app" })).toHaveAttribute(
      "href",
      "webcal://app.example/api/v1/calendar/second.ics",
    );
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/calendar/feed/regenerate"]);
  });

  it("says that signing out everywhere and a new password end the address (issue 26 item 8)", async () => {
    fakeApi({ "GET /calendar/feed": { status: 200, body: feed("first") } });
    renderScreen(<AccountTab />, { auth: signedInAs("expert") });
    expect(await section().findByText(FEED_ENDS)).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Change Password" })).toHaveTextContent(
      "Changing your password also ends your calendar feed's address: copy the new one under Calendar Feed.",
    );
  });

  it("shows the new address once the password is changed, and says so", async () => {
    let reads = 0;
    fakeApi({
      "GET /calendar/feed": () => ({ status: 200, body: feed(reads++ ? "second" : "first") }),
      "POST /auth/password": { status: 204 },
    });
    renderScreen(<AccountPage />, { route: "/account", path: "/account", auth: signedInAs("creator") });
    expect(await section().findByLabelText("Calendar address")).toHaveValue("https://app.example/api/v1/calendar/first.ics");
    const password = within(screen.getByRole("region", { name: "Change Password" }));
    await userEvent.type(password.getByLabelText("Current Password"), "old-password-1");
    await userEvent.type(password.getByLabelText("New Password", { exact: true }), "new-password-2");
    await userEvent.type(password.getByLabelText("Confirm New Password"), "new-password-2");
    await userEvent.click(password.getByRole("button", { name: "Save Password" }));
    expect(await password.findByRole("status")).toHaveTextContent(
      "Your password has been changed. Your calendar feed has a new address: subscribe again with it under Calendar Feed.",
    );
    await waitFor(() => expect(section().getByLabelText("Calendar address")).toHaveValue("https://app.example/api/v1/calendar/second.ics"));
  });

  it("says when the address cannot be loaded", async () => {
    fakeApi({ "GET /calendar/feed": { status: 401, body: { code: "unauthorized", message: "x" } } });
    renderScreen(<AccountTab />, { auth: signedInAs("expert") });
    expect(await section().findByRole("alert")).toHaveTextContent(/^Your calendar address could not be loaded: /);
  });
});
