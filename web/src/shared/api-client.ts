import {
  CONSISTENCY_POSITION_HEADER,
  ClientPositions,
  SESSION_APP_HEADER,
  errorCatalogue,
  errorCodeAliases,
  isErrorCode,
} from "@booking/contracts";
import { createSessionClient, hasSessionTokens, type SessionEnd, type SessionListener } from "@booking/session-client";
import type { AuthSession, SignUpReply } from "./api-types.ts";

// The one way the app talks to /api/v1. The signed-in session (the access token in this tab's
// memory, the refresh token in the web app's HttpOnly cookie; restored on load, refreshed ahead of
// expiry, followed across tabs, ended when the server refuses to refresh it) is
// @booking/session-client's, under this app's own key; this module adds the app's calls and turns
// `{ code, message }` replies into the error catalogue's message.

export const API_BASE = "/api/v1";

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

export type { SessionEnd };

/** Sent on the calls that open, refresh or end a session: the web app's cookie, not the console's. */
const WEB_APP = { [SESSION_APP_HEADER]: "web" } as const;

const browserSession = createSessionClient<AuthSession>({
  storageKey: "expert-sessions.auth",
  lockName: "expert-sessions.refresh",
  refreshUrl: `${API_BASE}/auth/refresh`,
  app: WEB_APP[SESSION_APP_HEADER],
  // The reply's shape is the API's to keep; the app relies on the tokens and the user's id.
  isSession: (value): value is AuthSession => hasSessionTokens(value) && typeof (value as Partial<AuthSession>).user?.id === "string",
  // Spec section 4: sessions refresh when about to expire, pausing while the tab is hidden.
  autoRefresh: true,
  credentials: "include",
});

/** Follow other tabs and take up the session the cookie holds, when this browser is signed in. Called once by the app's entry. */
export function initSession(): Promise<AuthSession | null> {
  browserSession.follow();
  return browserSession.restore();
}

export function getSession(): AuthSession | null {
  return browserSession.get();
}

export function setSession(next: AuthSession | null): void {
  browserSession.set(next);
}

export function onSessionChange(listener: SessionListener<AuthSession>): () => void {
  return browserSession.onChange(listener);
}

/** Rotate the refresh cookie for a new access token (one refresh at a time across tabs). */
export function refreshSession(): Promise<AuthSession | null> {
  return browserSession.refresh();
}

// ---- calls -------------------------------------------------------------------------------

type CallOptions = { body?: unknown; auth?: boolean; signal?: AbortSignal };

const codeOf = (parsed: unknown): string =>
  parsed && typeof parsed === "object" && typeof (parsed as { code?: unknown }).code === "string"
    ? (parsed as { code: string }).code
    : "unknown_error";

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Only a token the server calls expired is worth a refresh and a second try; other 401s are final. */
async function tokenExpired(response: Response): Promise<boolean> {
  return response.status === 401 && codeOf(parseBody(await response.clone().text())) === "session_expired";
}

/** The newest log position this tab's writes were given (issue 34.1). */
const positions = new ClientPositions();

/** The reply to a call, or the ApiError of a failure (the network's or the server's). */
async function exchange(method: string, path: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  // Every call names the app, so that whichever opens a session (a password, a code, a mail's link, a passkey) sets the web app's cookie.
  // With the newest log position a reply named: the call shows this tab's own writes (issue 34.1).
  const init: RequestInit = {
    method,
    headers: { ...headers, ...WEB_APP, ...positions.headers() },
    body,
    credentials: "include",
    signal: options.signal,
  };
  let response: Response;
  try {
    response = await ((options.auth ?? true)
      ? browserSession.fetch(`${API_BASE}${path}`, init, tokenExpired)
      : fetch(`${API_BASE}${path}`, init));
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new ApiError(0, "network_error", GENERIC_ERROR_MESSAGE);
  }
  positions.heard(response.headers.get(CONSISTENCY_POSITION_HEADER));
  if (response.ok) return response;
  const parsed = parseBody(await response.text());
  throw new ApiError(response.status, codeOf(parsed), messageForError(parsed));
}

