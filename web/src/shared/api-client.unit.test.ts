import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  api,
  ApiError,
  getSession,
  initSession,
  logout,
  messageForError,
  nextPageOf,
  onSessionChange,
  refreshSession,
  setSession,
} from "./api-client.ts";
import { signedInMarker } from "@booking/session-client";
import type { AuthSession } from "./api-types.ts";

const session = (n: number, expiresInSeconds = 900): AuthSession => ({
  access_token: `access-${n}`,
  expires_in: 900,
  expires_at: Math.floor(Date.now() / 1000) + expiresInSeconds,
  token_type: "bearer",
  user: { id: "u-1", email: "u@example.com", role: "creator", first_name: "U" },
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("error messages", () => {
  it("come from the catalogue, with aliases, placeholders filled by the server, and the spec's fallbacks", () => {
    expect(messageForError({ code: "invalid_credentials", message: "nope" })).toBe("Email or password is incorrect.");
    expect(messageForError({ code: "email_exists", message: "x" })).toBe("This email is already registered. Try logging in instead.");
    expect(messageForError({ code: "over_sms_send_rate_limit" })).toBe("Too many attempts. Please wait a few minutes and try again.");
    expect(
      messageForError({ code: "booking_transition_refused", message: "This booking is cancelled and can no longer be cancelled." }),
    ).toBe("This booking is cancelled and can no longer be cancelled.");
    expect(messageForError({ code: "something_new", message: "?" })).toBe("Something went wrong. Please try again.");
    expect(messageForError(undefined)).toBe("An unknown error occurred.");
  });
});

describe("read-your-writes by position (issue 34.1)", () => {
  it("sends nothing before a write, then the newest position a reply named with every later call, never an older one", async () => {
    const sent: (string | undefined)[] = [];
    const replies = ["7:120", "", "7:90", ""];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push((init.headers as Record<string, string>)["consistency-position"]);
        const position = replies.shift();
        return new Response("{}", {
          status: 200,
          headers: { "content-type": "application/json", ...(position ? { "consistency-position": position } : {}) },
        });
      }),
    );
    await api.get("/experts");
    await api.post("/bookings", { session_id: "s" });
    await api.post("/bookings", { session_id: "t" });
    await api.get("/bookings/creator/me");
    // The first call went before any write (if an earlier test wrote nothing); each later one carries the newest heard.
    expect(sent.slice(1)).toEqual(["7:120", "7:120", "7:120"]);
  });
});

