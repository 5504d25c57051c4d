import type { FastifyRequest } from "fastify";
import type pg from "pg";
import {
  AuthSessionReply,
  PasskeyRequestOptions,
  PasskeySecondFactorBody,
  PasskeySecondFactorOptionsBody,
  PasskeySignInBody,
  type PasskeyAssertion,
} from "@booking/contracts";
import { refuse, type RoutePlugin } from "../http/index.ts";
import { findAccount, resetLinkSpent, type Account } from "./accounts.ts";
import { admitLogin, deviceTokenOf, passwordProven, rememberDevice, waitInWords } from "./login-back-off.ts";
import { challengeOf, handleNames, requestOptions, verifiedAssertion, type RelyingParty } from "./passkey-ceremonies.ts";
import type { PasskeyRouteDeps } from "./passkey-routes.ts";
import { keepChallenge, passkeyByCredential, passkeysOf, recordPasskeyUse, takeChallenge, type ChallengePurpose } from "./passkey-table.ts";
import { signIn } from "./session-replies.ts";
import { readChallenge } from "./sign-in-challenge.ts";

// Signing in with a passkey (issue 33.4), two ways:
// - alone, in place of the address and the password: the browser offers the passkeys it keeps for
//   this site (discoverable credentials), the person picks one and is verified by their device;
// - as the second factor, after the password (the challenge POST /auth/login answered), in place
//   of a code from the authenticator app: the account's own passkeys are offered.
// Each WebAuthn challenge answers once (passkey-table.ts). A passkey not registered here, one its
// owner removed, and one whose signature count went backwards are each refused in words of their own.

/** Where the known-device cookie lives: the auth routes' path, as the password's sign-in sets it (two-factor-routes.ts). */
const authPathOf = (request: FastifyRequest): string => {
  const url = request.routeOptions.url!;
  return url.slice(0, url.indexOf("/auth/") + "/auth".length);
};

/** The passkey an answer came from, if it is one in use (of `userId`, when the sign-in already names the account). */
export async function passkeyOfAnswer(db: pg.Pool, response: PasskeyAssertion, userId: string | null) {
  const passkey = await passkeyByCredential(db, response.id);
  if (!passkey || (userId !== null && passkey.userId !== userId)) refuse("passkey_unknown");
  // Said apart from an unknown one: its owner may not remember removing it, and must sign in another way now.
  if (passkey.removedAt !== null) refuse("passkey_removed");
  if (!handleNames(response, passkey.userId)) refuse("passkey_unknown");
  return passkey;
}

/** The challenge an answer signed, taken (it answers once): whose it was, or the refusal. */
export async function takenChallengeOf(db: pg.Pool, response: PasskeyAssertion, purpose: ChallengePurpose, now: string) {
  const challenge = challengeOf(response);
  if (!challenge) refuse("passkey_response_invalid");
  const taken = await takeChallenge(db, challenge, purpose, now);
  if (!taken.ok) refuse(taken.problem === "expired" ? "passkey_challenge_expired" : "passkey_challenge_invalid");
  return { challenge, userId: taken.userId };
}

/** The account whose password the sign-in challenge says was given, while that sign-in still holds. */
async function challengedAccount(db: pg.Pool, jwtSecret: string, token: string, now: string): Promise<Account> {
  const read = readChallenge(jwtSecret, token, now);
  if (!read.ok) refuse(read.problem === "expired" ? "two_factor_challenge_expired" : "two_factor_challenge_invalid");
  const account = await findAccount(db, read.claims.userId);
  if (!account) refuse("two_factor_challenge_invalid");
  // The password changed since it was given: that sign-in is over.
  if (resetLinkSpent(account, read.claims.issuedAt)) refuse("two_factor_challenge_expired");
  return account;
}

