import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignInsReply } from "@booking/contracts";
import { authClient, PASSWORD, refusals, sessionOf, type AuthSession } from "./auth-client.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { exactly } from "./reply-checks.ts";

// Issue 33.5: each sign-in (a refresh-token family) is listed with the device it began on, when it
// began and when it was last refreshed; its owner ends it from anywhere, which stops its refresh
// token and its access tokens at once. Another user's sign-ins cannot be named.

let api: TestApi;
let nowMs = Date.parse("2026-06-02T08:00:00.000Z");
const later = (seconds: number) => (nowMs += seconds * 1000);
const at = () => new Date(nowMs).toISOString();
beforeAll(async () => {
  api = await startTestApi({ clock: at });
});
afterAll(async () => api?.close());

const { call, signup, refresh } = authClient(() => api, "198.23");

const CHROME_ON_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** A sign-in from a browser that says who it is. */
async function loginFrom(email: string, userAgent: string): Promise<AuthSession> {
  const r = await api.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    headers: { "user-agent": userAgent, "x-forwarded-for": "198.23.200.1" },
    payload: { email, password: PASSWORD },
  });
  expect(r.statusCode, r.body).toBe(200);
  return sessionOf(r);
}

type Listed = { id: string; device: string; first_seen_at: string; last_seen_at: string; current: boolean };
async function signInsSeenBy(token: string): Promise<Listed[]> {
  const r = await call("GET", "/auth/sign-ins", { token });
  expect(r.statusCode, r.body).toBe(200);
  exactly(SignInsReply, r.json());
  return r.json<{ sign_ins: Listed[] }>().sign_ins;
}

describe("the sign-ins a person sees", () => {
  it("lists each active sign-in newest first, with its device, first and last seen, and the current one marked", async () => {
    const first = await signup();
    const email = first.user.email;
    const signedUpAt = at();
    later(60);
    const laptop = await loginFrom(email, CHROME_ON_LINUX);
    const laptopAt = at();
    later(60);
    const phone = await loginFrom(email, SAFARI_ON_IPHONE);
    const phoneAt = at();

    const seen = await signInsSeenBy(phone.access_token);
    expect(seen.map(({ id: _id, ...rest }) => rest)).toEqual([
      { device: "Safari on iPhone", first_seen_at: phoneAt, last_seen_at: phoneAt, current: true },
      { device: "Chrome on Linux", first_seen_at: laptopAt, last_seen_at: laptopAt, current: false },
      // The verification link's sign-in, from a client that did not say what it is.
      { device: "Unknown device", first_seen_at: signedUpAt, last_seen_at: signedUpAt, current: false },
    ]);
    expect((await signInsSeenBy(laptop.access_token)).map((s) => s.current)).toEqual([false, true, false]);

    // A refresh is the sign-in seen again: its last seen moves, its first seen stays.
    later(600);
    expect((await refresh(laptop.refresh_token)).statusCode).toBe(200);
    const afterRefresh = (await signInsSeenBy(phone.access_token)).find((s) => s.device === "Chrome on Linux")!;
    expect(afterRefresh).toMatchObject({ first_seen_at: laptopAt, last_seen_at: at() });
  });

  it("ending one stops its refresh token and its access token at once; the others go on", async () => {
    const first = await signup();
    later(60);
    const laptop = await loginFrom(first.user.email, CHROME_ON_LINUX);
    later(60);
    const phone = await loginFrom(first.user.email, SAFARI_ON_IPHONE);
    const laptopId = (await signInsSeenBy(laptop.access_token)).find((s) => s.current)!.id;

    const ended = await call("DELETE", `/auth/sign-ins/${laptopId}`, { token: phone.access_token });
    expect(ended.statusCode, ended.body).toBe(204);
    expect((await refresh(laptop.refresh_token)).json()).toEqual(refusals.session_expired);
    const laptopCall = await call("GET", "/auth/me", { token: laptop.access_token });
    expect(laptopCall.statusCode).toBe(401);
    expect(laptopCall.json()).toEqual(refusals.session_expired);
    expect((await signInsSeenBy(phone.access_token)).map((s) => s.device)).toEqual(["Safari on iPhone", "Unknown device"]);
    expect((await call("GET", "/auth/me", { token: first.access_token })).statusCode).toBe(200);

    // Ended already: there is nothing to end.
    const again = await call("DELETE", `/auth/sign-ins/${laptopId}`, { token: phone.access_token });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ code: "sign_in_not_found", message: "This sign-in was not found. It may have ended already." });
  });

  it("another user's sign-in is not found, like one that never was, and goes on working", async () => {
    const owner = await signup();
    const other = await signup();
    const ownerId = (await signInsSeenBy(owner.access_token))[0]!.id;
    const theirs = await call("DELETE", `/auth/sign-ins/${ownerId}`, { token: other.access_token });
    const none = await call("DELETE", "/auth/sign-ins/5b0d6a52-0000-4000-8000-000000000000", { token: other.access_token });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(none.json());
    expect(theirs.json()).toMatchObject({ code: "sign_in_not_found" });
    expect((await call("GET", "/auth/me", { token: owner.access_token })).statusCode).toBe(200);
    expect((await refresh(owner.refresh_token)).statusCode).toBe(200);
  });

  it("signing out everywhere else leaves only this device's sign-in in the list", async () => {
    const first = await signup();
    later(60);
    await loginFrom(first.user.email, CHROME_ON_LINUX);
    later(60);
    const phone = await loginFrom(first.user.email, SAFARI_ON_IPHONE);
    expect(await signInsSeenBy(phone.access_token)).toHaveLength(3);
    expect((await call("POST", "/auth/logout", { token: phone.access_token, body: { scope: "others" } })).statusCode).toBe(204);
    expect((await signInsSeenBy(phone.access_token)).map(({ device, current }) => ({ device, current }))).toEqual([
      { device: "Safari on iPhone", current: true },
    ]);
  });
});
