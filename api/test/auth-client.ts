import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type pg from "pg";
import { expect } from "vitest";
import { SESSION_APP_HEADER, type SessionApp } from "@booking/contracts";
import { lastLinkSentTo } from "../src/auth/address-mails.ts";
import { REFRESH_COOKIES } from "../src/auth/refresh-cookie.ts";
import type { TestApi } from "./harness.ts";

// Calls to the auth routes as a browser makes them, for the auth suites; and the one way every
// suite gets a session for a new account: sign up, then follow the verification mail's link.
// A session here is what a browser holds after a sign-in: the reply's body, and the refresh token
// from the app's cookie (Set-Cookie), which the browser's page never sees (issue 33.6).

export const PASSWORD = "correct-horse-42";

/** The auth routes' refusals as a client reads them, written out (the spec's messages), so a changed message fails a test. */
export const refusals = {
  invalid_credentials: { code: "invalid_credentials", message: "Email or password is incorrect." },
  email_not_confirmed: { code: "email_not_confirmed", message: "Please confirm your email before logging in." },
  user_already_exists: { code: "user_already_exists", message: "This email is already registered. Try logging in instead." },
  weak_password: { code: "weak_password", message: "Password is too weak. Please choose a stronger one." },
  same_password: { code: "same_password", message: "You cannot reuse your old password." },
  session_expired: { code: "session_expired", message: "Your session has expired. Please log in again." },
  no_access_token: { code: "no_access_token", message: "No access token found" },
  over_request_rate_limit: { code: "over_request_rate_limit", message: "Too many attempts. Please wait a few minutes and try again." },
  over_email_send_rate_limit: {
    code: "over_email_send_rate_limit",
    message: "Too many attempts. Please wait a few minutes and try again.",
  },
  invalid_request: { code: "invalid_request", message: "The request is not valid." },
  email_link_invalid: { code: "email_link_invalid", message: "This link is no longer valid. Please request a new one." },
  email_link_expired: { code: "email_link_expired", message: "This link has expired. Please request a new one." },
  otp_expired: { code: "otp_expired", message: "Your reset code has expired. Please request a new one." },
} as const;

/** What a reply tells its caller, minus what differs on every reply anyway (its date and request id): equal for two replies the caller cannot tell apart. */
export function seenByCaller(r: LightMyRequestResponse) {
  const { date: _date, "x-request-id": _id, ...headers } = r.headers;
  return { status: r.statusCode, headers, body: r.rawPayload.toString("base64") };
}

export type AuthSession = {
  access_token: string;
  /** From the reply's refresh cookie, not its body. */
  refresh_token: string;
  expires_in: number;
  expires_at: number;
  token_type: string;
  user: { id: string; email: string; role: string; first_name: string | null };
};

/** POST a JSON body to a path under /api/v1, however the suite reaches the API (inject, fetch to a process); the refresh cookie it set, if any. */
export type PostJson = (
  path: string,
  body: Record<string, unknown>,
) => Promise<{ status: number; body: unknown; refreshToken?: string | null }>;

/** The refresh token a reply's Set-Cookie headers give `app` (the web app's by default), or null when they set none. */
export function refreshCookieOf(setCookie: string | string[] | undefined, app: SessionApp = "web"): string | null {
  for (const header of [setCookie ?? []].flat()) {
    const [pair = ""] = header.split(";");
    const at = pair.indexOf("=");
    if (pair.slice(0, at) === REFRESH_COOKIES[app] && pair.length > at + 1) return pair.slice(at + 1);
  }
  return null;
}

/** The session a reply opened, as the browser holds it: its body with the refresh token from its cookie. */
export function sessionOf(r: LightMyRequestResponse, app: SessionApp = "web"): AuthSession {
  const refreshToken = refreshCookieOf(r.headers["set-cookie"], app);
  expect(refreshToken, `a ${app} refresh cookie on ${r.body}`).not.toBeNull();
  return { ...r.json<Omit<AuthSession, "refresh_token">>(), refresh_token: refreshToken! };
}

/** The headers of a refresh as the app's page sends it: its cookie and the app's name. */
export const refreshHeaders = (refreshToken: string, app: SessionApp = "web"): Record<string, string> => ({
  cookie: `${REFRESH_COOKIES[app]}=${refreshToken}`,
  [SESSION_APP_HEADER]: app,
});

/** The token of the newest link of `purpose` mailed to `email` (read from the outbox), or a failed test. */
export async function mailedToken(db: Pick<pg.Pool, "query">, purpose: "verify_email" | "password_reset", email: string): Promise<string> {
  const sent = await lastLinkSentTo(db, purpose, email);
  expect(sent, `a ${purpose} mail to ${email}`).not.toBeNull();
  return sent!.token;
}

/**
 * Sign up and verify through the mail's link: a new account's session, as a person gets it.
 * `db` is the API's database (the outbox is read by address).
 */
export async function signUpVerified(
  db: Pick<pg.Pool, "query">,
  post: PostJson,
  body: Record<string, unknown> & { email: string },
): Promise<AuthSession> {
  const signedUp = await post("/auth/signup", body);
  expect(signedUp.status, JSON.stringify(signedUp.body)).toBe(201);
  const verified = await post("/auth/verify", { token: await mailedToken(db, "verify_email", body.email.trim()) });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return { ...(verified.body as AuthSession), refresh_token: verified.refreshToken ?? "" };
}

/** PostJson over app.inject. */
export const injectPost =
  (api: () => TestApi, headers: () => Record<string, string> = () => ({})): PostJson =>
  async (path, body) => {
    const r = await api().app.inject({ method: "POST", url: `/api/v1${path}`, headers: headers(), payload: body });
    return { status: r.statusCode, body: r.json(), refreshToken: refreshCookieOf(r.headers["set-cookie"]) };
  };

/** PostJson over fetch, to an API process at `base` (…/api/v1). */
export const fetchPost =
  (base: string): PostJson =>
  async (path, body) => {
    const r = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: await r.json().catch(() => null), refreshToken: refreshCookieOf(r.headers.getSetCookie()) };
  };

export type AuthCallOptions = { token?: string; body?: unknown; from?: string; authorization?: string; headers?: Record<string, string> };

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
      headers: { "x-forwarded-for": o.from ?? nextAddress(), ...(authorization ? { authorization } : {}), ...o.headers },
      ...(o.body === undefined ? {} : { payload: o.body as InjectOptions["payload"] }),
    });
  };

  let emails = 0;
  const freshEmail = (prefix = "user") => `${prefix}-${++emails}-${Date.now().toString(36)}@example.com`;

  /** Sign up and follow the verification mail's link: the new account's first session. */
  const signup = (body: Record<string, unknown> = {}): Promise<AuthSession> =>
    signUpVerified(
      api().ctx.db,
      injectPost(api, () => ({ "x-forwarded-for": nextAddress() })),
      { email: freshEmail(), password: PASSWORD, role: "creator", ...body } as Record<string, unknown> & { email: string },
    );

  const login = async (email: string, password = PASSWORD): Promise<AuthSession> => {
    const r = await call("POST", "/auth/login", { body: { email, password } });
    expect(r.statusCode, r.body).toBe(200);
    return sessionOf(r);
  };

  /** A refresh as the web app's page sends it (its cookie, its name); `sessionOf` reads the session it gave. */
  const refresh = (refreshToken: string, o: AuthCallOptions = {}) =>
    call("POST", "/auth/refresh", { ...o, headers: { ...refreshHeaders(refreshToken), ...o.headers } });

  return { call, freshEmail, signup, login, refresh };
}
