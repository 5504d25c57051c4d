import { startAuthentication } from "@simplewebauthn/browser";
import {
  SESSION_APP_HEADER,
  needsSecondFactor,
  type AuthSessionReply,
  type LoginReply,
  type MeReply,
  type PasskeyRequestOptions,
  type SecondFactorKind,
  type TwoFactorConfirmReply,
  type TwoFactorEnrolReply,
  type TwoFactorStatusReply,
} from "@booking/contracts";
import { createSessionClient, hasSessionTokens } from "@booking/session-client";
import type { AuthProvider, UserIdentity } from "react-admin";
import { SESSION_MARKER_KEY, SignInRefused } from "./console-session.ts";

// Sign-in against the API's own auth (/api/v1/auth/*). The session (a short-lived access token in
// this tab's memory, and a rotating refresh token in the console's own HttpOnly cookie, issue 33.6)
// is @booking/session-client's, under the console's own key and cookie, apart from the web app's.
// Only admins get in: anyone else is told so and the session their credentials just opened is
// ended at once; a refresh that no longer returns an admin's session ends it too.
// Admins sign in with a second factor (issue 33.4): the password gives a challenge a code or a passkey answers,
// and an admin without one is signed in only once the sign-in page has set one up (the API refuses
// the console's routes until then), so a stored session is always one the console can use.

export const API_ROOT = "/api/v1";
export const ADMINS_ONLY = "This console is for admins only.";
const SESSION_EXPIRED = "Your session has expired. Please log in again.";
export const ENROL_FIRST = "Set up two-factor sign-in before using the console.";

/** The API's auth session reply (POST /auth/login and /auth/refresh). */
export type AuthSession = AuthSessionReply;

function isAuthSession(value: unknown): value is AuthSession {
  return hasSessionTokens(value) && typeof (value as Partial<AuthSession>).user?.role === "string";
}

/**
 * No auto-refresh timer: a token is refreshed when a call finds it within a minute of expiry. After
 * a reload, the first call takes the session up from the cookie (the session client's `restore`).
 */
const session = createSessionClient<AuthSession>({
  storageKey: SESSION_MARKER_KEY,
  lockName: "expert-sessions.admin.refresh",
  refreshUrl: `${API_ROOT}/auth/refresh`,
  app: "console",
  isSession: (value): value is AuthSession => isAuthSession(value) && value.user.role === "admin",
});
// A sign-out in another of the console's tabs signs this one out too.
session.follow();

/** This tab's session (after a reload, once a call has restored it). */
export function storedSession(): AuthSession | null {
  return session.get();
}