async function send(method: string, path: string, options: CallOptions): Promise<unknown> {
  const response = await exchange(method, path, options);
  return response.status === 204 ? undefined : parseBody(await response.text());
}

/** One page of a list the API pages (issue 34.5): its items, and the path of the next page, or null on the last. */
export type Page<T> = { items: T; next: string | null };

/**
 * The `rel="next"` target of a Link header (RFC 8288), as a path for `api` calls: the server names
 * it under /api/v1, which the calls add themselves. A target outside the API is refused rather than
 * dropped, so a list is never cut short without a word.
 */
export function nextPageOf(link: string | null): string | null {
  if (!link) return null;
  for (const [, target = "", params = ""] of link.matchAll(/<([^>]*)>([^,]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(params);
    if (!(rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/).includes("next")) continue;
    const url = new URL(target, "http://api.invalid");
    if (!url.pathname.startsWith(`${API_BASE}/`)) throw new ApiError(0, "unknown_error", GENERIC_ERROR_MESSAGE);
    return `${url.pathname.slice(API_BASE.length)}${url.search}`;
  }
  return null;
}

export const api = {
  get: <T>(path: string, options: CallOptions = {}) => send("GET", path, options) as Promise<T>,
  /** A page of a paged list: the body, and the next page's path from the reply's Link header. */
  getPage: async <T>(path: string, options: CallOptions = {}): Promise<Page<T>> => {
    const response = await exchange("GET", path, options);
    return { items: parseBody(await response.text()) as T, next: nextPageOf(response.headers.get("link")) };
  },
  post: <T>(path: string, body?: unknown, options: CallOptions = {}) => send("POST", path, { ...options, body }) as Promise<T>,
  put: <T>(path: string, body?: unknown, options: CallOptions = {}) => send("PUT", path, { ...options, body }) as Promise<T>,
  patch: <T>(path: string, body?: unknown, options: CallOptions = {}) => send("PATCH", path, { ...options, body }) as Promise<T>,
  delete: <T>(path: string, options: CallOptions = {}) => send("DELETE", path, options) as Promise<T>,
  /** A file the API serves (an .ics, say), fetched with the session like any call. */
  file: async (path: string, options: CallOptions = {}): Promise<Blob> => (await exchange("GET", path, options)).blob(),
};

// ---- auth calls --------------------------------------------------------------------------

export async function login(email: string, password: string): Promise<AuthSession> {
  const session = await api.post<AuthSession>("/auth/login", { email, password }, { auth: false });
  setSession(session);
  return session;
}

/** Creates the account, unverified: no session until the link in the verification mail is opened. */
export function signUp(input: {
  email: string;
  password: string;
  role: "creator" | "expert";
  first_name?: string;
  last_name?: string;
  timezone?: string;
  /** Where the verification mail's link goes on to (issue 27.4). */
  next?: string;
}): Promise<SignUpReply> {
  return api.post<SignUpReply>("/auth/signup", input, { auth: false });
}

/** The verification link's token and the destination signed with it: the address is confirmed and this browser signed in. */
export async function verifyEmail(token: string, next: string | null = null): Promise<AuthSession> {
  const session = await api.post<AuthSession>("/auth/verify", { token, ...(next && { next }) }, { auth: false });
  setSession(session);
  return session;
}

/** The reset link's token and the new password: set, other sessions ended, this browser signed in. */
export async function resetPassword(token: string, password: string): Promise<AuthSession> {
  const session = await api.post<AuthSession>("/auth/reset", { token, password }, { auth: false });
  setSession(session);
  return session;
}

/** Sign out this browser: this sign-in ends and its cookie is cleared (every tab follows through the storage event). */
export async function logout(): Promise<void> {
  const had = browserSession.get();
  setSession(null);
  if (!had) return;
  try {
    await fetch(`${API_BASE}/auth/logout`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${had.access_token}`, ...WEB_APP },
      body: JSON.stringify({ scope: "local" }),
      credentials: "include",
    });
  } catch {
    // Signed out locally either way.
  }
}
