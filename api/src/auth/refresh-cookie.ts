import type { FastifyReply, FastifyRequest } from "fastify";
import { SESSION_APP_HEADER, SessionApp } from "@booking/contracts";
import { refuse, type ZodApp } from "../http/index.ts";
import { REFRESH_TOKEN_DAYS } from "./refresh-tokens.ts";

// The refresh token travels in a cookie no script can read (issue 33.6): HttpOnly, SameSite=Strict,
// Secure, and sent to the refresh route only (Path), so an injected script can use the sign-in
// while the page is open but never carry a lasting one away. The access token stays in the tab's memory.
//
// The web app and the console share an origin and keep separate sessions, so each has its own
// cookie, named after the app the SESSION_APP_HEADER header names (the web app when a caller names
// none: API clients and older pages). Both cookies have the refresh route's path.
//
// The refresh route is the one the cookie authenticates, so it wants proof that the app's own page
// asks (CSRF): the header itself (a custom header makes a cross-origin call preflighted, and the
// API answers no preflight: it has no CORS), and, where the browser says where a call comes from,
// that it is this origin (Sec-Fetch-Site, else Origin). SameSite=Strict already keeps the cookie
// off other sites' requests; the proof holds where that does not (older browsers, a sibling site).
//
// Secure is always set where a browser can keep it: on https, whether the request says so or
// PUBLIC_URL does (a proxy the API does not trust to say), and on a loopback host, where browsers
// keep Secure cookies over plain http (http://localhost, http://127.0.0.1). Only a plain-http
// host on a network (a LAN test box) gets it without Secure, since a browser would drop it there
// and every reload would sign the person out.

/** The cookie each app's refresh token lives in. No `__Host-` prefix: that prefix forbids a path other than `/`. */
export const REFRESH_COOKIES: Record<SessionApp, string> = { web: "web_refresh_token", console: "console_refresh_token" };

/** 32 random bytes in base64url, as refresh-tokens.ts makes them: nothing to escape, and anything else is not one of ours. */
const REFRESH_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The app a call names (SESSION_APP_HEADER), or null when it names none or one that does not exist. */
function namedApp(request: FastifyRequest): SessionApp | null {
  const parsed = SessionApp.safeParse(request.headers[SESSION_APP_HEADER]);
  return parsed.success ? parsed.data : null;
}

/** Whose cookie a sign-in or a sign-out is about: the app the call names, else the web app. */
export const sessionAppOf = (request: FastifyRequest): SessionApp => namedApp(request) ?? "web";

const LOOPBACK = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The refresh route's path as browsers see it: the auth routes' prefix (/api/v1), from the route that answers. */
function refreshPath(request: FastifyRequest): string {
  const route = request.routeOptions.url ?? "/auth/refresh";
  return `${route.slice(0, Math.max(0, route.indexOf("/auth/")))}/auth/refresh`;
}

type CookieSettings = { publicUrl: string };

function cookieFor(request: FastifyRequest, settings: CookieSettings, value: string, maxAgeSeconds: number): string {
  const secure = settings.publicUrl.startsWith("https:") || request.protocol === "https" || LOOPBACK.test(request.hostname);
  const attributes = [
    `Path=${refreshPath(request)}`,
    `Max-Age=${maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(secure ? ["Secure"] : []),
  ];
  return [`${REFRESH_COOKIES[sessionAppOf(request)]}=${value}`, ...attributes].join("; ");
}

/** What the reply to a request does with its app's cookie: set a new token, or clear it (null). */
const outgoing = new WeakMap<FastifyRequest, string | null>();

/** The reply to `request` sets its app's refresh cookie to `token` (when it succeeds). */
export function keepRefreshCookie(request: FastifyRequest, token: string): void {
  outgoing.set(request, token);
}

/** The reply to `request` clears its app's refresh cookie, whatever its status (a sign-out, a refused refresh). */
export function forgetRefreshCookie(request: FastifyRequest): void {
  outgoing.set(request, null);
}

/**
 * Writes the cookies the routes asked for as each reply goes out, so a route (and signIn, whose
 * callers return its reply) need not hold the reply. A token is set only on a 2xx: a sign-in that
 * fails after its session was made leaves the browser as it was.
 */
export function installRefreshCookies(app: ZodApp, settings: CookieSettings): void {
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!outgoing.has(request)) return payload;
    const token = outgoing.get(request);
    if (token === null) reply.header("set-cookie", cookieFor(request, settings, "", 0));
    else if (token && reply.statusCode < 300)
      reply.header("set-cookie", cookieFor(request, settings, token, REFRESH_TOKEN_DAYS * 24 * 3600));
    return payload;
  });
}

/** The origins the product is served from: PUBLIC_URL's, and the one this request was sent to. */
function ownOrigins(request: FastifyRequest, settings: CookieSettings): string[] {
  return [new URL(settings.publicUrl).origin, `${request.protocol}://${request.host}`];
}

/**
 * The proof that the app's own page asks for a refresh: the app's name in SESSION_APP_HEADER, and
 * no sign of another site (Sec-Fetch-Site other than same-origin; else an Origin that is not ours).
 * Refused with 403 cross_site_request; answers the app whose cookie to read.
 */
export function sameSiteApp(request: FastifyRequest, settings: CookieSettings): SessionApp {
  const app = namedApp(request);
  if (!app) refuse("cross_site_request");
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin") refuse("cross_site_request");
  const origin = request.headers.origin;
  if (site === undefined && origin !== undefined && !ownOrigins(request, settings).includes(origin)) refuse("cross_site_request");
  return app;
}

/** The refresh token in `app`'s cookie, or null when there is none or it is not one this API could have made. */
export function refreshTokenOf(request: FastifyRequest, app: SessionApp): string | null {
  for (const part of request.headers.cookie?.split(";") ?? []) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== REFRESH_COOKIES[app]) continue;
    const value = part.slice(at + 1).trim();
    if (REFRESH_TOKEN.test(value)) return value;
  }
  return null;
}
