import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/main/app.ts";
import { REFRESH_REUSE_GRACE_SECONDS, rotate } from "../src/auth/refresh-tokens.ts";
import type { BookingFeed } from "../src/live-updates/booking-feed.ts";
import { SIGN_IN_CHECK_MS } from "../src/live-updates/routes.ts";
import { authClient, PASSWORD, sessionOf, type AuthSession } from "./auth-client.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";

// Issue 12 (items 2, 3, 10, 11) and 13 (item 8): an ended sign-in ends everywhere, changing the
// password needs the current one, two tabs refreshing at once stay signed in, any-case `bearer`,
// and a user can rename themselves.

let api: TestApi;
let base: string;
/** The stream is served over a socket by an app over the same parts, with a feed that only records who listens. */
let streaming: FastifyInstance | undefined;
let listening: string[] = [];
beforeAll(async () => {
  api = await startTestApi();
  const feed = { listen: (userId: string) => (listening.push(userId), () => undefined) } as unknown as BookingFeed;
  streaming = await buildApp({ ...api.ctx, feed });
  await streaming.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(streaming.server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  await streaming?.close();
  await api?.close();
});

const { call, signup: signupWith, login, refresh } = authClient(() => api, "198.19");
const signup = () => signupWith({ first_name: "Ada", last_name: "Byron" });
const me = (s: AuthSession) => call("GET", "/auth/me", { token: s.access_token });

describe("the event stream's query token is checked like a Bearer token (12.2)", () => {
  /** Who listens from now on: the stream stays open, sending heartbeats. */
  function recordingFeed() {
    listening = [];
    return listening;
  }

  /** Open the stream with ?access_token= and resolve when the server ends it (or after `ms`). */
  async function openStream(token: string) {
    const controller = new AbortController();
    const res = await fetch(`${base}/stream?access_token=${encodeURIComponent(token)}`, { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read(); // ": connected"
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })().catch(() => false);
    return {
      endedWithin: (ms: number) => Promise.race([ended, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]),
      close: () => controller.abort(),
    };
  }

  const streamStatus = async (token: string) => {
    const res = await fetch(`${base}/stream?access_token=${encodeURIComponent(token)}`);
    const body = res.status === 200 ? null : await res.json();
    if (res.status === 200) await res.body?.cancel();
    return { status: res.status, body };
  };

  it("logout and a password change end an open stream within a check, and refuse a new one", async () => {
    const listening = recordingFeed();
    const loggingOut = await signup();
    const changing = await signup();
    const changingOther = await login(changing.user.email); // the sign-in the password change ends
    const bystander = await signup();

    const streams = [
      await openStream(loggingOut.access_token),
      await openStream(changingOther.access_token),
      await openStream(bystander.access_token),
    ];
    expect(listening).toEqual([loggingOut.user.id, changing.user.id, bystander.user.id]);

    expect((await call("POST", "/auth/logout", { token: loggingOut.access_token, body: { scope: "local" } })).statusCode).toBe(204);
    expect(
      (
        await call("POST", "/auth/password", {
          token: changing.access_token,
          body: { current_password: PASSWORD, password: "new-password-8" },
        })
      ).statusCode,
    ).toBe(204);

    const within = SIGN_IN_CHECK_MS + 2_000;
    const [loggedOutEnded, changedEnded, bystanderEnded] = await Promise.all(streams.map((s) => s.endedWithin(within)));
    streams.forEach((s) => s.close());
    expect({ loggedOutEnded, changedEnded, bystanderEnded }).toEqual({ loggedOutEnded: true, changedEnded: true, bystanderEnded: false });

    for (const token of [loggingOut.access_token, changingOther.access_token]) {
      expect(await streamStatus(token)).toEqual({
        status: 401,
        body: { code: "session_expired", message: "Your session has expired. Please log in again." },
      });
    }
    // The caller who changed the password keeps their sign-in, stream included.
    expect((await streamStatus(changing.access_token)).status).toBe(200);
  }, 20_000);
});

describe("changing the password needs the current one (12.3)", () => {
  it("refuses a missing or wrong current password and changes nothing", async () => {
    const s = await signup();
    const missing = await call("POST", "/auth/password", { token: s.access_token, body: { password: "new-password-9" } });
    expect(missing.statusCode).toBe(400);
    const wrong = await call("POST", "/auth/password", {
      token: s.access_token,
      body: { current_password: "not-my-password-1", password: "new-password-9" },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ code: "reauthentication_needed", message: "Please log in again to confirm this action." });
    // Nothing changed and the caller is still signed in.
    await login(s.user.email);
    expect((await call("POST", "/auth/login", { body: { email: s.user.email, password: "new-password-9" } })).statusCode).toBe(401);
    expect((await me(s)).statusCode).toBe(200);

    expect(
      (await call("POST", "/auth/password", { token: s.access_token, body: { current_password: PASSWORD, password: "new-password-9" } }))
        .statusCode,
    ).toBe(204);
    await login(s.user.email, "new-password-9");
  });
});

describe("two tabs refreshing one token at once stay signed in (12.10)", () => {
  it("both get the same new refresh token, in the same sign-in, and it keeps working", async () => {
    const s = await signup();
    const replies = await Promise.all([refresh(s.refresh_token), refresh(s.refresh_token)]);
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200]);
    const [a, b] = replies.map((r) => sessionOf(r));
    expect(a!.refresh_token).toBe(b!.refresh_token);
    expect(a!.refresh_token).not.toBe(s.refresh_token);
    expect((await me(a!)).statusCode).toBe(200);
    expect((await me(b!)).statusCode).toBe(200);
    // Both access tokens belong to the same sign-in: logging out of it ends both.
    expect((await call("POST", "/auth/logout", { token: a!.access_token, body: { scope: "local" } })).statusCode).toBe(204);
    expect([(await me(a!)).statusCode, (await me(b!)).statusCode]).toEqual([401, 401]);
  });

  it("presenting the just-rotated token again within the window answers the same successor", async () => {
    const s = await signup();
    const first = sessionOf(await refresh(s.refresh_token));
    const again = await refresh(s.refresh_token);
    expect(again.statusCode).toBe(200);
    expect(sessionOf(again).refresh_token).toBe(first.refresh_token);
    expect((await refresh(first.refresh_token)).statusCode).toBe(200);
  });

  it("reuse after the window still revokes the whole sign-in", async () => {
    const s = await signup();
    const now = Date.now();
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    const first = await rotate(api.ctx.db, TEST_JWT_SECRET, s.refresh_token, at(0));
    expect(first).not.toBeNull();
    // Within the window: the same successor.
    expect((await rotate(api.ctx.db, TEST_JWT_SECRET, s.refresh_token, at(REFRESH_REUSE_GRACE_SECONDS - 1)))?.refreshToken).toBe(
      first!.refreshToken,
    );
    // After it: reuse, and the family (successor included) is revoked.
    expect(await rotate(api.ctx.db, TEST_JWT_SECRET, s.refresh_token, at(REFRESH_REUSE_GRACE_SECONDS + 1))).toBeNull();
    const successor = await refresh(first!.refreshToken);
    expect(successor.statusCode).toBe(401);
    expect(successor.json()).toMatchObject({ code: "session_expired" });
    expect((await me(s)).statusCode).toBe(401);
  });

  it("a token whose successor was already used is reuse, even within the window", async () => {
    const s = await signup();
    const second = sessionOf(await refresh(s.refresh_token));
    const third = sessionOf(await refresh(second.refresh_token));
    expect((await refresh(s.refresh_token)).statusCode).toBe(401);
    expect((await refresh(third.refresh_token)).statusCode).toBe(401);
  });
});

