import { SESSION_APP_HEADER, TIMERS_MS } from "@booking/contracts";

// The signed-in session of a browser app (the web app, the console). The access token lives in
// this tab's memory only, and the refresh token in an HttpOnly cookie the API sets, which no script
// can read (issue 33.6): an injected script can use a sign-in while the page is open, never carry a
// lasting one away. localStorage keeps one thing per app, under the app's own key: a marker saying
// this browser is signed in (the time of the sign-in, nothing secret), so that a reload knows to
// ask the cookie for a session and other tabs hear of sign-ins and sign-outs (the `storage` event).
//
// Refresh tokens rotate and are single-use, and every tab of the browser sends the same cookie, so
// refreshes never overlap: one per tab at a time (callers share it) and one per browser at a time
// (under a Web Lock). A tab that waited sends the cookie the other tab's refresh left, never the
// spent one. Without Web Locks two tabs may send one cookie at once: the API answers a token used
// moments ago with the same successor (refresh-tokens.ts), so neither is taken for a thief.

/** What the client needs of a session; the apps keep the rest of the API's reply (the user...). */
export type SessionTokens = {
  access_token: string;
  /** Seconds since the epoch. */
  expires_at: number;
};

/** Why the session went away when it was not the user's doing: the server would not refresh it. */
export type SessionEnd = "expired";
export type SessionListener<S> = (session: S | null, ended?: SessionEnd) => void;

type LockManagerLike = { request<T>(name: string, work: () => Promise<T>): Promise<T> };
type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export type SessionClientOptions<S extends SessionTokens> = {
  /** The localStorage key of the signed-in marker: one per app, so the web app and the console keep separate sessions. */
  storageKey: string;
  /** The Web Lock that serialises this app's refreshes across tabs. */
  lockName: string;
  /** POST here (the cookie goes with it) for a new session. */
  refreshUrl: string;
  /** The app's name, sent in SESSION_APP_HEADER: which cookie is the app's, and the proof that the app's own page asks. */
  app: string;
  /** What counts as a session, as the refresh replies it; anything else ends it. */
  isSession?: (value: unknown) => value is S;
  /** Refresh this long before the access token expires (and before a call that finds it closer). */
  refreshMarginMs?: number;
  /** Tries of one refresh while the network or the server fails (the back-off doubles between them). */
  refreshAttempts?: number;
  /** Refresh on a timer, ahead of expiry, while the tab is visible (the web app); else only when a call needs it. */
  autoRefresh?: boolean;
  /** Sent with every call but the refresh, which always sends the cookie (same origin). */
  credentials?: RequestCredentials;
  // Seams for tests; the defaults are the browser's own, looked up at each use.
  storage?: () => StorageLike | undefined;
  fetch?: typeof fetch;
  locks?: () => LockManagerLike | undefined;
};

export type SessionClient<S extends SessionTokens> = {
  /** This tab's session, or null when signed out (or not restored yet: see `restore`). */
  get(): S | null;
  /** Sign in (the session a sign-in replied) or out (null) in this tab; the marker tells the other tabs. */
  set(session: S | null): void;
  /** Whether this browser says it is signed in to the app (the marker), whether or not this tab has restored the session. */
  signedIn(): boolean;
  /** Hear of every change: sign-in, refresh, sign-out, and `ended: "expired"` when a refresh was refused. */
  onChange(listener: SessionListener<S>): () => void;
  /** Follow other tabs (the `storage` event) and pause auto-refresh while the tab is hidden. Idempotent. */
  follow(): void;
  /** After a page load: the session the cookie holds, when the marker says there is one. Once per page; later calls share it. */
  restore(): Promise<S | null>;
  /** Whether the session's access token expires within the refresh margin (or `withinMs`). */
  aboutToExpire(session: SessionTokens, withinMs?: number): boolean;
  /** Rotate the refresh cookie for a new session; concurrent callers share one refresh. */
  refresh(): Promise<S | null>;
  /** A session whose access token is not about to expire (restored or refreshed first if need be); null when signed out. */
  fresh(): Promise<S | null>;
  /** After the server rejected `accessToken`: the session another call already renewed, else a refresh. */
  renew(accessToken: string): Promise<S | null>;
  /**
   * fetch with the bearer token of a fresh session; when `renewWhen` says the reply rejected the
   * token (by default any 401), the session is renewed and the call sent once more. A call whose
   * body is a stream cannot be sent twice: give such calls a `renewWhen` that is always false.
   */
  fetch(url: string, init?: RequestInit, renewWhen?: (response: Response) => boolean | Promise<boolean>): Promise<Response>;
};

