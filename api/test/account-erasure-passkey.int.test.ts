import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCatalogue, isErasedEmail, type ErrorCode, type PasskeyCreationOptions, type PasskeyRequestOptions } from "@booking/contracts";
import { PasskeyAuthenticator, type Misbehaviour } from "@booking/testkit";
import { authClient, PASSWORD, type AuthSession } from "./auth-client.ts";
import { startTestApi, turnOnTwoFactor, type TestApi } from "./harness.ts";

// Deleting an account with a passkey (issues 33.2, 33.4): a person who signs in with a passkey confirms the erasure with
// one in place of the password and the code (the device holds it and verifies them: both factors). The options name
// their own passkeys and insist on the person being verified; a right answer erases. A wrong one is refused in the
// passkey catalogue's words, a 4xx never a 5xx, and erases nothing: another person's passkey, one never registered here,
// one removed, an answer to another person's options or to a sign-in's, one signed for another site or without the
// person verified, an unreadable one, and a passkey given with a password.

const NOW = "2030-03-01T09:00:00.000Z";
/** The harness's API answers for the product at its default address: passkeys are for that site. */
const ORIGIN = "http://localhost:3000";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ clock: () => NOW });
});
afterAll(async () => api?.close());

const { call, signup } = authClient(() => api, "198.41");

/** A new account with one passkey, added as the account page adds it. */
async function personWithPasskey() {
  const session = await signup();
  const device = new PasskeyAuthenticator(ORIGIN);
  const options = await call("POST", "/auth/passkeys/options", { token: session.access_token });
  const added = await call("POST", "/auth/passkeys", { token: session.access_token, body: { response: device.register(options.json()) } });
  expect(added.statusCode, added.body).toBe(201);
  return { session, device, passkeyId: added.json<{ id: string }>().id };
}

/** The erasure's passkey options, as the delete-account form asks for them. */
async function erasureOptions(session: AuthSession): Promise<PasskeyRequestOptions> {
  const r = await call("POST", "/me/erasure/passkey/options", { token: session.access_token });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<PasskeyRequestOptions>();
}

const erase = (session: AuthSession, body: Record<string, unknown>) => call("POST", "/me/erasure", { token: session.access_token, body });

/** The account row and the log's head: what a refusal leaves as it was. */
async function stateOf(session: AuthSession) {
  const { rows } = await api.ctx.db.query("SELECT * FROM accounts WHERE user_id = $1", [session.user.id]);
  return { head: await api.ctx.store.headPosition(), account: rows };
}

async function refused(session: AuthSession, body: Record<string, unknown>, code: ErrorCode) {
  const before = await stateOf(session);
  const r = await erase(session, body);
  expect(r.json(), code).toEqual({ code, message: errorCatalogue[code].message });
  expect(r.statusCode).toBe(errorCatalogue[code].status);
  expect(r.statusCode).toBeLessThan(500);
  expect(await stateOf(session)).toEqual(before);
}

/** `device`'s answer to fresh erasure options of `session`'s person, misbehaving as asked. */
const answer = async (session: AuthSession, device: PasskeyAuthenticator, misbehave?: Misbehaviour) =>
  device.signIn(await erasureOptions(session), misbehave);

describe("deleting an account with a passkey", () => {
  it("takes a passkey's answer in place of the password and the code, the person verified, and erases", async () => {
    const { session, device } = await personWithPasskey();
    await turnOnTwoFactor(api.ctx.db, session.user.id, NOW);
    const options = await erasureOptions(session);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual(device.credentialIds);
    expect(options.userVerification).toBe("required");

    const r = await erase(session, { passkey: device.signIn(options) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ user_id: session.user.id, erased_at: NOW });
    const { rows } = await api.ctx.db.query<{ email: string }>("SELECT email FROM accounts WHERE user_id = $1", [session.user.id]);
    expect(isErasedEmail(rows[0]!.email)).toBe(true);
  });

  it("has no options for a person without a passkey: the password it is", async () => {
    const session = await signup();
    const r = await call("POST", "/me/erasure/passkey/options", { token: session.access_token });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ code: "passkey_none_registered", message: errorCatalogue.passkey_none_registered.message });
  });
});

describe("a passkey's answer that does not prove it is them is refused, and erases nothing", () => {
  it("another person's passkey, or one never registered here", async () => {
    const { session } = await personWithPasskey();
    const other = await personWithPasskey();
    // This person's options, answered by the other person's device with their passkey.
    await refused(
      session,
      { passkey: await answer(session, other.device, { credentialId: other.device.credentialIds[0]! }) },
      "passkey_unknown",
    );

    const stranger = new PasskeyAuthenticator(ORIGIN);
    const seen: PasskeyCreationOptions = await (await call("POST", "/auth/passkeys/options", { token: session.access_token })).json();
    stranger.register(seen); // made on the device, never sent to the API
    await refused(session, { passkey: await answer(session, stranger, { credentialId: stranger.credentialIds[0]! }) }, "passkey_unknown");
  });

  it("an answer to another person's options, to a sign-in's, or given twice", async () => {
    const { session, device } = await personWithPasskey();
    const other = await personWithPasskey();
    // The other person's options, answered with this person's own passkey.
    const theirs = await erasureOptions(other.session);
    await refused(session, { passkey: device.signIn({ ...theirs, allowCredentials: undefined }) }, "passkey_challenge_invalid");

    const signIn = (await call("POST", "/auth/passkeys/sign-in/options")).json<PasskeyRequestOptions>();
    await refused(session, { passkey: device.signIn(signIn) }, "passkey_challenge_invalid");

    const once = await answer(session, device, { origin: "https://expert-sessions.example.net" });
    await refused(session, { passkey: once }, "passkey_not_verified");
    await refused(session, { passkey: once }, "passkey_challenge_invalid");
  });

  it("one signed without the person verified, one removed, one unreadable, or one given with a password", async () => {
    const { session, device, passkeyId } = await personWithPasskey();
    await refused(session, { passkey: await answer(session, device, { unverified: true }) }, "passkey_not_verified");
    await refused(session, { passkey: { id: "not base64!", rawId: "x" } }, "passkey_response_invalid");
    await refused(session, { current_password: PASSWORD, passkey: await answer(session, device) }, "invalid_request");

    const stale = await answer(session, device);
    expect((await call("DELETE", `/auth/passkeys/${passkeyId}`, { token: session.access_token })).statusCode).toBe(204);
    await refused(session, { passkey: stale }, "passkey_removed");
  });
});
