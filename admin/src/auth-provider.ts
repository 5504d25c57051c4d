import type { AuthSessionReply, MeReply } from "@booking/contracts";
import { createSessionClient, hasSessionTokens } from "@booking/session-client";
import type { AuthProvider, UserIdentity } from "react-admin";

// Sign-in against the API's own auth (/api/v1/auth/*). The session (a short-lived access token
// and a rotating refresh token) is @booking/session-client's, under the console's own key, apart
// from the web app's. Only admins get in: anyone else is told so and the session their credentials
// just opened is ended at once; a refresh that no longer returns an admin's session ends it too.

export const API_ROOT = "/api/v1";
export const ADMINS_ONLY = "This console is for admins only.";
const SESSION_EXPIRED = "Your session has expired. Please log in again.";

/** The API's auth session reply (POST /auth/login and /auth/refresh). */
export type AuthSession = AuthSessionReply;

function isAuthSession(value: unknown): value is AuthSession {
  return hasSessionTokens(value) && typeof (value as Partial<AuthSession>).user?.role === "string";
}

/** No auto-refresh timer: a token is refreshed when a call finds it within a minute of expiry. */
const session = createSessionClient<AuthSession>({
  storageKey: "expert-sessions.admin.session",
  lockName: "expert-sessions.admin.refresh",
  refreshUrl: `${API_ROOT}/auth/refresh`,
  isSession: (value): value is AuthSession => isAuthSession(value) && value.user.role === "admin",
});

export function storedSession(): AuthSession | null {
  return session.get();
}

function postJson(path: string, body: unknown, accessToken?: string): Promise<Response> {
  const headers = new Headers({ "Content-Type": "application/json", Accept: "application/json" });
  if (accessToken) headers.set("Authorization", `Bearer ${accessToken}`);
  return fetch(`${API_ROOT}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
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

export const authProvider: AuthProvider = {
  async login(params: { username?: string; email?: string; password?: string }) {
    const response = await postJson("/auth/login", { email: params.email ?? params.username ?? "", password: params.password ?? "" });
    if (!response.ok) throw new Error(await messageOf(response, "Sign-in failed. Please try again."));
    const reply: unknown = await response.json();
    if (!isAuthSession(reply)) throw new Error("Sign-in failed. Please try again.");
    if (reply.user.role !== "admin") {
      // End the session these credentials just opened (this one only): a non-admin keeps nothing from here.
      await postJson("/auth/logout", { scope: "local" }, reply.access_token).catch(() => undefined);
      session.set(null);
      throw new Error(ADMINS_ONLY);
    }
    session.set(reply);
  },

  async logout() {
    const token = await accessToken().catch(() => null);
    session.set(null);
    // Ends this console's session on the server; the admin's sessions elsewhere stay.
    if (token) await postJson("/auth/logout", { scope: "local" }, token).catch(() => undefined);
  },

  async checkAuth() {
    const hadSession = storedSession() !== null;
    const token = await accessToken();
    // No toast on a first visit; one when a session ran out.
    if (!token) throw { message: hadSession ? SESSION_EXPIRED : false };
  },

  async checkError(error: { status?: number }) {
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
    return storedSession()?.user.role ?? null;
  },
};