/** A session has an access token and its expiry; the apps narrow this with their own `isSession`. */
export function hasSessionTokens(value: unknown): value is SessionTokens {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<SessionTokens>;
  return typeof v.access_token === "string" && typeof v.expires_at === "number";
}

/** The marker a sign-in leaves in localStorage: when it happened, so that a second sign-in changes it and other tabs hear. */
export const signedInMarker = (at = Date.now()): string => JSON.stringify({ signed_in_at: at });

function isMarker(raw: string): boolean {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === "object" && parsed !== null && typeof (parsed as { signed_in_at?: unknown }).signed_in_at === "number";
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The headers of `init` as a plain record with the bearer token set (records stay records for callers that inspect them). */
function withBearer(headers: HeadersInit | undefined, token: string): Record<string, string> {
  const record: Record<string, string> =
    headers instanceof Headers || Array.isArray(headers) ? Object.fromEntries(new Headers(headers)) : { ...headers };
  for (const name of Object.keys(record)) if (name.toLowerCase() === "authorization") delete record[name];
  record.authorization = `Bearer ${token}`;
  return record;
}

export function createSessionClient<S extends SessionTokens = SessionTokens>(options: SessionClientOptions<S>): SessionClient<S> {
  const { storageKey, lockName, refreshUrl, credentials } = options;
  const isSession = options.isSession ?? (hasSessionTokens as (value: unknown) => value is S);
  const marginMs = options.refreshMarginMs ?? 60_000;
  const attempts = options.refreshAttempts ?? 5;
  const storage = options.storage ?? (() => globalThis.localStorage);
  const send: typeof fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);
  const locks =
    options.locks ?? (() => (typeof navigator !== "undefined" ? (navigator as Navigator & { locks?: LockManagerLike }).locks : undefined));

  const listeners = new Set<SessionListener<S>>();
  /** This tab's session: the only place its access token is kept. */
  let memory: S | null = null;
  let refreshing: Promise<S | null> | null = null;
  let restoring: Promise<S | null> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let following = false;

  function signedIn(): boolean {
    try {
      const store = storage();
      const raw = store?.getItem(storageKey) ?? null;
      if (raw === null) return false;
      if (isMarker(raw)) return true;
      // What an older release kept here: the whole session, its refresh token included. Gone now; that sign-in is over.
      store?.removeItem(storageKey);
      return false;
    } catch {
      return false;
    }
  }

  function mark(signedInNow: boolean, fresh: boolean): void {
    try {
      const store = storage();
      if (!signedInNow) store?.removeItem(storageKey);
      else if (fresh || !signedIn()) store?.setItem(storageKey, signedInMarker());
    } catch {
      // Storage refused (private mode, full quota): this tab keeps its session; reloads and other tabs will not.
    }
  }

  const hidden = () => typeof document !== "undefined" && document.visibilityState === "hidden";

  function schedule(): void {
    clearTimeout(timer);
    timer = undefined;
    if (!options.autoRefresh || !memory || hidden()) return;
    timer = setTimeout(() => void refresh(), Math.max(0, memory.expires_at * 1000 - Date.now() - marginMs));
  }

  function changed(session: S | null, ended?: SessionEnd): void {
    memory = session;
    // Signed out: whatever the page restored is over, and a later restore asks the marker again.
    if (!session) restoring = null;
    schedule();
    for (const listener of listeners) listener(session, ended);
  }

  /** A session this tab now holds (a sign-in, a refresh) or lost; `signIn` marks a new sign-in for the other tabs. */
  function adopt(session: S | null, ended?: SessionEnd, signIn = false): S | null {
    mark(session !== null, signIn);
    changed(session, ended);
    return session;
  }

  function aboutToExpire(session: SessionTokens, withinMs = marginMs): boolean {
    return session.expires_at * 1000 - Date.now() < withinMs;
  }

  function underLock<T>(work: () => Promise<T>): Promise<T> {
    const manager = locks();
    return manager ? manager.request(lockName, work) : work();
  }

  function refresh(): Promise<S | null> {
    if (refreshing) return refreshing;
    refreshing = underLock(async () => {
      // A tab with a session refreshes it (storage may be refusing the marker); one without, only when the marker says a
      // sign-in is there to take up. Signed out in another tab while this one waited: `follow` has dropped the session.
      if (!memory && !signedIn()) return null;
      let delay: number = TIMERS_MS.tokenRefreshBackoffStart;
      for (let attempt = 1; ; attempt++) {
        let response: Response | undefined;
        try {
          response = await send(refreshUrl, {
            method: "POST",
            headers: { accept: "application/json", [SESSION_APP_HEADER]: options.app },
            credentials: "same-origin",
          });
        } catch {
          response = undefined;
        }
        // Offline, rate-limited or a failing server: try again after a pause, keeping the session meanwhile.
        if (!response || response.status >= 500 || response.status === 429) {
          if (attempt >= attempts) return memory;
          await sleep(delay);
          delay *= 2;
          continue;
        }
        if (!response.ok) return adopt(null, "expired");
        const next: unknown = await response.json().catch(() => null);
        // A reply that is not a session (for the console: not an admin's any more) ends it as well.
        return isSession(next) ? adopt(next) : adopt(null, "expired");
      }
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function restore(): Promise<S | null> {
    restoring ??= memory || !signedIn() ? Promise.resolve(memory) : refresh();
    return restoring;
  }

  async function fresh(): Promise<S | null> {
    // A call made while the page is still restoring waits for it rather than go out signed out.
    if (!memory) await (refreshing ?? restore());
    const session = memory;
    if (!session || !aboutToExpire(session)) return session;
    return refresh();
  }

  async function renew(accessToken: string): Promise<S | null> {
    if (!memory || memory.access_token !== accessToken) return memory;
    return refresh();
  }

  async function authorisedFetch(
    url: string,
    init: RequestInit = {},
    renewWhen: (response: Response) => boolean | Promise<boolean> = (r) => r.status === 401,
  ): Promise<Response> {
    const call = (token: string | undefined) =>
      send(url, { credentials, ...init, headers: token ? withBearer(init.headers, token) : init.headers });
    const token = (await fresh())?.access_token;
    const response = await call(token);
    if (!token || !(await renewWhen(response))) return response;
    const renewed = await renew(token);
    if (!renewed || renewed.access_token === token) return response;
    return call(renewed.access_token);
  }

  function follow(): void {
    if (following || typeof window === "undefined") return;
    following = true;
    window.addEventListener("storage", (event) => {
      // A null key: storage was cleared.
      if (event.key !== storageKey && event.key !== null) return;
      if (!signedIn()) {
        // Signed out (or expired) in another tab: so is this one.
        if (memory) changed(null);
        return;
      }
      // A sign-in in another tab (a new marker): take up the session its cookie now holds.
      if (event.key === storageKey && event.newValue !== event.oldValue) void refresh();
    });
    if (typeof document !== "undefined") document.addEventListener("visibilitychange", schedule);
  }

  return {
    get: () => memory,
    set: (session) => void adopt(session, undefined, session !== null),
    signedIn,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    follow,
    restore,
    aboutToExpire,
    refresh,
    fresh,
    renew,
    fetch: authorisedFetch,
  };
}
