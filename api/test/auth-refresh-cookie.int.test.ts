import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptsPerMinute } from "../src/auth/routes.ts";
import { buildApp } from "../src/main/app.ts";
import { authClient, PASSWORD, refreshCookieOf, refusals, sessionOf } from "./auth-client.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// Issue 33.6: the refresh token lives in an HttpOnly, Secure, SameSite=Strict cookie sent to the
// refresh route only, one per app (the web app's, the console's); the refresh route, which the
// cookie authenticates, wants the app's own page to ask (its header, and no other site's Origin or
// Sec-Fetch-Site); a forged cookie ends nothing; signing out clears the cookie.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.close());

const { call, freshEmail, signup, login, refresh } = authClient(() => api, "198.28");

const cookiesOf = (r: LightMyRequestResponse): string[] => [r.headers["set-cookie"] ?? []].flat();
const refreshCookies = (r: LightMyRequestResponse) => cookiesOf(r).filter((c) => /^(web|console)_refresh_token=/.test(c));
const crossSite = {
  code: "cross_site_request",
  message: "This request did not come from this site's own page. Please reload the page and try again.",
};

describe("the cookie a sign-in sets", () => {
  it("holds the refresh token, out of the body: HttpOnly, Secure, SameSite=Strict, for the refresh route only, for 30 days", async () => {
    const email = freshEmail();
    await signup({ email });
    const r = await call("POST", "/auth/login", { body: { email, password: PASSWORD } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).not.toHaveProperty("refresh_token");
    expect(r.body).not.toContain(refreshCookieOf(r.headers["set-cookie"]));
    const [cookie] = refreshCookies(r);
    expect(cookie).toMatch(
      /^web_refresh_token=[\w-]{43}; Path=\/api\/v1\/auth\/refresh; Max-Age=2592000; HttpOnly; SameSite=Strict; Secure$/,
    );
  });

  it("is the console's own when the console signs in, so the two apps keep separate sessions in one browser", async () => {
    const email = freshEmail();
    await signup({ email });
    const web = await call("POST", "/auth/login", { body: { email, password: PASSWORD } });
    const console = await call("POST", "/auth/login", { body: { email, password: PASSWORD }, headers: { "x-session-app": "console" } });
    expect(refreshCookies(console)).toEqual([expect.stringMatching(/^console_refresh_token=[\w-]{43}; Path=\/api\/v1\/auth\/refresh;/)]);
    const webToken = sessionOf(web).refresh_token;
    const consoleToken = sessionOf(console, "console").refresh_token;
    // The browser sends both cookies to the refresh route; each app's refresh reads and rotates its own.
    const both = `web_refresh_token=${webToken}; console_refresh_token=${consoleToken}`;
    const byConsole = await call("POST", "/auth/refresh", { headers: { cookie: both, "x-session-app": "console" } });
    expect(byConsole.statusCode, byConsole.body).toBe(200);
    expect(refreshCookies(byConsole)).toEqual([expect.stringMatching(/^console_refresh_token=/)]);
    expect((await refresh(webToken)).statusCode).toBe(200);
  });

  it("is Secure wherever a browser keeps it: on a plain-http host of a network (a LAN test box) it goes without, or a reload would sign out", async () => {
    const email = freshEmail();
    await signup({ email });
    const lan = await call("POST", "/auth/login", { body: { email, password: PASSWORD }, headers: { host: "192.168.1.20:3000" } });
    expect(refreshCookies(lan)[0]).toMatch(/; HttpOnly; SameSite=Strict$/);
    // Served over https (PUBLIC_URL says so, behind a proxy the API does not trust to say): Secure, whatever the Host.
    let https: FastifyInstance | undefined;
    try {
      https = await buildApp({ ...api.ctx, mail: { ...api.ctx.mail, publicUrl: "https://sessions.example.com" } });
      const r = await https.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        headers: { host: "sessions.example.com", "x-forwarded-for": "198.28.250.1" },
        payload: { email, password: PASSWORD },
      });
      expect(refreshCookies(r)[0]).toMatch(/; Secure$/);
    } finally {
      await https?.close();
    }
  });
});

