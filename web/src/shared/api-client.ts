import { errorCatalogue, errorCodeAliases, isErrorCode, TIMERS_MS } from "@booking/contracts";
import type { AuthSession } from "./api-types.ts";

// The one way the app talks to /api/v1. It keeps the signed-in session (persisted in
// localStorage and shared by every tab through the `storage` event), attaches the bearer token,
// refreshes it shortly before it expires (rotating refresh tokens: one tab refreshes at a time,
// under a Web Lock, and the others adopt the result), and turns `{ code, message }` replies into
// the error catalogue's message.

export const API_BASE = "/api/v1";
const STORAGE_KEY = "expert-sessions.auth";
/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000;
const REFRESH_ATTEMPTS = 5;

export const UNKNOWN_ERROR_MESSAGE = "An unknown error occurred.";
export const GENERIC_ERROR_MESSAGE = "Something went wrong. Please try again.";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The user-facing message of an error reply: the catalogue's text for its code (spec section 8). */
export function messageForError(body: unknown): string {
  if (!body || typeof body !== "object") return UNKNOWN_ERROR_MESSAGE;
  const { code, message } = body as { code?: unknown; message?: unknown };
  if (typeof code !== "string") return typeof message === "string" && message ? message : UNKNOWN_ERROR_MESSAGE;
  const known = errorCodeAliases[code] ?? (isErrorCode(code) ? code : undefined);
  if (!known) return GENERIC_ERROR_MESSAGE;
  const template: string = errorCatalogue[known].message;
  // Templates with {placeholders} are filled in by the server.
  if (template.includes("{")) return typeof message === "string" && message ? message : GENERIC_ERROR_MESSAGE;
  return template;
}

/** The message to show for anything thrown by a call. */
export function errorMessage(error: unknown, fallback = GENERIC_ERROR_MESSAGE): string {
  return error instanceof ApiError ? error.message : fallback;
}

// ---- the session -------------------------------------------------------------------------

/** Why the session went away when it was not the user's own doing: the server would not refresh it. */
export type SessionEnd = "expired";
type SessionListener = (session: AuthSession | null, ended?: SessionEnd) => void;
const listeners = new Set<SessionListener>();
let current: AuthSession | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<AuthSession | null> | null = null;

function readStored(): AuthSession | null {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as AuthSession;
    return parsed && typeof parsed.access_token === "string" && typeof parsed.refresh_token === "string" ? parsed : null;
  } catch {
    return null;
  }
}

function writeStored(session: AuthSession | null): void {
  try {
    if (session) globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(session));
    else globalThis.localStorage?.removeItem(STORAGE_KEY);
  } catch {
    // Private mode or a full quota: the session still lives in memory for this tab.
  }
}

function notify(ended?: SessionEnd): void {
  for (const listener of listeners) listener(current, ended);
}

function expiresInMs(session: AuthSession): number {
  return session.expires_at * 1000 - Date.now();
}

function scheduleRefresh(): void {
  clearTimeout(refreshTimer);
  refreshTimer = undefined;
  if (!current) return;
  // Auto-refresh pauses while the tab is hidden and resumes when it is visible again.
  if (typeof document !== "undefined" && document.visibilityState === "hidden") return;
  const due = Math.max(0, expiresInMs(current) - REFRESH_MARGIN_MS);
  refreshTimer = setTimeout(() => void refreshSession(), due);
}

function adopt(session: AuthSession | null, persist: boolean, ended?: SessionEnd): void {
  current = session;
  if (persist) writeStored(session);
  scheduleRefresh();
  notify(ended);
}

/** Start from the stored session and follow other tabs. Called once by the app's entry. */
let following = false;
export function initSession(): AuthSession | null {
  current = readStored();
  if (typeof window !== "undefined" && !following) {
    following = true;
    window.addEventListener("storage", (event) => {
      if (event.key !== STORAGE_KEY && event.key !== null) return;
      const stored = readStored();
      if (stored?.access_token === current?.access_token) return;
      adopt(stored, false);
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") scheduleRefresh();
      else clearTimeout(refreshTimer);
    });
  }
  scheduleRefresh();
  return current;
}

export function getSession(): AuthSession | null {
  return current;
}

