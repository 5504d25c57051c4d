import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signedInMarker } from "@booking/session-client";
import type { AuthSession } from "./api-types.ts";
import { AuthProvider, useAuth } from "./auth.tsx";

// Spec section 4: on profile-load failure the user and token are cleared. Only a refusal from the
// server counts: a request cut off (the page navigating away, a dropped connection) kept nothing
// of the sign-in for the next page, and an admin reloading a page landed on /login. The page starts
// as after a reload: this browser is signed in (the marker), and the refresh cookie gives the session.

const KEY = "expert-sessions.auth";
const session: AuthSession = {
  access_token: "access-1",
  expires_in: 900,
  expires_at: Math.floor(Date.now() / 1000) + 900,
  token_type: "bearer",
  user: { id: "admin-1", email: "admin@example.com", role: "admin", first_name: "Admin" },
};

function Status() {
  return <div data-testid="status">{useAuth().status}</div>;
}

function start(profile: () => Promise<Response>) {
  localStorage.setItem(KEY, signedInMarker());
  const restored = () => new Response(JSON.stringify(session), { status: 200, headers: { "content-type": "application/json" } });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.endsWith("/auth/refresh")) return restored();
      return url.endsWith("/auth/me") ? profile() : new Response(null, { status: 204 });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AuthProvider>
        <Status />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("loading the profile", () => {
  it("keeps the stored sign-in when the request never got an answer", async () => {
    start(() => Promise.reject(new TypeError("Failed to fetch")));
    await waitFor(() => expect(screen.getByTestId("status")).toHaveTextContent("signed_out"));
    expect(localStorage.getItem(KEY)).not.toBeNull();
  });

  it("clears it when the server refuses the profile", async () => {
    start(
      async () =>
        new Response(JSON.stringify({ code: "forbidden", message: "You do not have access to this." }), {
          status: 403,
          headers: { "content-type": "application/json" },
        }),
    );
    await waitFor(() => expect(screen.getByTestId("status")).toHaveTextContent("signed_out"));
    await waitFor(() => expect(localStorage.getItem(KEY)).toBeNull());
  });
});
