import type { ReactElement } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ThemeProvider } from "@mui/material/styles";
import { render } from "@testing-library/react";
import { vi } from "vitest";
import type { Me } from "../src/shared/api-types.ts";
import { StaticAuthProvider, type AuthState } from "../src/shared/auth.tsx";
import { defaultFlags, FlagsContext, type Flags } from "../src/shared/flags.ts";
import { theme } from "../src/shared/theme.ts";

// For component tests: a screen under the app's providers, a fixed auth state and a fake /api/v1.

export const signedOut: AuthState = { status: "signed_out", user: null, token: null, termsAccepted: null };

export function signedInAs(role: Me["role"], change: Partial<Me> = {}, termsAccepted = true): AuthState {
  const user: Me = {
    id: `${role}-1`,
    email: `${role}@example.com`,
    role,
    first_name: "Test",
    last_name: "User",
    expert_id: role === "expert" ? `${role}-1` : null,
    terms_accepted: termsAccepted,
    email_verified: true,
    timezone: "UTC",
    reminder_mails: true,
    ...change,
  };
  return { status: "authenticated", user, token: "token", termsAccepted };
}

function WhereAmI() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

export function renderScreen(
  ui: ReactElement,
  options: {
    route?: string;
    path?: string;
    auth?: AuthState;
    flags?: Partial<Flags>;
    /** Screens at other paths, to land on. */ others?: Record<string, ReactElement>;
  } = {},
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <ThemeProvider theme={theme}>
      <FlagsContext.Provider value={{ ...defaultFlags, showEnvironmentBanner: false, ...options.flags }}>
        <QueryClientProvider client={client}>
          <StaticAuthProvider value={options.auth ?? signedOut}>
            <MemoryRouter initialEntries={[options.route ?? "/"]}>
              <Routes>
                <Route path={options.path ?? "/"} element={ui} />
                {Object.entries(options.others ?? {}).map(([path, element]) => (
                  <Route key={path} path={path} element={element} />
                ))}
                <Route path="*" element={null} />
              </Routes>
              <WhereAmI />
            </MemoryRouter>
          </StaticAuthProvider>
        </QueryClientProvider>
      </FlagsContext.Provider>
    </ThemeProvider>,
  );
}

/** A fixed reply: its status, body and any response headers (a paged list's `link`, say). */
type FakeAnswer = { status: number; body?: unknown; headers?: Record<string, string> };
/** A function reply may be a promise, to hold a reply back while a test looks at the loading state. */
type FakeReply = FakeAnswer | ((body: unknown) => FakeAnswer | Promise<FakeAnswer>);

/** Replace fetch with fixed replies keyed "METHOD /path" (under /api/v1); returns the calls made. */
export function fakeApi(replies: Record<string, FakeReply>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const path = String(input).replace(/^.*\/api\/v1/, "");
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : init?.body;
    calls.push({ method, path, body });
    const reply = replies[`${method} ${path}`];
    const r =
      typeof reply === "function" ? await reply(body) : (reply ?? { status: 404, body: { code: "not_found", message: "Not found." } });
    return new Response(r.status === 204 ? null : JSON.stringify(r.body ?? {}), {
      status: r.status,
      headers: { "content-type": "application/json", ...r.headers },
    });
  });
  vi.stubGlobal("fetch", fetchMock);
  return calls;
}

/** The calls that change something, leaving out what a screen reads on the way (the account's calendar feed, say). */
export const writes = <C extends { method: string }>(calls: C[]): C[] => calls.filter((c) => c.method !== "GET");
