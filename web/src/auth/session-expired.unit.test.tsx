import { useState } from "react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { QueryClient } from "@tanstack/react-query";
import { screen, waitFor } from "@testing-library/react";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { signedInMarker } from "@booking/session-client";
import { AppProviders } from "../app-providers.tsx";
import { AppRoutes } from "../routes.tsx";
import { defaultFlags } from "../shared/flags.ts";
import type { AuthSession, Me } from "../shared/api-types.ts";

// Issue 13.9: a session that can no longer be refreshed sends the user to /login, says why, and
// after logging in brings them back to the page they were on. Issue 13.8: "Forgot password?" (a form since issue 16).

const creator: Me = {
  id: "creator-9",
  email: "cora@example.com",
  role: "creator",
  first_name: "Cora",
  last_name: "Quinn",
  expert_id: null,
  terms_accepted: true,
  email_verified: true,
  timezone: "UTC",
  reminder_mails: true,
};

const sessionFor = (n: number, expiresInSeconds: number): AuthSession => ({
  access_token: `access-${n}`,
  expires_in: 900,
  expires_at: Math.floor(Date.now() / 1000) + expiresInSeconds,
  token_type: "bearer",
  user: { id: creator.id, email: creator.email, role: "creator", first_name: "Cora" },
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The server: refresh refused (the session is over), login works, /auth/me answers a live token. */
function fakeServer() {
  const live = new Set<string>();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = `${(init?.method ?? "GET").toUpperCase()} ${String(input).replace(/^.*\/api\/v1/, "")}`;
      const token = ((init?.headers ?? {}) as Record<string, string>).authorization?.replace("Bearer ", "");
      if (path === "POST /auth/refresh") return json(401, { code: "session_expired", message: "x" });
      if (path === "POST /auth/login") {
        const s = sessionFor(2, 900);
        live.add(s.access_token);
        return json(200, s);
      }
      if (path === "GET /auth/me")
        return token && live.has(token)
          ? json(200, creator)
          : json(401, { code: token ? "session_expired" : "no_access_token", message: "x" });
      return json(404, { code: "not_found", message: "Not found." });
    }),
  );
}

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

function App({ at }: { at: string }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  return (
    <AppProviders flags={{ ...defaultFlags, showEnvironmentBanner: false }} queryClient={client}>
      <MemoryRouter initialEntries={[at]}>
        <AppRoutes />
        <Where />
      </MemoryRouter>
    </AppProviders>
  );
}

describe("an expired session", () => {
  it("goes to /login saying the session expired, and after logging in returns to the page it was on", async () => {
    fakeServer();
    // A reload of a browser signed in before (the marker), whose refresh cookie the server refuses.
    localStorage.setItem("expert-sessions.auth", signedInMarker());
    render(<App at="/account?section=password" />);

    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent(/^\/login$/), { timeout: 10_000 });
    expect(screen.getByRole("status")).toHaveTextContent("Your session has expired. Please log in again.");

    await userEvent.type(screen.getByLabelText(/Email/), creator.email);
    await userEvent.type(screen.getByLabelText(/^Password/), "cora-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent("/account?section=password"), { timeout: 10_000 });
    expect(await screen.findByRole("heading", { name: "Your Account" })).toBeInTheDocument();
  });

  it("a visitor who was never signed in sees no expiry message", async () => {
    fakeServer();
    render(<App at="/account" />);
    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent(/^\/login$/), { timeout: 10_000 });
    expect(screen.getByRole("heading", { name: "Login" })).toBeInTheDocument();
    expect(screen.queryByText("Your session has expired. Please log in again.")).not.toBeInTheDocument();
  });
});

describe("forgot password", () => {
  it("the login page links to the reset form (issue 16), with a way back", async () => {
    fakeServer();
    render(<App at="/login" />);
    await userEvent.click(await screen.findByRole("link", { name: "Forgot password?" }));
    // The page is a chunk of its own (issue 19); the navigation completes once it has loaded.
    expect(await screen.findByRole("heading", { name: "Forgot Password" })).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent("/forgot-password");
    expect(screen.getByRole("button", { name: "Send Reset Link" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("link", { name: "Back to Login" }));
    expect(screen.getByTestId("where")).toHaveTextContent(/^\/login$/);
  });
});