describe("the Bearer scheme is case-insensitive (12.11)", () => {
  it("accepts bearer, BEARER and BeArEr", async () => {
    const s = await signup();
    for (const scheme of ["bearer", "BEARER", "BeArEr", "Bearer"]) {
      const r = await call("GET", "/auth/me", { authorization: `${scheme} ${s.access_token}` });
      expect(r.statusCode, scheme).toBe(200);
    }
    expect((await call("GET", "/auth/me", { authorization: `Basic ${s.access_token}` })).statusCode).toBe(401);
  });
});

describe("renaming yourself (13.8)", () => {
  it("PATCH /auth/me records UserRenamed and the new names show at once", async () => {
    const s = await signup();
    const r = await call("PATCH", "/auth/me", { token: s.access_token, body: { first_name: "  Augusta ", last_name: "King" } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ id: s.user.id, first_name: "Augusta", last_name: "King" });
    expect((await me(s)).json()).toMatchObject({ first_name: "Augusta", last_name: "King" });
    const stream = await api.ctx.store.readStream(`user-${s.user.id}`);
    expect(stream.events.map((e) => [e.type, e.data])).toEqual([
      ["UserRegistered", expect.anything()],
      ["EmailVerified", expect.anything()],
      ["UserRenamed", { userId: s.user.id, firstName: "Augusta", lastName: "King" }],
    ]);
    // The next sign-in greets them by the new name.
    expect((await login(s.user.email)).user.first_name).toBe("Augusta");
  });

  it("needs a token, both names, and nothing else", async () => {
    expect((await call("PATCH", "/auth/me", { body: { first_name: "A", last_name: "B" } })).statusCode).toBe(401);
    const s = await signup();
    for (const body of [
      { first_name: "A" },
      { first_name: "", last_name: "B" },
      { first_name: "A", last_name: "B", role: "admin" },
      { first_name: "x".repeat(101), last_name: "B" },
    ]) {
      const r = await call("PATCH", "/auth/me", { token: s.access_token, body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await me(s)).json()).toMatchObject({ first_name: "Ada", last_name: "Byron", role: "creator" });
  });
});
