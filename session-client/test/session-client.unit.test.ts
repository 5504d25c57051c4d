import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSessionClient, hasSessionTokens, signedInMarker, type SessionClientOptions, type SessionTokens } from "../src/index.ts";

// The session as the web app and the console use it, against a fake API (fetch) with a browser's
// cookie jar (the refresh cookie, which no script here ever reads), this window's localStorage as
// the browser's storage, and a fake Web Lock manager shared by "tabs".

type Session = SessionTokens & { user: { role: string } };

const issued = (n: number, expiresInSeconds = 900, role = "creator"): Session => ({
  access_token: `access-${n}`,
  expires_at: Math.floor(Date.now() / 1000) + expiresInSeconds,
  user: { role },
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** One lock per name, granted in order, as navigator.locks does. */
function fakeLocks() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, work: () => Promise<T>): Promise<T> {
      const run = (tails.get(name) ?? Promise.resolve()).then(work);
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}

type Api = (url: string, init: RequestInit) => Promise<Response>;

function client(api: Api, overrides: Partial<SessionClientOptions<Session>> = {}) {
  const fetch = vi.fn(api);
  const locks = fakeLocks();
  const made = createSessionClient<Session>({
    storageKey: "test.session",
    lockName: "test.refresh",
    refreshUrl: "/api/v1/auth/refresh",
    app: "web",
    isSession: (v): v is Session => hasSessionTokens(v) && typeof (v as Partial<Session>).user?.role === "string",
    fetch: fetch as unknown as typeof globalThis.fetch,
    locks: () => locks,
    ...overrides,
  });
  return { session: made, fetch, locks };
}

/** The refresh route over a browser's cookie jar: a refresh spends the cookie sent and sets the next; a spent one is refused. */
function rotatingApi() {
  const jar = { cookie: 1, rotations: 0, inFlight: 0, most: 0 };
  const api: Api = async (url) => {
    if (!url.endsWith("/auth/refresh")) return json(200, {});
    const sent = jar.cookie;
    jar.inFlight++;
    jar.most = Math.max(jar.most, jar.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    jar.inFlight--;
    if (sent !== jar.cookie) return json(401, { code: "session_expired" });
    jar.cookie++;
    jar.rotations++;
    return json(200, issued(jar.cookie));
  };
  return { jar, api };
}

const refreshesOf = (fetch: ReturnType<typeof vi.fn>) => fetch.mock.calls.filter(([url]) => String(url).endsWith("/auth/refresh"));
const marker = (key = "test.session") => localStorage.getItem(key);
const signedInElsewhere = (key = "test.session") => localStorage.setItem(key, signedInMarker());

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe("what the browser keeps", () => {
  it("the tokens in the tab's memory only: storage holds a marker without any token, under each app's own key", () => {
    const web = client(async () => json(500, {}), { storageKey: "web.session" }).session;
    const console = client(async () => json(500, {}), { storageKey: "console.session" }).session;
    web.set(issued(1));
    console.set(issued(2, 900, "admin"));
    expect(web.get()?.access_token).toBe("access-1");
    expect(console.get()?.access_token).toBe("access-2");
    for (let i = 0; i < localStorage.length; i++) expect(localStorage.getItem(localStorage.key(i)!)).not.toMatch(/access|refresh/);
    expect(JSON.parse(marker("web.session")!)).toEqual({ signed_in_at: expect.any(Number) });
    web.set(null);
    expect(marker("web.session")).toBeNull();
    expect(web.signedIn()).toBe(false);
    expect(console.get()?.access_token).toBe("access-2");
    expect(console.signedIn()).toBe(true);
  });

  it("a whole session an older release stored is removed at once, its refresh token with it, and not taken up", async () => {
    localStorage.setItem("test.session", JSON.stringify({ ...issued(1), refresh_token: "old-refresh" }));
    const { session, fetch } = client(async () => json(200, issued(2)));
    expect(await session.restore()).toBeNull();
    expect(marker()).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("stays in the tab's memory when storage refuses the marker, and still refreshes", async () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => undefined,
    };
    const { session } = client(async () => json(200, issued(2)), { storage: () => refusing });
    session.set(issued(1));
    expect(session.get()?.access_token).toBe("access-1");
    expect((await session.refresh())?.access_token).toBe("access-2");
  });
});

describe("restoring after a page load", () => {
  it("asks the cookie for a session when the marker says this browser is signed in, once however many ask", async () => {
    signedInElsewhere();
    const { session, fetch } = client(async () => json(200, issued(2)));
    expect(session.get()).toBeNull();
    const [a, b, c] = await Promise.all([session.restore(), session.restore(), session.fresh()]);
    expect([a?.access_token, b?.access_token, c?.access_token]).toEqual(["access-2", "access-2", "access-2"]);
    expect(refreshesOf(fetch)).toHaveLength(1);
  });

  it("sends nothing for a visitor who never signed in", async () => {
    const { session, fetch } = client(async () => json(200, issued(2)));
    expect(await session.restore()).toBeNull();
    expect(await session.fresh()).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("a call made while restoring waits for the session instead of going out signed out", async () => {
    signedInElsewhere();
    const { session, fetch } = client(async (url) => (url.endsWith("/auth/refresh") ? json(200, issued(2)) : json(200, {})));
    void session.restore();
    await session.fetch("/api/v1/auth/me");
    const [, init] = fetch.mock.calls.at(-1)!;
    expect((init.headers as Record<string, string>).authorization).toBe("Bearer access-2");
  });

  it("says the session expired when the cookie no longer holds one", async () => {
    signedInElsewhere();
    const ends: unknown[] = [];
    const { session } = client(async () => json(401, { code: "session_expired" }));
    session.onChange((s, ended) => ends.push([s?.access_token ?? null, ended]));
    expect(await session.restore()).toBeNull();
    expect(marker()).toBeNull();
    expect(ends).toEqual([[null, "expired"]]);
  });
});

describe("refresh", () => {
  it("POSTs with the cookie and the app's name (no body, no token of the page's), and keeps the new session in memory", async () => {
    const { session, fetch } = client(async (_url, init) => {
      expect(init.body).toBeUndefined();
      expect(init.credentials).toBe("same-origin");
      expect(init.headers).toEqual({ accept: "application/json", "x-session-app": "web" });
      return json(200, issued(2));
    });
    session.set(issued(1, 30));
    const signedInAt = marker();
    expect((await session.refresh())?.access_token).toBe("access-2");
    expect(session.get()?.access_token).toBe("access-2");
    // A refresh is no news for other tabs: the marker stays as the sign-in left it.
    expect(marker()).toBe(signedInAt);
    expect(refreshesOf(fetch)).toHaveLength(1);
  });

  it("is shared by the calls that need it at the same time: one request, one rotation", async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    // Without Web Locks (older browsers), so only the sharing keeps the cookie from being spent twice by one tab.
    const { session, fetch } = client(
      async () => {
        await answered;
        return json(200, issued(2));
      },
      { locks: () => undefined },
    );
    session.set(issued(1, 10));
    const calls = [session.fresh(), session.refresh(), session.fresh()];
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    release();
    expect((await Promise.all(calls)).map((s) => s?.access_token)).toEqual(["access-2", "access-2", "access-2"]);
    expect(refreshesOf(fetch)).toHaveLength(1);
  });

  it("is done by one tab at a time, so a tab never sends the cookie another tab's refresh is spending", async () => {
    const { jar, api } = rotatingApi();
    const locks = fakeLocks();
    const tabs = [client(api, { locks: () => locks }), client(api, { locks: () => locks }), client(api, { locks: () => locks })];
    tabs[0]!.session.set(issued(1, 10));
    const sessions = await Promise.all(tabs.map((tab) => tab.session.restore()));
    // Each tab got a session of its own from the cookie the one before it left: none was refused as a reuse.
    expect(sessions.every((s) => s !== null)).toBe(true);
    expect(jar.most).toBe(1);
    expect(jar.rotations).toBe(2);
    expect(marker()).not.toBeNull();
  });

  it("retries with a back-off from 200 ms, doubling, while offline or the server fails", async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const { session } = client(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError("offline");
      if (attempts === 2) return json(503, {});
      if (attempts === 3) return json(429, {});
      return json(200, issued(2));
    });
    session.set(issued(1, 10));
    const result = session.refresh();
    await vi.advanceTimersByTimeAsync(199);
    expect(attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(399);
    expect(attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toBe(3);
    await vi.advanceTimersByTimeAsync(799);
    expect(attempts).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toBe(4);
    expect((await result)?.access_token).toBe("access-2");
  });

  it("gives up after five tries but keeps the session: a server outage is not a sign-out", async () => {
    vi.useFakeTimers();
    const ends: unknown[] = [];
    const { session, fetch } = client(async () => json(503, {}));
    session.set(issued(1, 10));
    session.onChange((s, ended) => ends.push([s?.access_token ?? null, ended]));
    const result = session.refresh();
    await vi.advanceTimersByTimeAsync(200 + 400 + 800 + 1600);
    expect((await result)?.access_token).toBe("access-1");
    expect(refreshesOf(fetch)).toHaveLength(5);
    expect(session.signedIn()).toBe(true);
    expect(ends).toEqual([]);
  });

  it("ends the session, saying it expired, when the server refuses the cookie; a sign-out says nothing", async () => {
    const ends: unknown[] = [];
    const { session } = client(async () => json(401, { code: "session_expired" }));
    session.onChange((s, ended) => ends.push([s?.access_token ?? null, ended]));
    session.set(issued(1, 10));
    expect(await session.refresh()).toBeNull();
    expect(marker()).toBeNull();
    session.set(issued(2));
    session.set(null);
    expect(ends).toEqual([
      ["access-1", undefined],
      [null, "expired"],
      ["access-2", undefined],
      [null, undefined],
    ]);
  });

  it("ends the session when the reply is not a session the app accepts (the console: no longer an admin)", async () => {
    const ends: unknown[] = [];
    const { session } = client(async () => json(200, issued(2, 900, "creator")), {
      isSession: (v): v is Session => hasSessionTokens(v) && (v as Session).user?.role === "admin",
    });
    session.set(issued(1, 10, "admin"));
    session.onChange((_s, ended) => ends.push(ended));
    expect(await session.refresh()).toBeNull();
    expect(marker()).toBeNull();
    expect(ends).toEqual(["expired"]);
  });
});

describe("about to expire", () => {
  it("a call refreshes first when the token has less than a minute left, not before", async () => {
    const { session, fetch } = client(async () => json(200, issued(2)));
    session.set(issued(1, 65));
    expect((await session.fresh())?.access_token).toBe("access-1");
    session.set(issued(1, 55));
    expect((await session.fresh())?.access_token).toBe("access-2");
    expect(refreshesOf(fetch)).toHaveLength(1);
  });

  it("with auto-refresh, the token is refreshed a minute before it expires, and not while the tab is hidden", async () => {
    vi.useFakeTimers();
    const { session, fetch } = client(async () => json(200, issued(2)), { autoRefresh: true });
    session.set(issued(1, 90));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(refreshesOf(fetch)).toHaveLength(1);
    expect(session.get()?.access_token).toBe("access-2");

    const visibility = vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    session.follow();
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(900_000);
    expect(refreshesOf(fetch)).toHaveLength(1);
    visibility.mockReturnValue("visible");
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshesOf(fetch)).toHaveLength(2);
    visibility.mockRestore();
  });

  it("without auto-refresh (the console), nothing is refreshed until a call needs it", async () => {
    vi.useFakeTimers();
    const { session, fetch } = client(async () => json(200, issued(2)));
    session.set(issued(1, 90));
    await vi.advanceTimersByTimeAsync(900_000);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("other tabs", () => {
  const storageEvent = (key: string | null, oldValue: string | null, newValue: string | null) =>
    window.dispatchEvent(new StorageEvent("storage", { key, oldValue, newValue }));

  it("a sign-out in another tab signs this one out (nothing expired); another app's key is not this app's", () => {
    const { session } = client(async () => json(500, {}));
    const seen: unknown[] = [];
    session.set(issued(1));
    session.onChange((s, ended) => seen.push([s?.access_token ?? null, ended]));
    session.follow();
    storageEvent("another.app", null, signedInMarker());
    const was = marker();
    localStorage.removeItem("test.session");
    storageEvent("test.session", was, null);
    storageEvent("test.session", was, null);
    expect(seen).toEqual([[null, undefined]]);
  });

  it("a sign-in in another tab is taken up from the cookie it left; a refresh there (marker unchanged) sends nothing here", async () => {
    const { session, fetch } = client(async () => json(200, issued(7)));
    const seen: (string | null)[] = [];
    session.onChange((s) => seen.push(s?.access_token ?? null));
    session.follow();
    const marked = signedInMarker(1);
    localStorage.setItem("test.session", marked);
    storageEvent("test.session", null, marked);
    await vi.waitFor(() => expect(seen).toEqual(["access-7"]));
    storageEvent("test.session", marked, marked);
    expect(refreshesOf(fetch)).toHaveLength(1);
  });
});

describe("authorised fetch", () => {
  it("sends the bearer token of a fresh session, keeping the caller's headers as a record", async () => {
    const { session, fetch } = client(async (url) => (url.endsWith("/auth/refresh") ? json(200, issued(2)) : json(200, { ok: true })));
    session.set(issued(1, 10));
    await session.fetch("/api/v1/bookings", { headers: { "content-type": "application/json" } });
    const [, init] = fetch.mock.calls.at(-1)!;
    expect(init.headers).toEqual({ "content-type": "application/json", authorization: "Bearer access-2" });
  });

  it("after a rejected token, refreshes and sends the call once more, and only once", async () => {
    const seen: string[] = [];
    const { session } = client(async (url, init) => {
      if (url.endsWith("/auth/refresh")) return json(200, issued(seen.length + 1));
      seen.push((init.headers as Record<string, string>).authorization!);
      return json(401, { code: "session_expired" });
    });
    session.set(issued(1));
    expect((await session.fetch("/api/v1/auth/me")).status).toBe(401);
    expect(seen).toEqual(["Bearer access-1", "Bearer access-2"]);
  });

  it("uses the session another call already renewed instead of refreshing again", async () => {
    let other: ReturnType<typeof client>["session"] | null = null;
    const { session, fetch } = client(async (url, init) => {
      const token = (init.headers as Record<string, string>).authorization;
      if (token === "Bearer access-1") {
        // Meanwhile another call in this tab renewed the session.
        other?.set(issued(2));
        return json(401, {});
      }
      return json(200, { url });
    });
    other = session;
    session.set(issued(1));
    expect((await session.fetch("/api/v1/x")).status).toBe(200);
    expect(refreshesOf(fetch)).toHaveLength(0);
  });

  it("leaves the reply alone when the caller's rule says the token was not the problem, or there was none", async () => {
    const { session, fetch } = client(async () => json(401, { code: "invalid_credentials" }));
    session.set(issued(1));
    expect((await session.fetch("/api/v1/x", {}, () => false)).status).toBe(401);
    session.set(null);
    expect((await session.fetch("/api/v1/x")).status).toBe(401);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
