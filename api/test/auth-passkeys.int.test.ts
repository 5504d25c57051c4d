import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthSessionReply,
  PasskeyRecord,
  PasskeysReply,
  TwoFactorChallengeReply,
  errorBody,
  refusal,
  type ErrorCode,
  type PasskeyCreationOptions,
  type PasskeyRequestOptions,
} from "@booking/contracts";
import { PasskeyAuthenticator, type Misbehaviour } from "@booking/testkit";
import { ensureAdminAccount } from "../src/auth/admin-account.ts";
import { authClient, PASSWORD, type AuthSession } from "./auth-client.ts";
import { startTestApi, turnOnTwoFactor, type TestApi } from "./harness.ts";
import { exactly } from "./reply-checks.ts";

// Issue 33.4: passkeys. Added on the account page (options, then the authenticator's answer),
// listed and removed; signing in with one alone (no address, no password) or as the second factor
// after the password. The answers are real WebAuthn bytes from testkit's authenticator (ES256,
// "none" attestation), checked by the API as a browser's would be. Refused in the catalogue's
// words, never with a 5xx: an answer for a challenge used already, a passkey never registered,
// one its owner removed, and one whose signature count went backwards (a copy).

let api: TestApi;
let nowMs = Date.parse("2026-06-02T09:00:00.000Z");
const later = (seconds: number) => (nowMs += seconds * 1000);
const at = () => new Date(nowMs).toISOString();
beforeAll(async () => {
  api = await startTestApi({ clock: at });
});
afterAll(async () => api?.close());

const { call, signup, freshEmail } = authClient(() => api, "198.23");
/** The harness's API answers for the product at its default address: passkeys are for that site. */
const ORIGIN = "http://localhost:3000";
const refused = (code: ErrorCode) => errorBody(refusal(code));
/** The reply's Set-Cookie headers (the refresh token's cookie is one of them, beside the known-device one). */
const cookiesOf = (r: { headers: Record<string, unknown> }) => [r.headers["set-cookie"] ?? []].flat() as string[];

/** Options for adding a passkey, then the authenticator's answer, as the account page sends them. */
async function addPasskey(token: string, authenticator: PasskeyAuthenticator, name?: string, misbehave?: Misbehaviour) {
  const options = await call("POST", "/auth/passkeys/options", { token });
  expect(options.statusCode, options.body).toBe(200);
  const response = authenticator.register(options.json<PasskeyCreationOptions>(), misbehave);
  return call("POST", "/auth/passkeys", { token, body: { ...(name && { name }), response } });
}

/** A new account with one passkey on `authenticator`. */
async function accountWithPasskey(authenticator = new PasskeyAuthenticator(ORIGIN)) {
  const session = await signup();
  const added = await addPasskey(session.access_token, authenticator, "Laptop");
  expect(added.statusCode, added.body).toBe(201);
  return { session, authenticator, passkey: added.json<PasskeyRecord>() };
}

/** The options of a passkey sign-in (no address: the passkey names the account). */
async function signInOptions(): Promise<PasskeyRequestOptions> {
  const r = await call("POST", "/auth/passkeys/sign-in/options");
  expect(r.statusCode, r.body).toBe(200);
  return r.json<PasskeyRequestOptions>();
}

const signInWith = (response: unknown) => call("POST", "/auth/passkeys/sign-in", { body: { response } });
const listOf = async (token: string) => (await call("GET", "/auth/passkeys", { token })).json<PasskeysReply>().passkeys;

