import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthSessionReply, TwoFactorChallengeReply, errorBody, refusal, type ErrorCode } from "@booking/contracts";
import { ensureAdminAccount } from "../src/auth/admin-account.ts";
import { signChallenge } from "../src/auth/sign-in-challenge.ts";
import { buildApp } from "../src/main/app.ts";
import { authClient, PASSWORD, refusals, type AuthSession } from "./auth-client.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";
import { exactly } from "./reply-checks.ts";

// Issue 33.4: two-factor sign-in with an authenticator app. Setting it up (password, QR code, a first
// code, ten recovery codes shown once), signing in with it (a challenge, then a code or a recovery
// code, each used once), its failures in the catalogue's words, turning it off, and admins, who
// must have it before the console's routes answer them. The clock is the test's: codes are made
// for the time the API reads.

let api: TestApi;
let nowMs = Date.parse("2026-06-01T09:00:10.000Z");
const later = (seconds: number) => (nowMs += seconds * 1000);
const at = () => new Date(nowMs).toISOString();
beforeAll(async () => {
  api = await startTestApi({ clock: at });
});
afterAll(async () => api?.close());

const { call, signup, freshEmail } = authClient(() => api, "198.22");

/** The code an authenticator app with `secret` shows now (or `secondsAgo`). */
const codeOf = (secret: string, secondsAgo = 0) => generate({ secret, epoch: Math.floor(nowMs / 1000) - secondsAgo });
/** A refusal as the client reads it: the catalogue's code and message. */
const refused = (code: ErrorCode) => errorBody(refusal(code));

type Enrolled = { session: AuthSession; email: string; secret: string; recoveryCodes: string[] };

/** A new account with two-factor sign-in on: set up through the routes, with the code the app showed. */
async function enrolledAccount(): Promise<Enrolled> {
  const session = await signup();
  const enrol = await call("POST", "/auth/two-factor/enrol", { token: session.access_token, body: { current_password: PASSWORD } });
  expect(enrol.statusCode, enrol.body).toBe(200);
  const { secret } = enrol.json<{ secret: string }>();
  const confirm = await call("POST", "/auth/two-factor/confirm", { token: session.access_token, body: { code: await codeOf(secret) } });
  expect(confirm.statusCode, confirm.body).toBe(200);
  // The next code is of the next time-step: the one that confirmed is spent.
  later(30);
  return { session, email: session.user.email, secret, recoveryCodes: confirm.json<{ recovery_codes: string[] }>().recovery_codes };
}

/** The password step of a sign-in with two-factor on: the challenge. */
async function challengeOf(email: string, password = PASSWORD): Promise<string> {
  const r = await call("POST", "/auth/login", { body: { email, password } });
  expect(r.statusCode, r.body).toBe(200);
  exactly(TwoFactorChallengeReply, r.json());
  expect(r.headers["set-cookie"]).toBeUndefined();
  return r.json<{ challenge: string }>().challenge;
}

const secondStep = (body: Record<string, unknown>) => call("POST", "/auth/login/two-factor", { body });
const status = (token: string) => call("GET", "/auth/two-factor", { token });