export function setSession(session: AuthSession | null): void {
  adopt(session, true);
}

export function onSessionChange(listener: SessionListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== "undefined" ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (!locks) return work();
  return locks.request("expert-sessions.refresh", work) as Promise<T>;
}

/** Rotate the refresh token for a new access token (one refresh at a time across tabs). */
export function refreshSession(): Promise<AuthSession | null> {
  refreshing ??= withRefreshLock(async () => {
    // Another tab may have refreshed while this one waited for the lock: use its session.
    const stored = readStored();
    if (!stored) {
      if (current) adopt(null, false);
      return null;
    }
    if (stored.refresh_token !== current?.refresh_token && expiresInMs(stored) > REFRESH_MARGIN_MS) {
      adopt(stored, false);
      return stored;
    }
    let delay: number = TIMERS_MS.tokenRefreshBackoffStart;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${API_BASE}/auth/refresh`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ refresh_token: stored.refresh_token }),
          credentials: "include",
        });
      } catch {
        if (attempt >= REFRESH_ATTEMPTS) return current;
        await sleep(delay);
        delay *= 2;
        continue;
      }
      if (response.ok) {
        const next = (await response.json()) as AuthSession;
        adopt(next, true);
        return next;
      }
      if (response.status >= 500 || response.status === 429) {
        if (attempt >= REFRESH_ATTEMPTS) return current;
        await sleep(delay);
        delay *= 2;
        continue;
      }
      // The refresh token is used up, revoked or expired: the session is over, and the user is told so.
      adopt(null, true, "expired");
      return null;
    }
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

// ---- calls -------------------------------------------------------------------------------

type CallOptions = { body?: unknown; auth?: boolean; signal?: AbortSignal };

async function send(method: string, path: string, options: CallOptions, retried: boolean): Promise<unknown> {
  const auth = options.auth ?? true;
  if (auth && current && expiresInMs(current) < 30_000) await refreshSession();
  const headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  const token = auth ? current?.access_token : undefined;
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, { method, headers, body, credentials: "include", signal: options.signal });
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new ApiError(0, "network_error", GENERIC_ERROR_MESSAGE);
  }
  if (response.status === 204) return undefined;
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return parsed;
  const code = parsed && typeof parsed === "object" && typeof (parsed as { code?: unknown }).code === "string" ? (parsed as { code: string }).code : "unknown_error";
  if (response.status === 401 && token && !retried && code === "session_expired") {
    const next = await refreshSession();
    if (next) return send(method, path, options, true);
  }
  throw new ApiError(response.status, code, messageForError(parsed));
}

export const api = {
  get: <T>(path: string, options: CallOptions = {}) => send("GET", path, options, false) as Promise<T>,
  post: <T>(path: string, body?: unknown, options: CallOptions = {}) => send("POST", path, { ...options, body }, false) as Promise<T>,
  put: <T>(path: string, body?: unknown, options: CallOptions = {}) => send("PUT", path, { ...options, body }, false) as Promise<T>,
  patch: <T>(path: string, body?: unknown, options: CallOptions = {}) => send("PATCH", path, { ...options, body }, false) as Promise<T>,
  delete: <T>(path: string, options: CallOptions = {}) => send("DELETE", path, options, false) as Promise<T>,
};

// ---- auth calls --------------------------------------------------------------------------

export async function login(email: string, password: string): Promise<AuthSession> {
  const session = await api.post<AuthSession>("/auth/login", { email, password }, { auth: false });
  setSession(session);
  return session;
}

export async function signUp(input: { email: string; password: string; role: "creator" | "expert"; first_name?: string; last_name?: string }): Promise<AuthSession> {
  const session = await api.post<AuthSession>("/auth/signup", input, { auth: false });
  setSession(session);
  return session;
}

/** Sign out this browser (every tab follows through the storage event). */
export async function logout(): Promise<void> {
  const had = current;
  setSession(null);
  if (!had) return;
  try {
    await fetch(`${API_BASE}/auth/logout`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${had.access_token}` },
      body: JSON.stringify({ scope: "local" }),
      credentials: "include",
    });
  } catch {
    // Signed out locally either way.
  }
}
