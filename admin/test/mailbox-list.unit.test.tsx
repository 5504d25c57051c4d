import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { MailboxListItem } from "@booking/contracts";
import { App } from "../src/app.tsx";
import { resetConsoleAfterEach } from "./console-fakes.ts";

// Issue 27.20: the dev mailbox exists only while no SMTP server is configured, so nothing in it
// was sent; it said "Sent". A skipped message said "Skipped" without why until it was opened.

const at = "2026-03-01T11:00:00.000Z";
const mail = (id: string, status: MailboxListItem["status"], note: string | null): MailboxListItem & { note: string | null } => ({
  id,
  kind: "reminder_24h",
  to: `${id}@example.com`,
  subject: `Subject of ${id}`,
  status,
  created_at: at,
  send_after: at,
  sent_at: status === "sent" ? at : null,
  booking_id: null,
  note,
});
const rows = [mail("logged", "sent", null), mail("skipped", "skipped", "Its time passed before it could be sent.")];

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider } = await import("./console-fakes.ts");
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getList: (resource: string, params: never) =>
        resource === "mailbox" ? Promise.resolve({ data: rows, total: rows.length }) : fakeDataProvider.getList(resource, params),
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});
vi.mock("../src/mailbox/index.ts", async (original) => ({ ...(await original<object>()), devMailboxShown: () => Promise.resolve(true) }));

resetConsoleAfterEach();

describe("the dev mailbox's list", () => {
  it("says a delivered message was logged, not sent, and shows why a message was skipped", async () => {
    window.location.hash = "#/mailbox";
    render(<App />);
    const logged = await waitFor(() => screen.getByRole("row", { name: /logged@example\.com/ }), { timeout: 20_000 });
    expect(logged.textContent).toContain("Logged (no SMTP server)");
    expect(logged.textContent).not.toMatch(/\bSent\b/);
    const skipped = screen.getByRole("row", { name: /skipped@example\.com/ });
    expect(skipped.textContent).toContain("Skipped");
    expect(skipped.textContent).toContain("Its time passed before it could be sent.");
  }, 60_000);
});
