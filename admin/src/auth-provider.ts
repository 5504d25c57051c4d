import type { AuthProvider, UserIdentity } from "react-admin";

// Sign-in against the API's own auth (/api/v1/auth/*). The session (a short-lived access token
// and a rotating refresh token) lives in localStorage. Only admins get in: anyone else is told so
// and the session their credentials just opened is ended at once.

export const API_ROOT = "/api/v1";
export const ADMINS_ONLY = "This console is for admins only.";
const SESSION_EXPIRED = "Your session has expired. Please log in again.";

const STORAGE_KEY = "expert-sessions.admin.session";
/** Refresh this long before the access token expires, so no request carries a token about to lapse. */
const REFRESH_MARGIN_SECONDS = 60;
/** Serialises refreshes across tabs: a refresh token is single-use, and using one twice ends the session. */
const REFRESH_LOCK = "expert-sessions.admin.refresh";

type Role = "creator" | "expert" | "admin";

/** The API's auth session reply (POST /auth/login and /auth/refresh). */
export type AuthSession = {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  /** Seconds since the epoch. */
  expires_at: number;
  token_type: "bearer";
  user: { id: string; email: string; role: Role; first_name: string | null };
};

/** GET /auth/me. */
type Me = { id: string; email: string; role: Role; first_name: string | null; last_name: string | null };

function isAuthSession(value: unknown): value is AuthSession {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<AuthSession>;
  return typeof v.access_token === "string" && typeof v.refresh_token === "string" && typeof v.expires_at === "number" && typeof v.user?.role === "string";
}

export function storedSession(): AuthSession | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    return isAuthSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function keepSession(session: AuthSession): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

function forgetSession(): void {
  localStorage.removeItem(STORAGE_KEY);
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
    if (typeof body === "object" && body !== null && typeof (body as { message?: unknown }).message === "string") return (body as { message: string }).message;
  } catch {
    // not JSON
  }
  return fallback;
}

/**
 * Rotate the refresh token for a fresh access token. `stale` is the session the caller found too
 * old: when the stored one has moved on (another tab or call already refreshed), that one is used.
 * Resolves null when the session is over (refresh refused, or the account is no longer an admin).
 */
async function refreshSession(stale: AuthSession): Promise<AuthSession | null> {
  const rotate = async (): Promise<AuthSession | null> => {
    const current = storedSession();
    if (!current) return null;
    if (current.refresh_token !== stale.refresh_token) return current;
    const response = await postJson("/auth/refresh", { refresh_token: current.refresh_token });
    if (!response.ok) {
      // A refusal ends the session; anything else (rate limit, server down) leaves it for a later try.
      if (response.status === 401 || response.status === 400) forgetSession();
      return null;
    }
    const next: unknown = await response.json();
    if (!isAuthSession(next) || next.user.role !== "admin") {
      forgetSession();
      return null;
    }
    keepSession(next);
    return next;
  };
  return typeof navigator !== "undefined" && navigator.locks ? navigator.locks.request(REFRESH_LOCK, rotate) : rotate();
}

const secondsLeft = (session: AuthSession) => session.expires_at - Date.now() / 1000;

/** A usable access token, refreshed first when it is close to expiry; null when signed out. */
export async function accessToken(): Promise<string | null> {
  const session = storedSession();
  if (!session) return null;
  if (secondsLeft(session) > REFRESH_MARGIN_SECONDS) return session.access_token;
  return (await refreshSession(session))?.access_token ?? null;
}

/** After a 401 despite a fresh-looking token (server restarted with a new secret, clock skew): refresh once. */
export async function renewedAccessToken(rejected: string): Promise<string | null> {
  const session = storedSession();
  if (!session) return null;
  if (session.access_token !== rejected) return session.access_token;
  return (await refreshSession(session))?.access_token ?? null;
}

export const authProvider: AuthProvider = {
  async login(params: { username?: string; email?: string; password?: string }) {
    const response = await postJson("/auth/login", { email: params.email ?? params.username ?? "", password: params.password ?? "" });
    if (!response.ok) throw new Error(await messageOf(response, "Sign-in failed. Please try again."));
    const session: unknown = await response.json();
    if (!isAuthSession(session)) throw new Error("Sign-in failed. Please try again.");
    if (session.user.role !== "admin") {
      // End the session these credentials just opened (this one only): a non-admin keeps nothing from here.
      await postJson("/auth/logout", { scope: "local" }, session.access_token).catch(() => undefined);
      forgetSession();
      throw new Error(ADMINS_ONLY);
    }
    keepSession(session);
  },

  async logout() {
    const token = await accessToken().catch(() => null);
    forgetSession();
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
    const token = await accessToken();
    if (!token) throw new Error(SESSION_EXPIRED);
    const response = await fetch(`${API_ROOT}/auth/me`, { headers: { Authorization: `Bearer ${token}`, Accept: "application/json" } });
    if (!response.ok) throw new Error(await messageOf(response, SESSION_EXPIRED));
    const me = (await response.json()) as Me;
    const name = [me.first_name, me.last_name].filter(Boolean).join(" ");
    return { id: me.id, fullName: name || me.email, email: me.email, role: me.role };
  },

  async getPermissions() {
    return storedSession()?.user.role ?? null;
  },
};