/** The calls that open or end a session name the console, so the API sets and clears the console's cookie, not the web app's. */
function postJson(path: string, body: unknown, accessToken?: string): Promise<Response> {
  const headers = new Headers({ "Content-Type": "application/json", Accept: "application/json", [SESSION_APP_HEADER]: "console" });
  if (accessToken) headers.set("Authorization", `Bearer ${accessToken}`);
  return fetch(`${API_ROOT}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

// SignInRefused lives in console-session.ts, which the sign-in page's first load has without this module.
export { SignInRefused };

/** The reply's JSON, or a SignInRefused with the API's message and code. */
async function replyOf<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const code = await response
    .clone()
    .json()
    .then((body: unknown) => ((body as { code?: unknown } | null)?.code as string | undefined) ?? null)
    .catch(() => null);
  throw new SignInRefused(await messageOf(response, "Sign-in failed. Please try again."), typeof code === "string" ? code : null);
}

/** The `{ code, message }` error body's message, else a fallback. */
async function messageOf(response: Response, fallback: string): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (typeof body === "object" && body !== null && typeof (body as { message?: unknown }).message === "string")
      return (body as { message: string }).message;
  } catch {
    // not JSON
  }
  return fallback;
}

/** A usable access token, refreshed first when it is close to expiry; null when signed out. */
export async function accessToken(): Promise<string | null> {
  return (await session.fresh())?.access_token ?? null;
}

/** After a 401 despite a fresh-looking token (server restarted with a new secret, clock skew): refresh once. */
export async function renewedAccessToken(rejected: string): Promise<string | null> {
  return (await session.renew(rejected))?.access_token ?? null;
}

/**
 * Where a sign-in stands after a step: signed in; the second factor to give (a code, a passkey: what
 * the account has); or an admin without a second factor, whose session (not stored yet) sets one up first.
 */
export type SignInStep =
  | { kind: "signed-in"; session: AuthSession }
  | { kind: "code"; challenge: string; secondFactors: SecondFactorKind[] }
  | { kind: "enrol"; session: AuthSession };

/**
 * A session the password or a second factor gave: an admin's, and one that may use the console or must enrol first.
 * `secondFactorGiven`: it came from a code or a passkey, so the admin has one (the console's gate takes either).
 */
async function stepOf(reply: unknown, secondFactorGiven = false): Promise<SignInStep> {
  if (!isAuthSession(reply)) throw new Error("Sign-in failed. Please try again.");
  if (reply.user.role !== "admin") {
    // End the session these credentials just opened (this one only): a non-admin keeps nothing from here.
    await postJson("/auth/logout", { scope: "local" }, reply.access_token).catch(() => undefined);
    throw new Error(ADMINS_ONLY);
  }
  if (secondFactorGiven) return { kind: "signed-in", session: reply };
  const status = await fetch(`${API_ROOT}/auth/two-factor`, { headers: { Authorization: `Bearer ${reply.access_token}` } });
  const { required, enrolled } = await replyOf<TwoFactorStatusReply>(status);
  return required && !enrolled ? { kind: "enrol", session: reply } : { kind: "signed-in", session: reply };
}

/** The password step. */
export async function signInWithPassword(email: string, password: string): Promise<SignInStep> {
  const reply = await replyOf<LoginReply>(await postJson("/auth/login", { email, password }));
  if (!needsSecondFactor(reply)) return stepOf(reply);
  // An API from before passkeys (the old half of a blue-green deploy) names no second factors: the code, as it asked then.
  return { kind: "code", challenge: reply.challenge, secondFactors: (reply.second_factors as SecondFactorKind[] | undefined) ?? ["code"] };
}

/** The code step: a code the authenticator app shows, or one recovery code. */
export async function signInWithSecondFactor(challenge: string, proof: { code: string } | { recovery_code: string }): Promise<SignInStep> {
  return stepOf(await replyOf<unknown>(await postJson("/auth/login/two-factor", { challenge, ...proof })), true);
}

/** The code step answered with one of the admin's passkeys instead: the device is asked, the API checks its answer. */
export async function signInWithPasskey(challenge: string): Promise<SignInStep> {
  const optionsJSON = await replyOf<PasskeyRequestOptions>(await postJson("/auth/login/two-factor/passkey/options", { challenge }));
  const response = await startAuthentication({ optionsJSON });
  return stepOf(await replyOf<unknown>(await postJson("/auth/login/two-factor/passkey", { challenge, response })), true);
}

/** Setting up two-factor sign-in with the session the password gave: the QR code and the key. */
export async function enrolTwoFactor(session: AuthSession, password: string): Promise<TwoFactorEnrolReply> {
  return replyOf<TwoFactorEnrolReply>(await postJson("/auth/two-factor/enrol", { current_password: password }, session.access_token));
}

/** The first code turns it on: the ten recovery codes, shown once. */
export async function confirmTwoFactor(session: AuthSession, code: string): Promise<string[]> {
  return (await replyOf<TwoFactorConfirmReply>(await postJson("/auth/two-factor/confirm", { code }, session.access_token))).recovery_codes;
}

export const authProvider: AuthProvider = {
  /** `{ session }`: the sign-in page's steps ended in a usable session; else email and password, for an account needing no more. */
  async login(params: { session?: AuthSession; username?: string; email?: string; password?: string }) {
    const step = params.session
      ? { kind: "signed-in" as const, session: params.session }
      : await signInWithPassword(params.email ?? params.username ?? "", params.password ?? "");
    if (step.kind === "code") throw new Error("Enter the code from your authenticator app.");
    if (step.kind === "enrol") throw new Error(ENROL_FIRST);
    if (!isAuthSession(step.session) || step.session.user.role !== "admin") throw new Error(ADMINS_ONLY);
    session.set(step.session);
  },

  async logout() {
    const token = await accessToken().catch(() => null);
    session.set(null);
    // Ends this console's session on the server; the admin's sessions elsewhere stay.
    if (token) await postJson("/auth/logout", { scope: "local" }, token).catch(() => undefined);
  },

  async checkAuth() {
    // Signed in before this page loaded (the marker) or in this tab: losing it is worth telling.
    const hadSession = storedSession() !== null || session.signedIn();
    const token = await accessToken();
    // No toast on a first visit; one when a session ran out.
    if (!token) throw { message: hadSession ? SESSION_EXPIRED : false };
  },

  async checkError(error: { status?: number; body?: { code?: unknown } }) {
    // The sign-in page sets up the second factor: signing in again leads there (it was turned off meanwhile, say).
    if (error?.status === 403 && error.body?.code === "two_factor_enrolment_required") throw { message: ENROL_FIRST };
    // The data provider has already refreshed and retried once on 401; 403 means this token is not an admin's.
    if (error?.status === 401 || error?.status === 403) throw { message: error.status === 403 ? ADMINS_ONLY : SESSION_EXPIRED };
  },

  async getIdentity(): Promise<UserIdentity> {
    if (!(await accessToken())) throw new Error(SESSION_EXPIRED);
    const response = await session.fetch(`${API_ROOT}/auth/me`, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(await messageOf(response, SESSION_EXPIRED));
    const me = (await response.json()) as MeReply;
    const name = [me.first_name, me.last_name].filter(Boolean).join(" ");
    return { id: me.id, fullName: name || me.email, email: me.email, role: me.role };
  },

  async getPermissions() {
    return (await session.fresh())?.user.role ?? null;
  },
};