describe("setting up two-factor sign-in", () => {
  it("asks for the password, shows the secret as a QR code and for typing once, and turns on only with a first code", async () => {
    const session = await signup();
    const token = session.access_token;
    expect((await status(token)).json()).toEqual({ enrolled: false, enrolled_at: null, recovery_codes_left: 0, required: false });

    const wrong = await call("POST", "/auth/two-factor/enrol", { token, body: { current_password: "not-my-password-1" } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual(refused("reauthentication_needed"));

    const enrol = await call("POST", "/auth/two-factor/enrol", { token, body: { current_password: PASSWORD } });
    expect(enrol.statusCode).toBe(200);
    const { otpauth_uri, qr_code, secret } = enrol.json<{ otpauth_uri: string; qr_code: string; secret: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(
      `otpauth://totp/Expert%20Sessions:${encodeURIComponent(session.user.email)}?secret=${secret}&issuer=Expert%20Sessions`,
    );
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr_code.split(",")[1]!, "base64").toString()).toContain("<svg");
    // Kept sealed, never in plain text; and not on yet: a password alone still signs in.
    const stored = await api.ctx.db.query("SELECT secret, pending_secret FROM two_factor WHERE user_id = $1", [session.user.id]);
    expect(stored.rows[0].secret).toBeNull();
    expect(stored.rows[0].pending_secret).toMatch(/^v1\./);
    expect(JSON.stringify(stored.rows)).not.toContain(secret);
    expect((await status(token)).json()).toMatchObject({ enrolled: false });
    exactly(AuthSessionReply, (await call("POST", "/auth/login", { body: { email: session.user.email, password: PASSWORD } })).json());

    const notRight = await call("POST", "/auth/two-factor/confirm", { token, body: { code: "000000" } });
    expect(notRight.statusCode).toBe(400);
    expect(notRight.json()).toEqual({
      code: "two_factor_code_wrong",
      message: "That code is not right. Enter the 6-digit code your authenticator app shows now.",
    });
    const confirm = await call("POST", "/auth/two-factor/confirm", { token, body: { code: await codeOf(secret) } });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const codes = confirm.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const stateNow = (await status(token)).json();
    expect(stateNow).toEqual({ enrolled: true, enrolled_at: at(), recovery_codes_left: 10, required: false });
    // Only hashes of the recovery codes are kept, and the secret stays sealed.
    const kept = await api.ctx.db.query(
      "SELECT t.secret, r.code_hash FROM two_factor t JOIN recovery_codes r USING (user_id) WHERE user_id = $1",
      [session.user.id],
    );
    expect(JSON.stringify(kept.rows)).not.toContain(secret);
    for (const code of codes) expect(JSON.stringify(kept.rows)).not.toContain(code);
    // A confirmation is not a second enrolment: without a secret waiting, there is nothing to confirm.
    const again = await call("POST", "/auth/two-factor/confirm", { token, body: { code: await codeOf(secret) } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(refused("two_factor_setup_not_started"));
  });

  it("a secret left waiting over an hour is set up again", async () => {
    const session = await signup();
    const enrol = await call("POST", "/auth/two-factor/enrol", { token: session.access_token, body: { current_password: PASSWORD } });
    const { secret } = enrol.json<{ secret: string }>();
    later(61 * 60);
    const late = await call("POST", "/auth/two-factor/confirm", { token: session.access_token, body: { code: await codeOf(secret) } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      code: "two_factor_setup_not_started",
      message: "Start setting up two-factor sign-in first: scan the QR code, then enter its code.",
    });
  });
});

describe("signing in with two-factor sign-in on", () => {
  it("the password gives a challenge, not a session; a current code gives the session", async () => {
    const { email, secret } = await enrolledAccount();
    const challenge = await challengeOf(email);
    const r = await secondStep({ challenge, code: await codeOf(secret) });
    expect(r.statusCode, r.body).toBe(200);
    const session = r.json<AuthSession>();
    exactly(AuthSessionReply, session);
    expect(session.user.email).toBe(email);
    // The browser is remembered, and the session's refresh token is in the web app's cookie.
    expect([r.headers["set-cookie"]].flat()).toEqual([
      expect.stringMatching(/^known_device=/),
      expect.stringMatching(/^web_refresh_token=/),
    ]);
    expect((await call("GET", "/auth/me", { token: session.access_token })).statusCode).toBe(200);
    // A wrong password is refused as before, with no challenge.
    const wrong = await call("POST", "/auth/login", { body: { email, password: "not-my-password-1" } });
    expect(wrong.json()).toEqual(refusals.invalid_credentials);
  });

  it("refuses a wrong code, a code used already in its time-step, and a code of a time-step gone by", async () => {
    const { email, secret } = await enrolledAccount();
    const challenge = await challengeOf(email);
    const wrong = await secondStep({ challenge, code: "123 456" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(refused("two_factor_code_wrong"));

    const code = await codeOf(secret);
    expect((await secondStep({ challenge, code })).statusCode).toBe(200);
    const reused = await secondStep({ challenge: await challengeOf(email), code });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ code: "two_factor_code_reused", message: "That code was already used. Wait for the next one." });

    // One step either side of now counts (a clock a little off); a code of two steps ago does not.
    later(30);
    expect((await secondStep({ challenge: await challengeOf(email), code: await codeOf(secret, -30) })).statusCode).toBe(200);
    later(90);
    const stale = await secondStep({ challenge: await challengeOf(email), code: await codeOf(secret, 60) });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual(refused("two_factor_code_wrong"));
    expect((await secondStep({ challenge: await challengeOf(email), code: await codeOf(secret, 30) })).statusCode).toBe(200);
  });

  it("of two sign-ins racing with one code, exactly one gets in", async () => {
    const { email, secret } = await enrolledAccount();
    const [first, second] = [await challengeOf(email), await challengeOf(email)];
    const code = await codeOf(secret);
    const replies = await Promise.all([secondStep({ challenge: first, code }), secondStep({ challenge: second, code })]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.statusCode === 400)!.json()).toEqual(refused("two_factor_code_reused"));
  });

  it("a recovery code signs in once, however it is typed; then it is spent", async () => {
    const { session, email, recoveryCodes } = await enrolledAccount();
    const typed = ` ${recoveryCodes[3]!.toUpperCase().replace(/-/g, " ")} `;
    const r = await secondStep({ challenge: await challengeOf(email), recovery_code: typed });
    expect(r.statusCode, r.body).toBe(200);
    exactly(AuthSessionReply, r.json());
    expect((await status(session.access_token)).json()).toMatchObject({ recovery_codes_left: 9 });

    const spent = await secondStep({ challenge: await challengeOf(email), recovery_code: recoveryCodes[3] });
    expect(spent.statusCode).toBe(400);
    expect(spent.json()).toEqual({ code: "recovery_code_spent", message: "That recovery code has already been used." });
    const unknown = await secondStep({ challenge: await challengeOf(email), recovery_code: "abcd-efgh-jkmn" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(refused("recovery_code_wrong"));
  });

  it("refuses a forged, altered or expired challenge, and a step with no code or with both kinds", async () => {
    const { session, email, secret } = await enrolledAccount();
    const challenge = await challengeOf(email);
    const [body, signature] = challenge.split(".");
    const forged = {
      "another key": signChallenge("another-secret-that-is-long-enough-for-hs256!", session.user.id, at()),
      "another signature": `${body}.${signature!.slice(1)}${signature!.startsWith("A") ? "B" : "A"}`,
      "another account": `${Buffer.from(JSON.stringify(["someone-else", nowMs, nowMs + 300_000])).toString("base64url")}.${signature}`,
      garbage: "not-a-challenge",
    };
    for (const [what, token] of Object.entries(forged)) {
      const r = await secondStep({ challenge: token, code: await codeOf(secret) });
      expect(r.statusCode, what).toBe(400);
      expect(r.json(), what).toEqual({
        code: "two_factor_challenge_invalid",
        message: "This sign-in cannot be continued. Please enter your password again.",
      });
    }
    expect((await secondStep({ challenge })).json()).toEqual(refused("two_factor_proof_required"));
    const both = await secondStep({ challenge, code: await codeOf(secret), recovery_code: "abcd-efgh-jkmn" });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual(refused("two_factor_proof_required"));

    later(5 * 60);
    const expired = await secondStep({ challenge, code: await codeOf(secret) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({
      code: "two_factor_challenge_expired",
      message: "Your sign-in took too long. Please enter your password again.",
    });
    // A challenge signed by us for the account, but issued for the password before it changed, is over too.
    const early = signChallenge(TEST_JWT_SECRET, session.user.id, at());
    later(1);
    await call("POST", "/auth/password", {
      token: session.access_token,
      body: { current_password: PASSWORD, password: "changed-Passw0rd-1" },
    });
    expect((await secondStep({ challenge: early, code: await codeOf(secret) })).json()).toEqual(refused("two_factor_challenge_expired"));
  });

  it("wrong codes count in the login back-off with the password: past five tries, the next waits, even with the right code", async () => {
    const { email, secret } = await enrolledAccount();
    const challenge = await challengeOf(email);
    for (let i = 0; i < 4; i++) expect((await secondStep({ challenge, code: "000000" })).statusCode, `wrong code ${i + 1}`).toBe(400);
    const waiting = await secondStep({ challenge, code: await codeOf(secret) });
    expect(waiting.statusCode).toBe(429);
    expect(waiting.headers["retry-after"]).toBe("2");
    expect(waiting.json()).toEqual(errorBody(refusal("login_throttled", { wait: "2 seconds" })));
    expect((await call("POST", "/auth/login", { body: { email, password: PASSWORD } })).statusCode).toBe(429);
    later(3);
    expect((await secondStep({ challenge, code: await codeOf(secret) })).statusCode).toBe(200);
    // Signed in: the count starts afresh (the password and three wrong codes are free again).
    const fresh = await challengeOf(email);
    for (let i = 0; i < 3; i++) expect((await secondStep({ challenge: fresh, code: "000000" })).statusCode).toBe(400);
  });

  it("giving the password again buys no fresh guesses at the code", async () => {
    const { email } = await enrolledAccount();
    const challenge = await challengeOf(email);
    for (let i = 0; i < 3; i++) expect((await secondStep({ challenge, code: "000000" })).statusCode, `wrong code ${i + 1}`).toBe(400);
    const again = await challengeOf(email);
    expect((await secondStep({ challenge: again, code: "000000" })).statusCode).toBe(429);
  });
});

describe("turning two-factor sign-in off, or moving it to another app", () => {
  it("takes the password and a current code; then the password alone signs in again", async () => {
    const { session, email, secret } = await enrolledAccount();
    const token = session.access_token;
    const off = (body: Record<string, unknown>) => call("DELETE", "/auth/two-factor", { token, body });
    expect((await off({ current_password: "not-my-password-1", code: await codeOf(secret) })).json()).toEqual(
      refused("reauthentication_needed"),
    );
    expect((await off({ current_password: PASSWORD, code: "000000" })).json()).toEqual(refused("two_factor_code_wrong"));
    expect((await off({ current_password: PASSWORD })).json()).toEqual(refused("two_factor_proof_required"));
    expect((await status(token)).json()).toMatchObject({ enrolled: true });

    expect((await off({ current_password: PASSWORD, code: await codeOf(secret) })).statusCode).toBe(204);
    expect((await status(token)).json()).toEqual({ enrolled: false, enrolled_at: null, recovery_codes_left: 0, required: false });
    expect((await api.ctx.db.query("SELECT 1 FROM recovery_codes WHERE user_id = $1", [session.user.id])).rowCount).toBe(0);
    exactly(AuthSessionReply, (await call("POST", "/auth/login", { body: { email, password: PASSWORD } })).json());
    const again = await off({ current_password: PASSWORD, code: await codeOf(secret) });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: "two_factor_not_enabled", message: "Two-factor sign-in is not on for your account." });
  });

  it("setting it up again keeps the old app working until the new one's first code, then only the new one and its recovery codes", async () => {
    const { session, email, secret: oldSecret, recoveryCodes: oldCodes } = await enrolledAccount();
    const token = session.access_token;
    const { secret } = (await call("POST", "/auth/two-factor/enrol", { token, body: { current_password: PASSWORD } })).json<{
      secret: string;
    }>();
    expect((await secondStep({ challenge: await challengeOf(email), code: await codeOf(oldSecret) })).statusCode).toBe(200);
    later(30);
    const confirm = await call("POST", "/auth/two-factor/confirm", { token, body: { code: await codeOf(secret) } });
    const newCodes = confirm.json<{ recovery_codes: string[] }>().recovery_codes;
    later(30);
    // (Each refusal counts in the login back-off; each sign-in after it starts the count afresh.)
    expect((await secondStep({ challenge: await challengeOf(email), code: await codeOf(oldSecret) })).json()).toEqual(
      refused("two_factor_code_wrong"),
    );
    expect((await secondStep({ challenge: await challengeOf(email), recovery_code: newCodes[0] })).statusCode).toBe(200);
    expect((await secondStep({ challenge: await challengeOf(email), recovery_code: oldCodes[0] })).json()).toEqual(
      refused("recovery_code_wrong"),
    );
    expect((await secondStep({ challenge: await challengeOf(email), code: await codeOf(secret) })).statusCode).toBe(200);
  });
});

describe("admins", () => {
  it("without two-factor sign-in get a session but no console route until it is on; then cannot turn it off", async () => {
    const email = freshEmail("admin");
    await ensureAdminAccount(api.ctx, email, PASSWORD);
    const signedIn = await call("POST", "/auth/login", { body: { email, password: PASSWORD } });
    exactly(AuthSessionReply, signedIn.json());
    const token = signedIn.json<AuthSession>().access_token;
    expect((await status(token)).json()).toEqual({ enrolled: false, enrolled_at: null, recovery_codes_left: 0, required: true });
    // Every console route, whichever area serves it; the admin's other routes answer as before.
    for (const path of ["/admin/users", "/admin/ledger/trial-balance", "/admin/reconciliation", "/admin/no-shows", "/admin/payouts"]) {
      const r = await call("GET", path, { token });
      expect(r.statusCode, path).toBe(403);
      expect(r.json(), path).toEqual({
        code: "two_factor_enrolment_required",
        message: "Set up two-factor sign-in before using the console.",
      });
    }
    expect((await call("GET", "/auth/me", { token })).statusCode).toBe(200);
    // A creator is refused the console as before: the rule is the admins'.
    const creator = await signup();
    expect((await call("GET", "/admin/users", { token: creator.access_token })).json()).toEqual(refused("forbidden"));

    const { secret } = (await call("POST", "/auth/two-factor/enrol", { token, body: { current_password: PASSWORD } })).json<{
      secret: string;
    }>();
    expect((await call("GET", "/admin/users", { token })).statusCode).toBe(403);
    expect((await call("POST", "/auth/two-factor/confirm", { token, body: { code: await codeOf(secret) } })).statusCode).toBe(200);
    // The same access token: the console answers as soon as the second factor is on.
    expect((await call("GET", "/admin/users", { token })).statusCode).toBe(200);
    expect((await status(token)).json()).toMatchObject({ enrolled: true, required: true });

    later(30);
    const off = await call("DELETE", "/auth/two-factor", { token, body: { current_password: PASSWORD, code: await codeOf(secret) } });
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({
      code: "two_factor_required_for_admins",
      message: "Admins cannot turn two-factor sign-in off. To move it to another app, set it up again instead.",
    });
    await challengeOf(email);
  });

  it("with ADMIN_TWO_FACTOR=optional, an admin without it uses the console and may keep it off", async () => {
    const optional = await buildApp(api.ctx, { adminTwoFactor: "optional", trustProxy: true });
    try {
      const email = freshEmail("admin");
      await ensureAdminAccount(api.ctx, email, PASSWORD);
      const login = await optional.inject({ method: "POST", url: "/api/v1/auth/login", payload: { email, password: PASSWORD } });
      const headers = { authorization: `Bearer ${login.json<AuthSession>().access_token}` };
      expect((await optional.inject({ method: "GET", url: "/api/v1/admin/users", headers })).statusCode).toBe(200);
      expect((await optional.inject({ method: "GET", url: "/api/v1/auth/two-factor", headers })).json()).toMatchObject({ required: false });
    } finally {
      await optional.close();
    }
  });
});