describe("adding passkeys", () => {
  it("offers options for the product's site and keeps the passkey, named; the list shows it, newest first", async () => {
    const session = await signup({ first_name: "Pia", last_name: "Key" });
    const token = session.access_token;
    const options = await call("POST", "/auth/passkeys/options", { token });
    const offered = options.json<PasskeyCreationOptions>();
    expect(offered.rp).toEqual({ name: "Expert Sessions", id: "localhost" });
    expect(offered.user).toEqual({
      id: Buffer.from(session.user.id).toString("base64url"),
      name: session.user.email,
      displayName: "Pia Key",
    });
    expect(offered.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "preferred" });
    expect(offered.excludeCredentials).toEqual([]);

    const authenticator = new PasskeyAuthenticator(ORIGIN);
    const response = authenticator.register(offered);
    const added = await call("POST", "/auth/passkeys", { token, body: { name: "  Work laptop ", response } });
    expect(added.statusCode, added.body).toBe(201);
    const record = added.json<PasskeyRecord>();
    exactly(PasskeyRecord, record);
    expect(record).toMatchObject({ name: "Work laptop", device: "Unknown device", created_at: at(), last_used_at: null, synced: false });
    later(60);
    const phone = new PasskeyAuthenticator(ORIGIN);
    const second = await addPasskey(token, phone);
    expect(second.json()).toMatchObject({ name: "Unknown device" });

    const listed = (await call("GET", "/auth/passkeys", { token })).json();
    exactly(PasskeysReply, listed);
    expect((listed as PasskeysReply).passkeys.map((p) => p.name)).toEqual(["Unknown device", "Work laptop"]);
    // The next options exclude both: the same authenticator is not registered twice.
    const next = (await call("POST", "/auth/passkeys/options", { token })).json<PasskeyCreationOptions>();
    expect(next.excludeCredentials!.map((c) => c.id)).toEqual([...phone.credentialIds, ...authenticator.credentialIds]);
  });

  it("refuses an answer for a challenge used already, another account's challenge, another site's answer and a bad name", async () => {
    const { session, authenticator } = await accountWithPasskey();
    const token = session.access_token;
    const options = (await call("POST", "/auth/passkeys/options", { token })).json<PasskeyCreationOptions>();
    const response = authenticator.register(options);
    expect((await call("POST", "/auth/passkeys", { token, body: { response } })).statusCode).toBe(201);
    const replayed = await call("POST", "/auth/passkeys", { token, body: { response } });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toEqual(refused("passkey_challenge_invalid"));

    const other = await signup();
    const theirs = authenticator.register((await call("POST", "/auth/passkeys/options", { token })).json<PasskeyCreationOptions>());
    expect((await call("POST", "/auth/passkeys", { token: other.access_token, body: { response: theirs } })).json()).toEqual(
      refused("passkey_challenge_invalid"),
    );

    const phished = await addPasskey(token, authenticator, undefined, { origin: "https://expert-sessions.example.net" });
    expect(phished.statusCode).toBe(400);
    expect(phished.json()).toEqual(refused("passkey_not_verified"));

    const named = await addPasskey(token, authenticator, "x".repeat(61));
    expect(named.json()).toEqual(refused("passkey_name_invalid"));
    const garbled = await call("POST", "/auth/passkeys", { token, body: { response: { id: "abc" } } });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json()).toEqual(refused("passkey_response_invalid"));

    later(5 * 60 + 1);
    const slow = authenticator.register((await call("POST", "/auth/passkeys/options", { token })).json<PasskeyCreationOptions>());
    later(5 * 60 + 1);
    expect((await call("POST", "/auth/passkeys", { token, body: { response: slow } })).json()).toEqual(
      refused("passkey_challenge_expired"),
    );
    expect(await listOf(token)).toHaveLength(2);
  });
});

