import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_TERMS_VERSION } from "@booking/contracts";
import { ensureAdminAccount } from "../src/auth/admin-account.ts";
import { isWeakPassword } from "../src/auth/password.ts";
import { attemptsPerMinute } from "../src/auth/routes.ts";
import { authClient, PASSWORD, refusals, sessionOf, type AuthSession } from "./auth-client.ts";
import { startTestApi, type TestApi } from "./harness.ts";

let api: TestApi;
beforeAll(async () => (api = await startTestApi()));
afterAll(async () => api.close());

const { call, freshEmail, signup, login, refresh } = authClient(() => api, "198.18");

describe("sign-up", () => {
  it("makes an unverified creator: an account, a UserRegistered event, a users row and one verification mail, and no session", async () => {
    const email = freshEmail("creator");
    const r = await call("POST", "/auth/signup", {
      body: { email, password: PASSWORD, role: "creator", first_name: "Ada", last_name: "Lovelace", timezone: "Europe/London" },
    });
    expect(r.statusCode).toBe(201);
    const reply = r.json<{ user: { id: string }; confirmation_sent_at: string }>();
    expect(reply).toEqual({
      user: { id: expect.any(String), email, role: "creator", first_name: "Ada" },
      confirmation_sent_at: expect.any(String),
    });
    expect(Math.abs(Date.parse(reply.confirmation_sent_at) - Date.now())).toBeLessThan(5_000);
    const id = reply.user.id;

    // Read-your-writes: the users read model already shows the new user, unverified, in the browser's zone.
    const users = await api.ctx.db.query(
      "SELECT email, role, first_name, last_name, email_verified_at, timezone, reminder_mails FROM users WHERE user_id = $1",
      [id],
    );
    expect(users.rows).toEqual([
      {
        email,
        role: "creator",
        first_name: "Ada",
        last_name: "Lovelace",
        email_verified_at: null,
        timezone: "Europe/London",
        reminder_mails: true,
      },
    ]);

    const stream = await api.ctx.store.readStream(`user-${id}`);
    expect(stream.events.map((e) => [e.type, e.data])).toEqual([
      ["UserRegistered", { userId: id, email, role: "creator", firstName: "Ada", lastName: "Lovelace", timezone: "Europe/London" }],
    ]);

    // Only scrypt hashes are stored; no sign-in exists until the address is verified.
    const account = await api.ctx.db.query<{ password_hash: string; email_verified_at: Date | null }>(
      "SELECT password_hash, email_verified_at FROM accounts WHERE user_id = $1",
      [id],
    );
    expect(account.rows[0]?.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]{22}\$[\w-]+$/);
    expect(account.rows[0]?.email_verified_at).toBeNull();
    expect((await api.ctx.db.query("SELECT 1 FROM refresh_tokens WHERE user_id = $1", [id])).rows).toEqual([]);

    const mails = await api.ctx.db.query("SELECT kind, essential, user_id, to_address, status FROM mail_outbox WHERE user_id = $1", [id]);
    expect(mails.rows).toEqual([{ kind: "verify_email", essential: true, user_id: id, to_address: email, status: "pending" }]);
  });

  it("following the mail's link signs in: only digests of refresh tokens are stored, and /auth/me shows the account verified", async () => {
    const email = freshEmail("creator");
    const s = await signup({ email, first_name: "Ada", last_name: "Lovelace" });
    expect(s).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^[\w-]{43}$/),
      expires_in: 900,
      expires_at: expect.any(Number),
      token_type: "bearer",
      user: { id: expect.any(String), email, role: "creator", first_name: "Ada" },
    });
    expect(Math.abs(s.expires_at - (Date.now() / 1000 + 900))).toBeLessThan(5);
    const tokens = await api.ctx.db.query<{ token_hash: string }>("SELECT token_hash FROM refresh_tokens WHERE user_id = $1", [s.user.id]);
    expect(tokens.rows).toHaveLength(1);
    expect(tokens.rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.rows[0]?.token_hash).not.toBe(s.refresh_token);

    const me = await call("GET", "/auth/me", { token: s.access_token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: s.user.id,
      email,
      role: "creator",
      first_name: "Ada",
      last_name: "Lovelace",
      expert_id: null,
      terms_accepted: false,
      email_verified: true,
      timezone: "UTC",
      reminder_mails: true,
    });
  });

  it("makes an expert; names are optional", async () => {
    const s = await signup({ role: "expert" });
    expect(s.user).toMatchObject({ role: "expert", first_name: null });
    const me = await call("GET", "/auth/me", { token: s.access_token });
    expect(me.json()).toMatchObject({ role: "expert", first_name: null, last_name: null, expert_id: null });
  });

  it("stores the email trimmed and lowercased", async () => {
    const email = freshEmail();
    const s = await signup({ email: `  ${email.toUpperCase()} ` });
    expect(s.user.email).toBe(email);
  });

  // A taken email (any case), and the losers of racing sign-ups with one email, are no longer
  // refused with 409 user_already_exists: that told anyone who has an account. They are answered
  // like a new sign-up and the owner is mailed (issue 26 item 6): auth-signup-known-address.int.test.ts.

  it("refuses weak passwords with 422 weak_password", async () => {
    for (const password of ["abc123", "abcdefghij", "1234567890", `a1${"x".repeat(199)}`, ""]) {
      const r = await call("POST", "/auth/signup", { body: { email: freshEmail(), password, role: "creator" } });
      expect(r.statusCode, password).toBe(422);
      expect(r.json()).toEqual(refusals.weak_password);
    }
  });

  it("keeps the strength rule in one place", () => {
    expect(isWeakPassword("abcdefg1")).toBe(false);
    expect(isWeakPassword("abcdef1")).toBe(true);
    expect(isWeakPassword(`a1${"x".repeat(198)}`)).toBe(false);
    expect(isWeakPassword(`a1${"x".repeat(199)}`)).toBe(true);
  });

  it("refuses an invalid email, the admin role and unknown fields with 400", async () => {
    const bodies = [
      { email: "not-an-email", password: PASSWORD, role: "creator" },
      { email: freshEmail(), password: PASSWORD, role: "admin" },
      { email: freshEmail(), password: PASSWORD, role: "creator", is_admin: true },
      { email: freshEmail(), password: PASSWORD },
    ];
    for (const body of bodies) {
      const r = await call("POST", "/auth/signup", { body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json()).toEqual(refusals.invalid_request);
    }
  });
});

