import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { TestApi } from "./harness.ts";

// Calls to the auth routes as a browser makes them, for the auth suites.

export const PASSWORD = "correct-horse-42";

export type AuthSession = {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at: number;
  token_type: string;
  user: { id: string; email: string; role: string; first_name: string | null };
};

export type AuthCallOptions = { token?: string; body?: unknown; from?: string; authorization?: string };

/** `subnet` keeps each suite's client addresses apart (e.g. "198.18"). */
export function authClient(api: () => TestApi, subnet: string) {
  // Credential routes are rate limited per client address: each call comes from its own address
  // unless a test names one, so a suite never trips the limit by accident.
  let clients = 0;
  const nextAddress = () => {
    clients++;
    return `${subnet}.${Math.floor(clients / 250)}.${(clients % 250) + 1}`;
  };

  const call = (method: InjectOptions["method"], url: string, o: AuthCallOptions = {}): Promise<LightMyRequestResponse> => {
    const authorization = o.authorization ?? (o.token ? `Bearer ${o.token}` : undefined);
    return api().app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { "x-forwarded-for": o.from ?? nextAddress(), ...(authorization ? { authorization } : {}) },
      ...(o.body === undefined ? {} : { payload: o.body as InjectOptions["payload"] }),
    });
  };

  let emails = 0;
  const freshEmail = (prefix = "user") => `${prefix}-${++emails}-${Date.now().toString(36)}@example.com`;

  const signup = async (body: Record<string, unknown> = {}): Promise<AuthSession> => {
    const r = await call("POST", "/auth/signup", { body: { email: freshEmail(), password: PASSWORD, role: "creator", ...body } });
    expect(r.statusCode, r.body).toBe(201);
    return r.json<AuthSession>();
  };

  const login = async (email: string, password = PASSWORD): Promise<AuthSession> => {
    const r = await call("POST", "/auth/login", { body: { email, password } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<AuthSession>();
  };

  const refresh = (refreshToken: string) => call("POST", "/auth/refresh", { body: { refresh_token: refreshToken } });

  return { call, freshEmail, signup, login, refresh };
}
