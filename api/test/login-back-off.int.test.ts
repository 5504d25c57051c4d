import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, refusal } from "@booking/contracts";
import { LOGIN_BACK_OFF } from "../src/auth/login-back-off.ts";
import { authClient, PASSWORD, refusals } from "./auth-client.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// Issue 26.13: failed sign-ins are throttled per account, whatever addresses they come from:
// past a few, each next try waits twice as long. The owner is not locked out by it: their
// password still works at once from a browser that signed in to the account before.

let api: TestApi;
let nowMs = Date.parse("2026-05-04T10:00:00.000Z");
const later = (seconds: number) => (nowMs += seconds * 1000);
beforeAll(async () => {
  api = await startTestApi({ clock: () => new Date(nowMs).toISOString() });
});
afterAll(async () => api?.close());

const { signup, freshEmail } = authClient(() => api, "198.20");
let addresses = 0;

/** POST /auth/login from an address of its own (the per-address limit never trips), with the browser's cookie if it has one. */
const login = (email: string, password: string, cookie?: string): Promise<LightMyRequestResponse> =>
  api.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    headers: { "x-forwarded-for": `198.21.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`, ...(cookie ? { cookie } : {}) },
    payload: { email, password },
  });

/** The cookie a browser keeps from a reply (name=value), if it set one. */
function keptCookie(r: LightMyRequestResponse): string | undefined {
  const set = r.headers["set-cookie"];
  const first = Array.isArray(set) ? set[0] : set;
  return first?.split(";")[0];
}

const throttled = (seconds: number) => errorBody(refusal("login_throttled", { wait: seconds === 1 ? "1 second" : `${seconds} seconds` }));
const WRONG = "not-the-password-1";
const { freeFailures, firstDelaySeconds } = LOGIN_BACK_OFF;

async function failFreely(email: string, cookie?: string): Promise<void> {
  for (let i = 0; i < freeFailures; i++) {
    const r = await login(email, WRONG, cookie);
    expect(r.statusCode, `failure ${i + 1}`).toBe(401);
    expect(r.json()).toEqual(refusals.invalid_credentials);
  }
}

describe("failed sign-ins to one account", () => {
  it("past the free ones, each try waits twice as long as the last, from any address, even with the right password; the owner's browser still gets in", async () => {
    const owner = await signup();
    const email = owner.user.email;
    // The owner signed in on this browser before: it keeps a cookie that says so.
    const ownersBrowser = keptCookie(await login(email, PASSWORD));
    expect(ownersBrowser).toBeDefined();

    await failFreely(email);
    const locked = await login(email, WRONG);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(throttled(firstDelaySeconds));
    expect(locked.headers["retry-after"]).toBe(String(firstDelaySeconds));
    // Whoever tries from another browser waits, the right password or not: the attacker learns nothing meanwhile.
    expect((await login(email, PASSWORD)).statusCode).toBe(429);

    const fromOwnersBrowser = await login(email, PASSWORD, ownersBrowser);
    expect(fromOwnersBrowser.statusCode, fromOwnersBrowser.body).toBe(200);
    expect(fromOwnersBrowser.json()).toMatchObject({ user: { id: owner.user.id } });
    // The owner signing in does not let the attacker off.
    expect((await login(email, WRONG)).statusCode).toBe(429);

    later(firstDelaySeconds);
    expect((await login(email, WRONG)).statusCode).toBe(401);
    const again = await login(email, WRONG);
    expect(again.statusCode).toBe(429);
    expect(again.headers["retry-after"]).toBe(String(firstDelaySeconds * 2));
    later(firstDelaySeconds * 2 - 1);
    expect((await login(email, WRONG)).statusCode).toBe(429);
    later(1);
    expect((await login(email, WRONG)).statusCode).toBe(401);
    expect((await login(email, WRONG)).headers["retry-after"]).toBe(String(firstDelaySeconds * 4));

    // Another account is not affected.
    const bystander = await signup();
    expect((await login(bystander.user.email, WRONG)).statusCode).toBe(401);
    expect((await login(bystander.user.email, PASSWORD)).statusCode).toBe(200);
  });

  it("an address with no account is throttled just the same (who has an account stays unsaid)", async () => {
    const email = freshEmail("nobody");
    await failFreely(email);
    const locked = await login(email, WRONG);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(throttled(firstDelaySeconds));
  });

  it("a sign-in with the right password after the wait starts the count afresh", async () => {
    const owner = await signup();
    await failFreely(owner.user.email);
    later(firstDelaySeconds);
    expect((await login(owner.user.email, PASSWORD)).statusCode).toBe(200);
    await failFreely(owner.user.email);
    expect((await login(owner.user.email, WRONG)).statusCode).toBe(429);
  });

  it("the owner's browser mistyping does not throttle the account, but after a few wrong passwords in a row it is no longer trusted", async () => {
    const owner = await signup();
    const email = owner.user.email;
    const browser = keptCookie(await login(email, PASSWORD));
    await failFreely(email, browser);
    // The account's count did not move: another browser's first try is checked.
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
    // A browser that keeps failing is treated as any other: its tries count against the account.
    await failFreely(email);
    expect((await login(email, PASSWORD, browser)).statusCode).toBe(429);
  });

  it("a cookie from a browser that signed in to another account does not help", async () => {
    const [owner, attacker] = [await signup(), await signup()];
    const attackersBrowser = keptCookie(await login(attacker.user.email, PASSWORD));
    await failFreely(owner.user.email, attackersBrowser);
    expect((await login(owner.user.email, WRONG, attackersBrowser)).statusCode).toBe(429);
  });
});
