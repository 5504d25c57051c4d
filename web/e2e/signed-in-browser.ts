import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { SESSION_APP_HEADER, type SessionApp } from "@booking/contracts";
import { signedInMarker } from "@booking/session-client";

// A browser signed in the way a person's is since issue 33.6: the refresh token in the app's
// HttpOnly cookie (in the context's cookie jar, out of the page's reach), a marker in localStorage
// saying the browser is signed in, and the access token only in the page's memory, taken up from
// the cookie when a page loads. The walks sign in through the API to save the login screen's time.

export type Credentials = { email: string; password: string };

/** Where each app keeps its signed-in marker (web/src/shared/api-client.ts, admin/src/auth-provider.ts). */
export const SIGNED_IN_KEYS: Record<SessionApp, string> = { web: "expert-sessions.auth", console: "expert-sessions.admin.session" };
/** Each app's refresh cookie (api/src/auth/refresh-cookie.ts). */
export const REFRESH_COOKIES: Record<SessionApp, string> = { web: "web_refresh_token", console: "console_refresh_token" };

/** The API's session reply, the part the walks use: the access token for their own API calls. */
export type SignedInSession = { access_token: string; user: { id: string } };

/**
 * A new browser context signed in to the web app as `who`. Each context signs in afresh (a sign-in
 * of its own, as two devices have): contexts sharing one refresh cookie would each spend it on
 * their first page, and the API takes a spent token presented again for a stolen one.
 */
export async function signedInContext(
  browser: Browser,
  productUrl: string,
  who: Credentials,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; session: SignedInSession }> {
  const marker = { name: SIGNED_IN_KEYS.web, value: signedInMarker() };
  const context = await browser.newContext({
    ...options,
    storageState: { cookies: [], origins: [{ origin: productUrl, localStorage: [marker] }] },
  });
  // The context's own request client: the reply's Set-Cookie lands in the context's jar, as a page's sign-in would.
  const reply = await context.request.post(`${productUrl}/api/v1/auth/login`, { data: who, headers: { [SESSION_APP_HEADER]: "web" } });
  if (!reply.ok()) throw new Error(`sign-in of ${who.email} for a browser: ${reply.status()} ${await reply.text()}`);
  return { context, session: (await reply.json()) as SignedInSession };
}

/**
 * What issue 33.6 is for: the app's refresh cookie is there (HttpOnly, Secure, SameSite=Strict,
 * for the refresh route only), and nothing a script can read holds it: not `document.cookie`, not
 * any localStorage or sessionStorage value. Answers the cookie's value.
 */
export async function expectRefreshTokenOutOfScripts(page: Page, app: SessionApp): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === REFRESH_COOKIES[app]);
  expect(cookie, `the ${app} refresh cookie`).toMatchObject({
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    path: "/api/v1/auth/refresh",
  });
  const token = cookie!.value;
  expect(token).toMatch(/^[\w-]{43}$/);
  const readable = await page.evaluate(() => {
    const values = (storage: Storage) =>
      Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i)!)}`);
    return { cookies: document.cookie, stored: [...values(localStorage), ...values(sessionStorage)] };
  });
  expect(readable.cookies).not.toContain(token);
  for (const value of readable.stored) expect(value).not.toContain(token);
  // Nor the word itself: the old session object (with its refresh_token) is gone from storage too.
  expect(readable.stored.join("\n")).not.toMatch(/refresh_token|access_token/);
  return token;
}