describe("refreshing by the cookie", () => {
  it("rotates it: the reply sets the next token, and the old one is spent", async () => {
    const s = await signup();
    const r = await refresh(s.refresh_token);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).not.toHaveProperty("refresh_token");
    const next = sessionOf(r);
    expect(next.refresh_token).not.toBe(s.refresh_token);
    expect(refreshCookies(r)[0]).toMatch(/; Path=\/api\/v1\/auth\/refresh; Max-Age=2592000; HttpOnly; SameSite=Strict; Secure$/);
    expect((await call("GET", "/auth/me", { token: next.access_token })).statusCode).toBe(200);
  });

  it("refuses a forged or unknown cookie with 401 session_expired and clears it, ending nothing else", async () => {
    const s = await signup();
    // The last character changed (to another one: a token may end in "A" already).
    const altered = `${s.refresh_token.slice(0, -1)}${s.refresh_token.endsWith("A") ? "B" : "A"}`;
    for (const forged of ["x".repeat(43), altered, "not-a-token", ""]) {
      const r = await refresh(forged);
      expect(r.statusCode, forged).toBe(401);
      expect(r.json()).toEqual(refusals.session_expired);
      expect(refreshCookies(r)).toEqual([expect.stringMatching(/^web_refresh_token=; Path=\/api\/v1\/auth\/refresh; Max-Age=0;/)]);
    }
    const none = await call("POST", "/auth/refresh", { headers: { "x-session-app": "web" } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(refusals.session_expired);
    // The real sign-in is untouched: its cookie still refreshes, its access token still works.
    expect((await call("GET", "/auth/me", { token: s.access_token })).statusCode).toBe(200);
    expect((await refresh(s.refresh_token)).statusCode).toBe(200);
  });

  it("no longer reads a token from the body", async () => {
    const s = await signup();
    const r = await call("POST", "/auth/refresh", { body: { refresh_token: s.refresh_token }, headers: { "x-session-app": "web" } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual(refusals.invalid_request);
    expect((await refresh(s.refresh_token)).statusCode).toBe(200);
  });

  it("lets ten times as many refreshes through as sign-ins, per address: every page load of a signed-in tab makes one", async () => {
    const from = "203.0.113.11";
    const max = attemptsPerMinute() * 10;
    for (let i = 0; i < max; i++) expect((await refresh(`unknown-${i}`, { from })).statusCode).toBe(401);
    const over = await refresh("unknown", { from });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual(refusals.over_request_rate_limit);
  });
});

describe("cross-site requests (CSRF)", () => {
  it("a refresh without the app's header is refused with 403 cross_site_request, and the cookie is not spent", async () => {
    const s = await signup();
    for (const app of [undefined, "", "admin", "WEB"]) {
      const headers: Record<string, string> = {
        cookie: `web_refresh_token=${s.refresh_token}`,
        ...(app === undefined ? {} : { "x-session-app": app }),
      };
      const r = await call("POST", "/auth/refresh", { headers });
      expect(r.statusCode, String(app)).toBe(403);
      expect(r.json()).toEqual(crossSite);
      expect(r.headers["set-cookie"]).toBeUndefined();
    }
    expect((await refresh(s.refresh_token)).statusCode).toBe(200);
  });

  it("a refresh another site sends is refused, whichever way the browser says so; the product's own pages pass", async () => {
    const s = await signup();
    const refused: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "https://app.example.com" },
      { "sec-fetch-site": "none" },
      { origin: "https://evil.example" },
      { origin: "null" },
      // Sec-Fetch-Site is the browser's own word; an Origin of ours does not outweigh it.
      { "sec-fetch-site": "cross-site", origin: "http://localhost:3000" },
    ];
    for (const headers of refused) {
      const r = await refresh(s.refresh_token, { headers });
      expect(r.statusCode, JSON.stringify(headers)).toBe(403);
      expect(r.json()).toEqual(crossSite);
    }
    let token = s.refresh_token;
    // PUBLIC_URL's origin, and the origin the request was sent to (a dev server's proxy, a second name).
    const own: Record<string, string>[] = [
      { "sec-fetch-site": "same-origin" },
      { origin: "http://localhost:3000" },
      { origin: "http://localhost:80" },
      {},
    ];
    for (const headers of own) {
      const r = await refresh(token, { headers });
      expect(r.statusCode, JSON.stringify(headers)).toBe(200);
      token = sessionOf(r).refresh_token;
    }
  });
});

describe("signing out", () => {
  it("clears the app's cookie (this sign-in or everywhere); ending only the others keeps it", async () => {
    const s = await signup();
    const local = await call("POST", "/auth/logout", { token: s.access_token, body: { scope: "local" } });
    expect(local.statusCode).toBe(204);
    expect(refreshCookies(local)).toEqual([
      expect.stringMatching(/^web_refresh_token=; Path=\/api\/v1\/auth\/refresh; Max-Age=0; HttpOnly; SameSite=Strict/),
    ]);
    expect((await refresh(s.refresh_token)).statusCode).toBe(401);

    const consoleSignIn = await login(s.user.email);
    const everywhere = await call("POST", "/auth/logout", { token: consoleSignIn.access_token, headers: { "x-session-app": "console" } });
    expect(everywhere.statusCode).toBe(204);
    expect(refreshCookies(everywhere)).toEqual([expect.stringMatching(/^console_refresh_token=; .*Max-Age=0;/)]);

    const kept = await login(s.user.email);
    const others = await call("POST", "/auth/logout", { token: kept.access_token, body: { scope: "others" } });
    expect(others.statusCode).toBe(204);
    expect(others.headers["set-cookie"]).toBeUndefined();
    expect((await refresh(kept.refresh_token)).statusCode).toBe(200);
  });
});