describe("signing in with a passkey alone", () => {
  it("needs no address and no password: the passkey names the account, and its use is recorded", async () => {
    const { session, authenticator } = await accountWithPasskey();
    later(60);
    const r = await signInWith(authenticator.signIn(await signInOptions()));
    expect(r.statusCode, r.body).toBe(200);
    const signedIn = r.json<AuthSession>();
    exactly(AuthSessionReply, signedIn);
    expect(signedIn.user.id).toBe(session.user.id);
    expect(cookiesOf(r).find((c) => c.startsWith("known_device="))).toMatch(/Path=\/api\/v1\/auth;/);
    expect((await call("GET", "/auth/me", { token: signedIn.access_token })).json()).toMatchObject({ id: session.user.id });
    expect((await listOf(signedIn.access_token))[0]).toMatchObject({ last_used_at: at() });
  });

  it("refuses a replayed answer, an answer whose count went backwards, and one without the person verified", async () => {
    const { authenticator } = await accountWithPasskey();
    const answer = authenticator.signIn(await signInOptions());
    expect((await signInWith(answer)).statusCode).toBe(200);
    const replayed = await signInWith(answer);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toEqual(refused("passkey_challenge_invalid"));

    // A copy of the passkey signs with the count it had when it was copied: behind the one recorded.
    expect((await signInWith(authenticator.signIn(await signInOptions()))).statusCode).toBe(200);
    const copied = await signInWith(authenticator.signIn(await signInOptions(), { counter: 2 }));
    expect(copied.statusCode).toBe(400);
    expect(copied.json()).toEqual({
      code: "passkey_counter_regressed",
      message:
        "This passkey's use count went backwards, which happens when a passkey has been copied, so it was refused. " +
        "Sign in another way, and remove the passkey from your account if you do not recognise this.",
    });
    // In place of the password, the device must have verified the person.
    expect((await signInWith(authenticator.signIn(await signInOptions(), { unverified: true }))).json()).toEqual(
      refused("passkey_not_verified"),
    );
    expect((await signInWith(authenticator.signIn(await signInOptions()))).statusCode).toBe(200);
  });

  it("refuses a passkey never registered here, and says so apart when its owner removed it", async () => {
    const stranger = new PasskeyAuthenticator(ORIGIN);
    stranger.register({ challenge: "c3RyYW5nZXI", rp: { id: "localhost" }, user: { id: "c29tZW9uZQ" } });
    const unknown = await signInWith(stranger.signIn(await signInOptions()));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      code: "passkey_unknown",
      message: "This passkey is not registered with your Expert Sessions account. Sign in with your password, or use another passkey.",
    });

    const { session, authenticator, passkey } = await accountWithPasskey();
    expect((await call("DELETE", `/auth/passkeys/${passkey.id}`, { token: session.access_token })).statusCode).toBe(204);
    expect(await listOf(session.access_token)).toEqual([]);
    const removed = await signInWith(authenticator.signIn(await signInOptions()));
    expect(removed.statusCode).toBe(400);
    expect(removed.json()).toEqual({
      code: "passkey_removed",
      message: "This passkey was removed from your account and no longer signs you in. Sign in with your password, or use another passkey.",
    });
    // Another user's passkey is not found, like one that does not exist; and removed once, it is gone.
    const other = await accountWithPasskey();
    expect((await call("DELETE", `/auth/passkeys/${other.passkey.id}`, { token: session.access_token })).json()).toEqual(
      refused("passkey_not_found"),
    );
    expect((await call("DELETE", `/auth/passkeys/${passkey.id}`, { token: session.access_token })).statusCode).toBe(404);
  });
});

