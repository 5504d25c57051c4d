import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { AdminUserReply } from "@booking/contracts";
import { App } from "../src/app.tsx";
import { consoleMoment } from "../src/fields/date-time-field.tsx";
import { resetConsoleAfterEach } from "./console-fakes.ts";

// Issue 33.2: the console shows an erased account as erased, and when, never who it was: its row names nobody (the
// erased address marker, "Deleted user"), and the list and the user's page say "Account erased" with the moment.

const ERASED_AT = "2030-03-05T11:30:00.000Z";
const erased: AdminUserReply = {
  id: "00000000-0000-4000-8000-0000000000e5",
  user_id: "00000000-0000-4000-8000-0000000000e5",
  email: "deleted-user-00000000-0000-4000-8000-0000000000e5@erased.invalid",
  role: "creator",
  first_name: "Deleted",
  last_name: "user",
  registered_at: "2030-01-01T09:00:00.000Z",
  email_verified_at: "2030-01-01T09:05:00.000Z",
  timezone: "UTC",
  reminder_mails: true,
  erased_at: ERASED_AT,
  stream_version: 5,
  expert_id: null,
  current_terms_version: "2025-01",
  accepted_current_terms: true,
  current_terms_accepted_at: "2030-01-01T09:10:00.000Z",
  latest_terms_version: "2025-01",
  bookings_as_creator: 2,
  bookings_as_expert: 0,
};

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider } = await import("./console-fakes.ts");
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getList: (resource: string) =>
        resource === "users" ? Promise.resolve({ data: [erased], total: 1 }) : fakeDataProvider.getList(resource, {} as never),
      getOne: (resource: string, params: { id: string }) =>
        resource === "users" ? Promise.resolve({ data: erased }) : fakeDataProvider.getOne(resource, params as never),
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

resetConsoleAfterEach();

describe("an erased account in the console", () => {
  it("is listed as erased and when, named Deleted user, its address not shown", async () => {
    window.location.hash = "#/users";
    render(<App />);
    const row = await waitFor(() => screen.getByRole("row", { name: /Deleted user/ }), { timeout: 20_000 });
    expect(row.textContent).toContain(`Account erased ${consoleMoment(ERASED_AT)}`);
    expect(row.textContent).not.toContain("@erased.invalid");
  }, 60_000);

  it("shows on its page that it was erased, and when", async () => {
    window.location.hash = `#/users/${erased.id}/show`;
    render(<App />);
    const status = await screen.findByText(/^Account erased .*: the name, address and words it had are gone\.$/, {}, { timeout: 20_000 });
    expect(status.textContent).toContain(`Account erased ${consoleMoment(ERASED_AT)}`);
    expect(document.body.textContent).not.toContain("@erased.invalid");
  }, 60_000);
});
