import { render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../src/app.tsx";
import { FORMULA, resetConsoleAfterEach } from "./console-fakes.ts";

// Issue 27.20: on a booking's page, the columns the page does not place by hand ran their labels
// and values together at 1366 px ("Reschedule toReschedule requested at"). Each is a label/value pair.

const bookingId = "00000000-0000-4000-8000-0000000000b7";
const extra = {
  reschedule_to: "2026-04-02T15:00:00.000Z",
  reschedule_decline_reason: "Travelling that week",
  join_link: "https://meet.example.com/b7",
  stream_version: 7,
  timeline: [],
};

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider, hostileRecord } = await import("./console-fakes.ts");
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getOne: (resource: string, { id }: { id: string }) =>
        Promise.resolve({ data: { ...hostileRecord(resource, id), ...(resource === "bookings" ? extra : {}) } }),
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

resetConsoleAfterEach();

describe("a booking's page", () => {
  it("shows the read model's other columns as label/value pairs", async () => {
    window.location.hash = `#/bookings/${bookingId}/show`;
    render(<App />);
    const list = await screen.findByTestId("other-columns", {}, { timeout: 20_000 });
    const pairs = [...list.querySelectorAll("dt")].map((term) => [
      term.textContent,
      term.nextElementSibling?.tagName === "DD" ? term.nextElementSibling.textContent : null,
    ]);
    expect(pairs).toEqual(
      expect.arrayContaining([
        ["Reschedule decline reason", "Travelling that week"],
        ["Join link", "https://meet.example.com/b7"],
        ["Stream version", "7"],
      ]),
    );
    expect(pairs.find(([label]) => label === "Reschedule to")?.[1]).toMatch(/2026/);
  }, 60_000);

  // Issue 31.3: the booking's conversation, as its parties wrote it, for the admin to read (never to write in).
  it("shows the booking's conversation, oldest first, read-only", async () => {
    window.location.hash = `#/bookings/${bookingId}/show`;
    render(<App />);
    const section = await screen.findByRole("region", { name: "Conversation" }, { timeout: 20_000 });
    const messages = await within(section).findAllByRole("listitem");
    expect(
      messages.map((m) => [m.getAttribute("data-role"), m.querySelector("strong")?.textContent, m.lastElementChild?.textContent]),
    ).toEqual([
      ["creator", "Creator", FORMULA],
      ["expert", "Expert", "Send the deck\nbefore Tuesday."],
    ]);
    expect(messages[0]!.querySelector("time")?.getAttribute("datetime")).toBe("2026-01-10T12:00:00.000Z");
    expect(within(section).getByTestId("conversation-window").textContent).toMatch(/^Closed on .*2026.* · read-only/);
    expect(within(section).queryByRole("textbox")).toBeNull();
    expect(within(section).queryByRole("button")).toBeNull();
  }, 60_000);
});