describe("a passkey as the second factor", () => {
  /** The password step: a challenge naming the second factors the account has. */
  async function passwordStep(email: string) {
    const r = await call("POST", "/auth/login", { body: { email, password: PASSWORD } });
    expect(r.statusCode, r.body).toBe(200);
    exactly(TwoFactorChallengeReply, r.json());
    return r.json<TwoFactorChallengeReply>();
  }
  const optionsFor = (challenge: string) => call("POST", "/auth/login/two-factor/passkey/options", { body: { challenge } });
  const secondStep = (challenge: string, response: unknown) =>
    call("POST", "/auth/login/two-factor/passkey", { body: { challenge, response } });

  it("a registered passkey makes the password ask for it, and its answer completes the sign-in", async () => {
    const { session, authenticator } = await accountWithPasskey();
    const { challenge, second_factors } = await passwordStep(session.user.email);
    expect(second_factors).toEqual(["passkey"]);
    const options = await optionsFor(challenge);
    expect(options.statusCode, options.body).toBe(200);
    const offered = options.json<PasskeyRequestOptions>();
    expect(offered.allowCredentials!.map((c) => c.id)).toEqual(authenticator.credentialIds);
    const r = await secondStep(challenge, authenticator.signIn(offered));
    expect(r.statusCode, r.body).toBe(200);
    exactly(AuthSessionReply, r.json());
    expect(cookiesOf(r).some((c) => c.startsWith("known_device="))).toBe(true);
    // Used once: the same answer, or its challenge, completes nothing more.
    expect((await secondStep(challenge, authenticator.signIn(offered))).json()).toEqual(refused("passkey_challenge_invalid"));
  });

  it("with two-factor sign-in on too, either answers; another account's passkey does not", async () => {
    const { session, authenticator } = await accountWithPasskey();
    await turnOnTwoFactor(api.ctx.db, session.user.id, at());
    const { challenge, second_factors } = await passwordStep(session.user.email);
    expect(second_factors).toEqual(["code", "passkey"]);

    const other = await accountWithPasskey();
    const offered = (await optionsFor(challenge)).json<PasskeyRequestOptions>();
    const foreign = other.authenticator.signIn(offered, { credentialId: other.authenticator.credentialIds[0] });
    expect((await secondStep(challenge, foreign)).json()).toEqual(refused("passkey_unknown"));
    // A presence is enough after the password, as a code is.
    const r = await secondStep(challenge, authenticator.signIn((await optionsFor(challenge)).json(), { unverified: true }));
    expect(r.statusCode, r.body).toBe(200);
  });

  it("refuses an expired or forged sign-in challenge, and offers nothing to an account without passkeys", async () => {
    const { session, authenticator } = await accountWithPasskey();
    const { challenge } = await passwordStep(session.user.email);
    const offered = (await optionsFor(challenge)).json<PasskeyRequestOptions>();
    expect((await secondStep("not-a-challenge", authenticator.signIn(offered))).json()).toEqual(refused("two_factor_challenge_invalid"));
    later(5 * 60);
    const late = await secondStep(challenge, authenticator.signIn(offered));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual(refused("two_factor_challenge_expired"));

    const codeOnly = await signup();
    await turnOnTwoFactor(api.ctx.db, codeOnly.user.id, at());
    const step = await passwordStep(codeOnly.user.email);
    expect(step.second_factors).toEqual(["code"]);
    expect((await optionsFor(step.challenge)).json()).toEqual(refused("passkey_none_registered"));
  });
});

describe("admins", () => {
  it("a passkey satisfies the console's second factor, and the last one stays while it is the only one", async () => {
    const email = freshEmail("admin");
    await ensureAdminAccount(api.ctx, email, PASSWORD);
    const token = (await call("POST", "/auth/login", { body: { email, password: PASSWORD } })).json<AuthSession>().access_token;
    expect((await call("GET", "/admin/users", { token })).json()).toEqual(refused("two_factor_enrolment_required"));
    const added = await addPasskey(token, new PasskeyAuthenticator(ORIGIN));
    expect(added.statusCode, added.body).toBe(201);
    expect((await call("GET", "/admin/users", { token })).statusCode).toBe(200);

    const id = added.json<PasskeyRecord>().id;
    const kept = await call("DELETE", `/auth/passkeys/${id}`, { token });
    expect(kept.statusCode).toBe(403);
    expect(kept.json()).toEqual(refused("passkey_last_admin_factor"));
    expect((await addPasskey(token, new PasskeyAuthenticator(ORIGIN))).statusCode).toBe(201);
    expect((await call("DELETE", `/auth/passkeys/${id}`, { token })).statusCode).toBe(204);
  });
});
