import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderScreen } from "../../test/screen-harness.tsx";
import { UnsubscribePage } from "./unsubscribe-page.tsx";

// Issue 16: a reminder's unsubscribe link turns reminders off, on a button (opening the link alone changes nothing).

describe("the unsubscribe link", () => {
  it("changes nothing until the button is pressed, then says whose reminders are off", async () => {
    const calls = fakeApi({ "POST /mail/unsubscribe": { status: 200, body: { email: "cora@example.com", reminder_mails: false } } });
    renderScreen(<UnsubscribePage />, { route: "/unsubscribe?token=tok-u", path: "/unsubscribe" });
    expect(calls).toHaveLength(0);
    await userEvent.click(screen.getByRole("button", { name: "Stop reminder emails" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "Reminders are off for cora@example.com. You can turn them back on in your account.",
    );
    expect(calls).toEqual([{ method: "POST", path: "/mail/unsubscribe", body: { token: "tok-u" } }]);
  });

  it("a bad link: the catalogue's message", async () => {
    fakeApi({ "POST /mail/unsubscribe": { status: 400, body: { code: "email_link_invalid", message: "x" } } });
    renderScreen(<UnsubscribePage />, { route: "/unsubscribe?token=forged", path: "/unsubscribe" });
    await userEvent.click(screen.getByRole("button", { name: "Stop reminder emails" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This link is no longer valid. Please request a new one.");
  });

  it("no token: no button, the same message", () => {
    renderScreen(<UnsubscribePage />, { route: "/unsubscribe", path: "/unsubscribe" });
    expect(screen.getByRole("alert")).toHaveTextContent("This link is no longer valid. Please request a new one.");
    expect(screen.queryByRole("button", { name: "Stop reminder emails" })).not.toBeInTheDocument();
  });
});
