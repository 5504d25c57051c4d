import { TIMERS_MS } from "@booking/contracts";

// The signed-in session of a browser app (the web app, the console), kept in localStorage under
// the app's own key so the two never share one. Storage is the source of truth: every read sees
// what another tab wrote, and this tab's memory is only the fallback when storage is unusable.
// Refresh tokens rotate and are single-use, so refreshes never overlap: one per tab at a time
// (callers share it) and one per browser at a time (under a Web Lock, after which a tab that
// waited adopts the session the other tab got instead of spending the used-up token again).

/** What the client needs of a session; the apps keep the rest of the API's reply (the user...). */
export type SessionTokens = {
  access_token: string;
  refresh_token: string;
  /** Seconds since the epoch. */
  expires_at: number;
};

/** Why the session went away when it was not the user's doing: the server would not refresh it. */
export type SessionEnd = "expired";
export type SessionListener<S> = (session: S | null, ended?: SessionEnd) => void;

type LockManagerLike = { request<T>(name: string, work: () => Promise<T>): Promise<T> };
type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export type SessionClientOptions<S extends SessionTokens> = {
  /** The localStorage key: one per app, so the web app and the console keep separate sessions. */
  storageKey: string;
  /** The Web Lock that serialises this app's refreshes across tabs. */
  lockName: string;
  /** POST { refresh_token } here for a new session. */
  refreshUrl: string;
  /** What counts as a session, stored or replied by the refresh; anything else ends it. */
  isSession?: (value: unknown) => value is S;
  /** Refresh this long before the access token expires (and before a call that finds it closer). */
  refreshMarginMs?: number;
  /** Tries of one refresh while the network or the server fails (the back-off doubles between them). */
  refreshAttempts?: number;
  /** Refresh on a timer, ahead of expiry, while the tab is visible (the web app); else only when a call needs it. */
  autoRefresh?: boolean;
  /** Sent with every call, the refresh included (cookies for the API's own origin). */
  credentials?: RequestCredentials;
  // Seams for tests; the defaults are the browser's own, looked up at each use.
  storage?: () => StorageLike | undefined;
  fetch?: typeof fetch;
  locks?: () => LockManagerLike | undefined;
};

export type SessionClient<S extends SessionTokens> = {
  /** The session as stored now (another tab's latest included), or null when signed out. */
  get(): S | null;
  /** Sign in (a session) or out (null) in this tab; the others see it through storage. */
  set(session: S | null): void;
  /** Hear of every change: sign-in, refresh, sign-out, and `ended: "expired"` when a refresh was refused. */
  onChange(listener: SessionListener<S>): () => void;
  /** Follow other tabs (the `storage` event) and pause auto-refresh while the tab is hidden. Idempotent. */
  follow(): S | null;
  /** Whether the session's access token expires within the refresh margin (or `withinMs`). */
  aboutToExpire(session: SessionTokens, withinMs?: number): boolean;
  /** Rotate the refresh token for a new session; concurrent callers share one refresh. */
  refresh(): Promise<S | null>;
  /** A session whose access token is not about to expire, refreshed first if it was; null when signed out. */
  fresh(): Promise<S | null>;
  /** After the server rejected `accessToken`: the session another call or tab already renewed, else a refresh. */
  renew(accessToken: string): Promise<S | null>;
  /**
   * fetch with the bearer token of a fresh session; when `renewWhen` says the reply rejected the
   * token (by default any 401), the session is renewed and the call sent once more. A call whose
   * body is a stream cannot be sent twice: give such calls a `renewWhen` that is always false.
   */
  fetch(url: string, init?: RequestInit, renewWhen?: (response: Response) => boolean | Promise<boolean>): Promise<Response>;
};

/** A session has its two tokens and an expiry; the apps narrow this with their own `isSession`. */
export function hasSessionTokens(value: unknown): value is SessionTokens {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<SessionTokens>;
  return typeof v.access_token === "string" && typeof v.refresh_token === "string" && typeof v.expires_at === "number";
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
  /** This tab's session, used when storage cannot be read or written (private mode, full quota). */
  let memory: S | null = null;
  let storageUsable = true;
  /** The access token listeners last heard of, so a change is told once. */
  let told: string | null | undefined;
  let refreshing: Promise<S | null> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let following = false;

  function get(): S | null {
    const store = storageUsable ? storage() : undefined;
    if (!store) return memory;
    let raw: string | null;
    try {
      raw = store.getItem(storageKey);
    } catch {
      return memory;
    }
    if (!raw) return null;
    try {
      const parsed: unknown = JSON.parse(raw);
      return isSession(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  function write(session: S | null): void {
    memory = session;
    try {
      const store = storage();
      if (session) store?.setItem(storageKey, JSON.stringify(session));
      else store?.removeItem(storageKey);
    } catch {
      // The session still lives in this tab's memory; storage would now hold a stale one.
      storageUsable = false;
    }
  }

  const hidden = () => typeof document !== "undefined" && document.visibilityState === "hidden";

  function schedule(): void {
    clearTimeout(timer);
    timer = undefined;
    const session = get();
    if (!options.autoRefresh || !session || hidden()) return;
    timer = setTimeout(() => void refresh(), Math.max(0, session.expires_at * 1000 - Date.now() - marginMs));
  }

  function changed(session: S | null, ended?: SessionEnd): void {
    told = session?.access_token ?? null;
    schedule();
    for (const listener of listeners) listener(session, ended);
  }

  function adopt(session: S | null, ended?: SessionEnd): S | null {
    write(session);
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
    const known = get();
    refreshing = underLock(async () => {
      const stored = get();
      if (!stored) {
        // Signed out elsewhere while this tab waited.
        if (known) changed(null);
        return null;
      }
      // Another tab refreshed while this one waited for the lock: its session is the one to use.
      if (stored.refresh_token !== known?.refresh_token && !aboutToExpire(stored)) {
        changed(stored);
        return stored;
      }
      let delay: number = TIMERS_MS.tokenRefreshBackoffStart;
      for (let attempt = 1; ; attempt++) {
        let response: Response | undefined;
        try {
          response = await send(refreshUrl, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify({ refresh_token: stored.refresh_token }),
            credentials,
          });
        } catch {
          response = undefined;
        }
        // Offline, rate-limited or a failing server: try again after a pause, keeping the session meanwhile.
        if (!response || response.status >= 500 || response.status === 429) {
          if (attempt >= attempts) return get();
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

  async function fresh(): Promise<S | null> {
    const session = get();
    if (!session || !aboutToExpire(session)) return session;
    return refresh();
  }

  async function renew(accessToken: string): Promise<S | null> {
    const session = get();
    if (!session || session.access_token !== accessToken) return session;
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

  function follow(): S | null {
    if (!following && typeof window !== "undefined") {
      following = true;
      window.addEventListener("storage", (event) => {
        // A null key: storage was cleared.
        if (event.key !== storageKey && event.key !== null) return;
        const session = get();
        if ((session?.access_token ?? null) !== told) changed(session);
      });
      if (typeof document !== "undefined") document.addEventListener("visibilitychange", schedule);
    }
    const session = get();
    told = session?.access_token ?? null;
    schedule();
    return session;
  }

  return {
    get,
    set: (session) => void adopt(session),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    follow,
    aboutToExpire,
    refresh,
    fresh,
    renew,
    fetch: authorisedFetch,
  };
}