export const passkeySignInRoutes: RoutePlugin<PasskeyRouteDeps & { rp: RelyingParty }> = async (app, deps) => {
  const { db, clock, jwtSecret, rateLimit, rp } = deps;

  /** The passkey's use recorded (its count moved on), the browser remembered, and the session. */
  async function signedInWith(request: FastifyRequest, passkey: { id: string; counter: number }, counter: number, account: Account) {
    const now = clock();
    // Of two answers racing with one count (a copied passkey's), the second finds the count moved on.
    if (!(await recordPasskeyUse(db, passkey.id, passkey.counter, counter, now))) refuse("passkey_counter_regressed");
    const cookie = { path: authPathOf(request), secure: request.protocol === "https" };
    return { cookie: await rememberDevice(db, account.userId, deviceTokenOf(request.headers.cookie), now, cookie) };
  }

  app.post("/auth/passkeys/sign-in/options", { config: { rateLimit }, schema: { response: { 200: PasskeyRequestOptions } } }, async () => {
    const options = await requestOptions(rp);
    // Whose it is is not known until a passkey answers: the passkey names the account.
    await keepChallenge(db, options.challenge, "sign_in", null, clock());
    return options;
  });

  app.post(
    "/auth/passkeys/sign-in",
    { config: { rateLimit }, schema: { body: PasskeySignInBody, response: { 200: AuthSessionReply } } },
    async (request, reply) => {
      const { response } = request.body;
      const { challenge } = await takenChallengeOf(db, response, "sign_in", clock());
      const passkey = await passkeyOfAnswer(db, response, null);
      const account = await findAccount(db, passkey.userId);
      if (!account) refuse("passkey_unknown");
      // The passkey replaces the password and the second factor: the device must have verified the person.
      const counter = await verifiedAssertion(rp, response, passkey, challenge, true);
      reply.header("set-cookie", (await signedInWith(request, passkey, counter, account)).cookie);
      return signIn(app, db, clock(), account, request);
    },
  );

  app.post(
    "/auth/login/two-factor/passkey/options",
    { config: { rateLimit }, schema: { body: PasskeySecondFactorOptionsBody, response: { 200: PasskeyRequestOptions } } },
    async (request) => {
      const now = clock();
      const account = await challengedAccount(db, jwtSecret, request.body.challenge, now);
      const passkeys = await passkeysOf(db, account.userId);
      if (passkeys.length === 0) refuse("passkey_none_registered");
      const options = await requestOptions(rp, passkeys);
      await keepChallenge(db, options.challenge, "second_factor", account.userId, now);
      return options;
    },
  );

  app.post(
    "/auth/login/two-factor/passkey",
    { config: { rateLimit }, schema: { body: PasskeySecondFactorBody, response: { 200: AuthSessionReply } } },
    async (request, reply) => {
      const { response } = request.body;
      const now = clock();
      const account = await challengedAccount(db, jwtSecret, request.body.challenge, now);
      // Counted with wrong passwords and codes, as a code is (two-factor-routes.ts): the challenge alone buys no more tries.
      const device = deviceTokenOf(request.headers.cookie);
      const admission = await admitLogin(db, { email: account.email, userId: account.userId, device }, now);
      if (!admission.admitted) {
        reply.header("retry-after", String(admission.retryAfterSeconds));
        refuse("login_throttled", { wait: waitInWords(admission.retryAfterSeconds) });
      }
      const taken = await takenChallengeOf(db, response, "second_factor", now);
      // Options made for another account's sign-in do not complete this one.
      if (taken.userId !== account.userId) refuse("passkey_challenge_invalid");
      const passkey = await passkeyOfAnswer(db, response, account.userId);
      const counter = await verifiedAssertion(rp, response, passkey, taken.challenge, false);
      const { cookie } = await signedInWith(request, passkey, counter, account);
      await passwordProven(db, { email: account.email, userId: account.userId, device, knownDevice: admission.knownDevice });
      reply.header("set-cookie", cookie);
      return signIn(app, db, clock(), account, request);
    },
  );
};
