import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSessionClient, hasSessionTokens, type SessionClientOptions, type SessionTokens } from "../src/index.ts";

// The session as the web app and the console use it, against a fake API (fetch), this window's
// localStorage as the browser's storage, and a fake Web Lock manager shared by "tabs".

type Session = SessionTokens & { user: { role: string } };

const issued = (n: number, expiresInSeconds = 900, role = "creator"): Session => ({
  access_token: `access-${n}`,
  refresh_token: `refresh-${n}`,
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
    isSession: (v): v is Session => hasSessionTokens(v) && typeof (v as Partial<Session>).user?.role === "string",
    fetch: fetch as unknown as typeof globalThis.fetch,
    locks: () => locks,
    ...overrides,
  });
  return { session: made, fetch, locks };
}

const refreshesOf = (fetch: ReturnType<typeof vi.fn>) => fetch.mock.calls.filter(([url]) => String(url).endsWith("/auth/refresh"));
const stored = (key = "test.session") => JSON.parse(localStorage.getItem(key) ?? "null") as Session | null;

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe("the stored session", () => {
  it("lives under each app's own key, so the web app and the console keep separate sessions", () => {
    const web = client(async () => json(500, {}), { storageKey: "web.session" }).session;
    const console = client(async () => json(500, {}), { storageKey: "console.session" }).session;
    web.set(issued(1));
    console.set(issued(2, 900, "admin"));
    expect(web.get()?.access_token).toBe("access-1");
    expect(console.get()?.access_token).toBe("access-2");
    web.set(null);
    expect(stored("web.session")).toBeNull();
    expect(console.get()?.access_token).toBe("access-2");
  });

  it("is read from storage at each use, so a session another tab wrote is the one used", () => {
    const { session } = client(async () => json(500, {}));
    session.set(issued(1));
    localStorage.setItem("test.session", JSON.stringify(issued(5)));
    expect(session.get()?.access_token).toBe("access-5");
    localStorage.setItem("test.session", JSON.stringify({ access_token: "x" }));
    expect(session.get()).toBeNull();
  });

  it("stays in the tab's memory when storage refuses to keep it", () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => undefined,
    };
    const { session } = client(async () => json(500, {}), { storage: () => refusing });
    session.set(issued(1));
    expect(session.get()?.access_token).toBe("access-1");
  });
});

describe("refresh", () => {
  it("rotates the refresh token and stores the new session", async () => {
    const { session, fetch } = client(async (_url, init) => {
      expect(JSON.parse(String(init.body))).toEqual({ refresh_token: "refresh-1" });
      return json(200, issued(2));
    });
    session.set(issued(1, 30));
    expect((await session.refresh())?.access_token).toBe("access-2");
    expect(stored()?.refresh_token).toBe("refresh-2");
    expect(refreshesOf(fetch)).toHaveLength(1);
  });

  it("is shared by the calls that need it at the same time: one request, one rotation", async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    // Without Web Locks (older browsers), so only the sharing keeps the token from being spent twice.
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

  it("is done by one tab at a time: a tab that waited adopts the other's session instead of spending the used token", async () => {
    const locks = fakeLocks();
    let rotations = 0;
    const api: Api = async (_url, init) => {
      const { refresh_token } = JSON.parse(String(init.body)) as { refresh_token: string };
      // Rotation: a refresh token works once.
      if (refresh_token !== "refresh-1") return json(401, { code: "session_expired" });
      rotations++;
      return json(200, issued(2));
    };
    const one = client(api, { locks: () => locks });
    const two = client(api, { locks: () => locks });
    one.session.set(issued(1, 10));
    const [a, b] = await Promise.all([one.session.refresh(), two.session.refresh()]);
    expect([a?.access_token, b?.access_token]).toEqual(["access-2", "access-2"]);
    expect(rotations).toBe(1);
    expect(refreshesOf(two.fetch)).toHaveLength(0);
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
    expect(stored()?.access_token).toBe("access-1");
    expect(ends).toEqual([]);
  });

  it("ends the session, saying it expired, when the server refuses the refresh token; a sign-out says nothing", async () => {
    const ends: unknown[] = [];
    const { session } = client(async () => json(401, { code: "session_expired" }));
    session.onChange((s, ended) => ends.push([s?.access_token ?? null, ended]));
    session.set(issued(1, 10));
    expect(await session.refresh()).toBeNull();
    expect(stored()).toBeNull();
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
    expect(stored()).toBeNull();
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
  it("a session written or removed in another tab is told to the listeners, once", () => {
    const { session } = client(async () => json(500, {}));
    const seen: (string | null)[] = [];
    session.onChange((s) => seen.push(s?.access_token ?? null));
    session.follow();
    localStorage.setItem("test.session", JSON.stringify(issued(7)));
    window.dispatchEvent(new StorageEvent("storage", { key: "test.session" }));
    window.dispatchEvent(new StorageEvent("storage", { key: "test.session" }));
    window.dispatchEvent(new StorageEvent("storage", { key: "another.app" }));
    localStorage.removeItem("test.session");
    window.dispatchEvent(new StorageEvent("storage", { key: "test.session" }));
    expect(seen).toEqual(["access-7", null]);
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
    const { session, fetch } = client(async (url, init) => {
      const token = (init.headers as Record<string, string>).authorization;
      if (token === "Bearer access-1") {
        // Meanwhile another call (or tab) refreshed.
        localStorage.setItem("test.session", JSON.stringify(issued(2)));
        return json(401, {});
      }
      return json(200, { url });
    });
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