describe("the session", () => {
  beforeEach(() => setSession(null));
  afterEach(() => setSession(null));

  it("attaches the bearer token and throws ApiError with the catalogue's message", async () => {
    setSession(session(1));
    const fetchMock = vi.fn(async () => json(404, { code: "booking_not_found", message: "x" }));
    vi.stubGlobal("fetch", fetchMock);
    const error = await api.get("/bookings/b").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: "booking_not_found", message: "No booking found" });
    expect((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers).toMatchObject({ authorization: "Bearer access-1" });
  });

  it("refreshes a minute before expiry by the web app's cookie, keeping the new token in memory only", async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      expect(init.body).toBeUndefined();
      expect(init.headers).toMatchObject({ "x-session-app": "web" });
      return json(200, session(2));
    });
    vi.stubGlobal("fetch", fetchMock);
    setSession(session(1, 90));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getSession()?.access_token).toBe("access-2");
    expect(localStorage.getItem("expert-sessions.auth")).not.toMatch(/access/);
  });

  it("retries a failed refresh with a back-off from 200 ms, then signs out when the token is refused", async () => {
    vi.useFakeTimers();
    setSession(session(1));
    let attempts = 0;
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => (++attempts < 3 ? Promise.reject(new TypeError("offline")) : json(401, { code: "session_expired" }))),
    );
    const result = refreshSession();
    await vi.advanceTimersByTimeAsync(200 + 400);
    expect(await result).toBeNull();
    expect(attempts).toBe(3);
    expect(getSession()).toBeNull();
  });

  it("tells listeners the session expired when the refresh is refused, but not when the user logs out", async () => {
    const ends: (string | undefined)[] = [];
    const stop = onSessionChange((s, ended) => void (s || ends.push(ended)));
    setSession(session(1));
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json(401, { code: "session_expired" })),
    );
    expect(await refreshSession()).toBeNull();
    setSession(session(2));
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await logout();
    stop();
    expect(ends).toEqual(["expired", undefined]);
  });

  it("retries a call once with a fresh token when the server says the session expired", async () => {
    setSession(session(1));
    const seen: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit) => {
        if (url.endsWith("/auth/refresh")) return json(200, session(2));
        seen.push(String((init.headers as Record<string, string>).authorization));
        return seen.length === 1 ? json(401, { code: "session_expired" }) : json(200, { ok: true });
      }),
    );
    expect(await api.get("/auth/me")).toEqual({ ok: true });
    expect(seen).toEqual(["Bearer access-1", "Bearer access-2"]);
  });

  it("does not refresh or retry on a 401 that is not an expired session", async () => {
    setSession(session(1));
    const fetchMock = vi.fn(async () => json(401, { code: "invalid_credentials", message: "x" }));
    vi.stubGlobal("fetch", fetchMock);
    await expect(api.post("/auth/password", {})).rejects.toMatchObject({ status: 401, code: "invalid_credentials" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getSession()?.access_token).toBe("access-1");
  });

  it("restores the session from the cookie after a reload, and follows other tabs' sign-ins and sign-outs", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json(200, session(7))),
    );
    localStorage.setItem("expert-sessions.auth", signedInMarker(1));
    expect((await initSession())?.access_token).toBe("access-7");
    const was = localStorage.getItem("expert-sessions.auth");
    localStorage.removeItem("expert-sessions.auth");
    window.dispatchEvent(new StorageEvent("storage", { key: "expert-sessions.auth", oldValue: was, newValue: null }));
    expect(getSession()).toBeNull();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json(200, session(8))),
    );
    localStorage.setItem("expert-sessions.auth", signedInMarker(2));
    window.dispatchEvent(new StorageEvent("storage", { key: "expert-sessions.auth", oldValue: null, newValue: signedInMarker(2) }));
    await vi.waitFor(() => expect(getSession()?.access_token).toBe("access-8"));
  });
});

// Issue 34.5: a paged list names its next page in a Link header; the client hands that on as a path of its own calls.
describe("pages of a list", () => {
  beforeEach(() => setSession(session(1)));
  afterEach(() => setSession(null));

  it("reads a page's items and the next page's path, without the /api/v1 the calls add", async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify([{ id: "b1" }]), {
          status: 200,
          headers: { "content-type": "application/json", link: '</api/v1/bookings/expert/me?before=abc_-1&limit=500>; rel="next"' },
        }),
    );
    vi.stubGlobal("fetch", fetchMock);
    expect(await api.getPage("/bookings/expert/me")).toEqual({
      items: [{ id: "b1" }],
      next: "/bookings/expert/me?before=abc_-1&limit=500",
    });
    expect(await api.getPage("/bookings/expert/me?before=abc_-1&limit=500")).toMatchObject({
      next: "/bookings/expert/me?before=abc_-1&limit=500",
    });
    expect((fetchMock.mock.calls[1] as unknown as [string])[0]).toBe("/api/v1/bookings/expert/me?before=abc_-1&limit=500");
  });

  it("says there is no next page on the last one, and throws the API's error like any call", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json(200, [])),
    );
    expect(await api.getPage("/bookings/creator/me")).toEqual({ items: [], next: null });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json(400, { code: "bookings_cursor_invalid", message: "x" })),
    );
    await expect(api.getPage("/bookings/creator/me?before=x")).rejects.toMatchObject({ status: 400, code: "bookings_cursor_invalid" });
  });

  it("finds rel=next among several links, quoted or not, and refuses a next page outside the API", () => {
    expect(nextPageOf(null)).toBeNull();
    expect(nextPageOf('</api/v1/bookings/creator/me?before=a>; rel="prev"')).toBeNull();
    expect(nextPageOf('</api/v1/x?before=a>; rel="prev", </api/v1/x?before=b>; rel="next"')).toBe("/x?before=b");
    expect(nextPageOf("<https://booking.example/api/v1/x?before=c>; rel=next")).toBe("/x?before=c");
    expect(nextPageOf('</api/v1/x?before=d>; title="older"; rel="last next"')).toBe("/x?before=d");
    expect(() => nextPageOf('</elsewhere/x?before=e>; rel="next"')).toThrow(ApiError);
  });
});