describe("login", () => {
  it("signs in by email (any case) and password", async () => {
    const email = freshEmail();
    const first = await signup({ email, first_name: "Grace" });
    const s = await login(email.toUpperCase());
    expect(s.user).toEqual({ id: first.user.id, email, role: "creator", first_name: "Grace" });
    expect(s.refresh_token).not.toBe(first.refresh_token);
    expect((await call("GET", "/auth/me", { token: s.access_token })).statusCode).toBe(200);
  });

  it("answers a wrong password and an unknown email alike: 401 invalid_credentials", async () => {
    const email = freshEmail();
    await signup({ email });
    const wrong = await call("POST", "/auth/login", { body: { email, password: "wrong-password-1" } });
    const unknown = await call("POST", "/auth/login", { body: { email: freshEmail("nobody"), password: PASSWORD } });
    for (const r of [wrong, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual(refusals.invalid_credentials);
    }
  });

  it("refuses unknown fields with 400", async () => {
    const r = await call("POST", "/auth/login", { body: { email: freshEmail(), password: PASSWORD, remember: true } });
    expect(r.statusCode).toBe(400);
  });
});

describe("me", () => {
  it("reports terms acceptance and the expert id once a profile exists", async () => {
    const s = await signup({ role: "expert", first_name: "Linus", last_name: "T" });
    const me = async () => (await call("GET", "/auth/me", { token: s.access_token })).json<Record<string, unknown>>();
    expect(await me()).toMatchObject({ terms_accepted: false, expert_id: null });
    const accept = await call("POST", "/terms/accept", { token: s.access_token, body: { version_id: CURRENT_TERMS_VERSION } });
    expect(accept.statusCode).toBe(200);
    // The experts read model is kept by another area; a row stands in for a completed profile.
    await api.ctx.db.query(
      `INSERT INTO experts (expert_id, user_id, slug, first_name, last_name, title, published, updated_at, stream_version)
       VALUES ($1, $1, $2, 'Linus', 'T', 'Kernel', false, now(), 1)`,
      [s.user.id, `linus-${s.user.id}`],
    );
    expect(await me()).toEqual({
      id: s.user.id,
      email: s.user.email,
      role: "expert",
      first_name: "Linus",
      last_name: "T",
      expert_id: s.user.id,
      terms_accepted: true,
      email_verified: true,
      timezone: "UTC",
      reminder_mails: true,
    });
  });

  it("needs a token: 401 no_access_token", async () => {
    const r = await call("GET", "/auth/me");
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual(refusals.no_access_token);
  });
});

describe("access tokens", () => {
  const forge = (header: object, claims: object, secret: string) => {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const unsigned = `${part(header)}.${part(claims)}`;
    return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
  };

  it("refuses an expired token, one signed with another secret, and alg none with 401 session_expired", async () => {
    const s = await signup();
    // The sign-in's own sid: each token below is wrong in one way only.
    const { sid } = JSON.parse(Buffer.from(s.access_token.split(".")[1]!, "base64url").toString()) as { sid: string };
    const claims = { sub: s.user.id, role: "creator" as const, email: s.user.email, sid };
    const now = Math.floor(Date.now() / 1000);
    const expired = api.app.jwt.sign(claims, { clockTimestamp: Date.now() - 3_600_000 });
    const otherSecret = forge(
      { alg: "HS256", typ: "JWT" },
      { ...claims, iat: now, exp: now + 600 },
      "some-other-secret-that-is-long-enough!!",
    );
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify({ ...claims, role: "admin", exp: now + 600 })).toString("base64url")}.`;
    for (const token of [expired, otherSecret, none, "not-a-jwt"]) {
      const r = await call("GET", "/auth/me", { token });
      expect(r.statusCode, token).toBe(401);
      expect(r.json()).toEqual(refusals.session_expired);
    }
  });
});

describe("refresh", () => {
  it("rotates: a new pair, and the presented refresh token stops working", async () => {
    const s = await signup();
    const r = await refresh(s.refresh_token);
    expect(r.statusCode).toBe(200);
    const next = sessionOf(r);
    expect(next.user).toEqual(s.user);
    expect(next.refresh_token).not.toBe(s.refresh_token);
    expect((await call("GET", "/auth/me", { token: next.access_token })).statusCode).toBe(200);
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });

  it("revokes the whole family when a used token is presented again", async () => {
    const s = await signup();
    const second = sessionOf(await refresh(s.refresh_token));
    const third = sessionOf(await refresh(second.refresh_token));
    const other = await login(s.user.email); // another sign-in: a different family, untouched

    const reuse = await refresh(s.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual(refusals.session_expired);
    const newest = await refresh(third.refresh_token);
    expect(newest.statusCode).toBe(401);
    expect(newest.json()).toEqual(refusals.session_expired);
    expect((await refresh(other.refresh_token)).statusCode).toBe(200);
  });

  it("refuses unknown and expired tokens with 401 session_expired", async () => {
    const s = await signup();
    await api.ctx.db.query("UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1", [s.user.id]);
    for (const token of [s.refresh_token, "x".repeat(43)]) {
      const r = await refresh(token);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual(refusals.session_expired);
    }
  });

  it("answers concurrent uses of one token with one successor: every reply gets the same new refresh token", async () => {
    const s = await signup();
    const replies = await Promise.all([1, 2, 3].map(() => refresh(s.refresh_token)));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(replies.map((r) => sessionOf(r).refresh_token)).size).toBe(1);
    expect((await refresh(sessionOf(replies[0]!).refresh_token)).statusCode).toBe(200);
  });
});

describe("logout", () => {
  async function threeSessions() {
    const first = await signup();
    return [first, await login(first.user.email), await login(first.user.email)] as const;
  }
  const works = async (s: AuthSession) => (await refresh(s.refresh_token)).statusCode === 200;

  it("local ends only the current session", async () => {
    const [a, b, c] = await threeSessions();
    const r = await call("POST", "/auth/logout", { token: a.access_token, body: { scope: "local" } });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe("");
    expect([await works(a), await works(b), await works(c)]).toEqual([false, true, true]);
  });

  it("local also ends the rotated successors of the current session", async () => {
    const s = await signup();
    const rotated = sessionOf(await refresh(s.refresh_token));
    expect((await call("POST", "/auth/logout", { token: s.access_token, body: { scope: "local" } })).statusCode).toBe(204);
    expect(await works(rotated)).toBe(false);
  });

  it("others ends every session but the current one", async () => {
    const [a, b, c] = await threeSessions();
    expect((await call("POST", "/auth/logout", { token: a.access_token, body: { scope: "others" } })).statusCode).toBe(204);
    expect([await works(a), await works(b), await works(c)]).toEqual([true, false, false]);
  });

  it("global ends every session; it is the default", async () => {
    const [a, b, c] = await threeSessions();
    expect((await call("POST", "/auth/logout", { token: b.access_token, body: { scope: "global" } })).statusCode).toBe(204);
    expect([await works(a), await works(b), await works(c)]).toEqual([false, false, false]);

    const [d, e] = await threeSessions();
    expect((await call("POST", "/auth/logout", { token: d.access_token })).statusCode).toBe(204);
    expect([await works(d), await works(e)]).toEqual([false, false]);
  });

  it("an ended session's access tokens stop working at once, not when they expire", async () => {
    const me = (s: AuthSession) => call("GET", "/auth/me", { token: s.access_token });
    const [a, b] = await threeSessions();
    expect((await me(a)).statusCode).toBe(200);
    expect((await call("POST", "/auth/logout", { token: a.access_token, body: { scope: "local" } })).statusCode).toBe(204);
    const ended = await me(a);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual(refusals.session_expired);
    expect((await me(b)).statusCode).toBe(200);
    // A refreshed token belongs to the same sign-in and keeps working until that ends.
    const refreshed = sessionOf(await refresh(b.refresh_token));
    expect((await me(refreshed)).statusCode).toBe(200);
    expect((await call("POST", "/auth/logout", { token: refreshed.access_token })).statusCode).toBe(204);
    expect([(await me(b)).statusCode, (await me(refreshed)).statusCode]).toEqual([401, 401]);
  });

  it("needs a token, and refuses an unknown scope", async () => {
    const anonymous = await call("POST", "/auth/logout", { body: {} });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(refusals.no_access_token);
    const s = await signup();
    expect((await call("POST", "/auth/logout", { token: s.access_token, body: { scope: "everywhere" } })).statusCode).toBe(400);
  });
});

describe("change password", () => {
  it("replaces the password and ends the other sessions", async () => {
    const s = await signup();
    const other = await login(s.user.email);
    const r = await call("POST", "/auth/password", {
      token: s.access_token,
      body: { current_password: PASSWORD, password: "new-password-7" },
    });
    expect(r.statusCode).toBe(204);

    const old = await call("POST", "/auth/login", { body: { email: s.user.email, password: PASSWORD } });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual(refusals.invalid_credentials);
    await login(s.user.email, "new-password-7");

    expect((await refresh(other.refresh_token)).statusCode).toBe(401);
    // Whoever signed in with the old password is out now, not in 15 minutes; the caller stays in.
    expect((await call("GET", "/auth/me", { token: other.access_token })).statusCode).toBe(401);
    expect((await call("GET", "/auth/me", { token: s.access_token })).statusCode).toBe(200);
    expect((await refresh(s.refresh_token)).statusCode).toBe(200);
  });

  it("refuses the current password (same_password) and weak ones (weak_password) with 422", async () => {
    const s = await signup();
    const same = await call("POST", "/auth/password", { token: s.access_token, body: { current_password: PASSWORD, password: PASSWORD } });
    expect(same.statusCode).toBe(422);
    expect(same.json()).toEqual(refusals.same_password);
    const weak = await call("POST", "/auth/password", {
      token: s.access_token,
      body: { current_password: PASSWORD, password: "password" },
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json()).toEqual(refusals.weak_password);
    await login(s.user.email); // unchanged
  });

  it("needs a token", async () => {
    const r = await call("POST", "/auth/password", { body: { current_password: PASSWORD, password: "new-password-7" } });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual(refusals.no_access_token);
  });
});

describe("rate limits", () => {
  it("answers 429 over_request_rate_limit past the limit per client address", async () => {
    const from = "203.0.113.9";
    const max = attemptsPerMinute();
    const wrongLogin = (address = from) =>
      call("POST", "/auth/login", { from: address, body: { email: freshEmail(), password: PASSWORD } });
    for (let i = 0; i < max; i++) expect((await wrongLogin()).statusCode).toBe(401);
    const over = await wrongLogin();
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual(refusals.over_request_rate_limit);
    expect(over.headers["retry-after"]).toBeDefined();
    // Other routes and other addresses keep their own count.
    expect((await refresh("unknown", { from })).statusCode).toBe(401);
    expect((await wrongLogin("203.0.113.10")).statusCode).toBe(401);
  });

  it("reads the limit from AUTH_RATE_LIMIT_MAX, default 20", () => {
    expect(attemptsPerMinute({})).toBe(20);
    expect(attemptsPerMinute({ AUTH_RATE_LIMIT_MAX: "5" })).toBe(5);
    expect(() => attemptsPerMinute({ AUTH_RATE_LIMIT_MAX: "many" })).toThrow(/AUTH_RATE_LIMIT_MAX/);
  });
});

describe("ensureAdminAccount", () => {
  it("creates an admin who can sign in; a second run keeps one account; a new password replaces the old", async () => {
    const email = freshEmail("admin");
    await ensureAdminAccount(api.ctx, email, "admin-pass-1");
    await ensureAdminAccount(api.ctx, email.toUpperCase(), "admin-pass-1");
    const accounts = await api.ctx.db.query<{ user_id: string; role: string }>(
      "SELECT user_id, role FROM accounts WHERE lower(email) = $1",
      [email],
    );
    expect(accounts.rows).toEqual([{ user_id: expect.any(String), role: "admin" }]);
    const id = accounts.rows[0]!.user_id;
    // Verified from the start: whoever sets ADMIN_EMAIL speaks for the address.
    const stream = await api.ctx.store.readStream(`user-${id}`);
    expect(stream.events.map((e) => e.type)).toEqual(["UserRegistered", "EmailVerified"]);
    const users = await api.ctx.db.query<{ role: string; email_verified_at: Date | null }>(
      "SELECT role, email_verified_at FROM users WHERE user_id = $1",
      [id],
    );
    expect(users.rows).toEqual([{ role: "admin", email_verified_at: expect.any(Date) }]);

    const s = await login(email, "admin-pass-1");
    expect(s.user).toMatchObject({ id, email, role: "admin" });

    await ensureAdminAccount(api.ctx, email, "admin-pass-2");
    expect((await call("POST", "/auth/login", { body: { email, password: "admin-pass-1" } })).statusCode).toBe(401);
    await login(email, "admin-pass-2");
    expect((await refresh(s.refresh_token)).statusCode).toBe(401); // sessions under the old password ended
  });

  it("refuses a weak password and an email that belongs to a non-admin", async () => {
    await expect(ensureAdminAccount(api.ctx, freshEmail("admin"), "short")).rejects.toThrow(/ADMIN_PASSWORD/);
    const creator = await signup();
    await expect(ensureAdminAccount(api.ctx, creator.user.email, "admin-pass-1")).rejects.toThrow(/creator/);
  });

  it("survives two processes starting together", async () => {
    const email = freshEmail("admin");
    await Promise.all([ensureAdminAccount(api.ctx, email, "admin-pass-1"), ensureAdminAccount(api.ctx, email, "admin-pass-1")]);
    const accounts = await api.ctx.db.query("SELECT 1 FROM accounts WHERE lower(email) = $1", [email]);
    expect(accounts.rows).toHaveLength(1);
  });
});

describe("docs", () => {
  it("lists the auth routes in the OpenAPI document", async () => {
    const r = await call("GET", "/docs");
    expect(r.statusCode).toBe(200);
    const paths = Object.keys(r.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/auth/signup",
        "/auth/login",
        "/auth/refresh",
        "/auth/logout",
        "/auth/password",
        "/auth/me",
        "/auth/verify",
        "/auth/verify/resend",
        "/auth/recover",
        "/auth/reset",
        "/auth/me/preferences",
        "/mail/unsubscribe",
      ]),
    );
    expect(Object.keys(r.json<{ paths: Record<string, object> }>().paths["/auth/me"]!)).toEqual(expect.arrayContaining(["get", "patch"]));
  });
});
