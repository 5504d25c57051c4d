import type { FastifyRequest } from "fastify";
import type pg from "pg";
import {
  AuthSessionReply,
  NoContent,
  TwoFactorConfirmBody,
  TwoFactorConfirmReply,
  TwoFactorDisableBody,
  TwoFactorEnrolBody,
  TwoFactorEnrolReply,
  TwoFactorLoginBody,
  TwoFactorStatusReply,
} from "@booking/contracts";
import { actorOf, requireActor, refuse, type RoutePlugin } from "../http/index.ts";
import { findAccount, resetLinkSpent, type Account } from "./accounts.ts";
import { twoFactorRequiredFor, type AdminTwoFactor } from "./admin-two-factor.ts";
import {
  enrolmentUri,
  newRecoveryCodes,
  newSecret,
  openSecret,
  qrCodeOf,
  recoveryCodeHash,
  sealSecret,
  stepOfCode,
  twoFactorKey,
} from "./authenticator.ts";
import { admitLogin, deviceTokenOf, passwordProven, rememberDevice, waitInWords } from "./login-back-off.ts";
import { verifyPassword } from "./password.ts";
import { proveSecondFactor } from "./second-factor.ts";
import { signIn } from "./session-replies.ts";
import { readChallenge } from "./sign-in-challenge.ts";
import {
  confirmEnrolment,
  PENDING_ENROLMENT_MINUTES,
  recoveryCodesLeft,
  startEnrolment,
  turnOffTwoFactor,
  twoFactorOf,
} from "./two-factor-table.ts";

// Two-factor sign-in (issue 33.4): setting it up (the password again, then the QR code, then a first
// code, which hands out the recovery codes once), its status, turning it off (the password and a
// code), and the second step of a sign-in (the challenge POST /auth/login answered, and a code).

export type TwoFactorRouteDeps = {
  db: pg.Pool;
  clock: () => string;
  /** Seals the secrets (a key derived from it) and signs the challenges. */
  jwtSecret: string;
  adminTwoFactor: AdminTwoFactor;
  /** The credential routes' limit per client address (routes.ts). */
  rateLimit: { max: number; timeWindow: string };
};

/** Where the known-device cookie lives: the auth routes' path, whichever of the two sign-in steps set it. */
export const knownDeviceCookiePath = (request: FastifyRequest): string => request.routeOptions.url!.replace(/\/login(\/two-factor)?$/, "");

/** The caller's account, their password proven again: a stolen access token alone changes no second factor. */
async function reauthenticated(db: pg.Pool, userId: string, password: string): Promise<Account> {
  const account = await findAccount(db, userId);
  if (!account) refuse("session_expired");
  // 403, not 401: the token is good (a client must keep the session), the proof given is not.
  if (!(await verifyPassword(password, account.passwordHash))) refuse("reauthentication_needed");
  return account;
}

/** The secret waiting for its first code; sealed under another JWT secret (changed meanwhile), it is set up again. */
function pendingSecretOf(key: Buffer, sealed: string): string {
  try {
    return openSecret(key, sealed);
  } catch {
    refuse("two_factor_setup_not_started");
  }
}

export const twoFactorRoutes: RoutePlugin<TwoFactorRouteDeps> = async (app, deps) => {
  const { db, clock, jwtSecret, adminTwoFactor, rateLimit } = deps;
  const key = twoFactorKey(jwtSecret);

  app.get("/auth/two-factor", { preHandler: requireActor(), schema: { response: { 200: TwoFactorStatusReply } } }, async (request) => {
    const actor = actorOf(request);
    const row = await twoFactorOf(db, actor.userId);
    const enrolled = row?.secret != null;
    return {
      enrolled,
      enrolled_at: enrolled ? row!.enrolledAt : null,
      recovery_codes_left: enrolled ? await recoveryCodesLeft(db, actor.userId) : 0,
      required: twoFactorRequiredFor(actor.role, adminTwoFactor),
    };
  });

  app.post(
    "/auth/two-factor/enrol",
    { preHandler: requireActor(), config: { rateLimit }, schema: { body: TwoFactorEnrolBody, response: { 200: TwoFactorEnrolReply } } },
    async (request) => {
      const account = await reauthenticated(db, actorOf(request).userId, request.body.current_password);
      const secret = newSecret();
      // Not in use until a code confirms it: an app that failed to scan locks nobody out. A second factor
      // already on stays on meanwhile (setting it up again moves it to another app).
      await startEnrolment(db, account.userId, sealSecret(key, secret), clock());
      const uri = enrolmentUri(account.email, secret);
      return { otpauth_uri: uri, qr_code: await qrCodeOf(uri), secret };
    },
  );

  app.post(
    "/auth/two-factor/confirm",
    {
      preHandler: requireActor(),
      config: { rateLimit },
      schema: { body: TwoFactorConfirmBody, response: { 200: TwoFactorConfirmReply } },
    },
    async (request) => {
      const actor = actorOf(request);
      const now = clock();
      const row = await twoFactorOf(db, actor.userId);
      const waitedSince = row?.pendingSince ? Date.parse(row.pendingSince) : null;
      if (!row?.pendingSecret || waitedSince === null || Date.parse(now) - waitedSince > PENDING_ENROLMENT_MINUTES * 60_000)
        refuse("two_factor_setup_not_started");
      const step = await stepOfCode(pendingSecretOf(key, row.pendingSecret), request.body.code, now);
      if (step === null) refuse("two_factor_code_wrong");
      const recoveryCodes = newRecoveryCodes();
      const confirmed = await confirmEnrolment(
        db,
        { userId: actor.userId, sealedSecret: row.pendingSecret, step, recoveryHashes: recoveryCodes.map(recoveryCodeHash) },
        now,
      );
      // Another enrolment replaced the secret this code was for: its QR code is the one to scan now.
      if (!confirmed) refuse("two_factor_setup_not_started");
      // Shown this once: only their hashes are kept.
      return { recovery_codes: recoveryCodes };
    },
  );

  app.delete(
    "/auth/two-factor",
    { preHandler: requireActor(), config: { rateLimit }, schema: { body: TwoFactorDisableBody, response: { 204: NoContent } } },
    async (request, reply) => {
      const actor = actorOf(request);
      if (twoFactorRequiredFor(actor.role, adminTwoFactor)) refuse("two_factor_required_for_admins");
      const { current_password, ...proof } = request.body;
      const account = await reauthenticated(db, actor.userId, current_password);
      const refused = await proveSecondFactor(db, key, account.userId, proof, clock());
      if (refused) refuse(refused);
      await turnOffTwoFactor(db, account.userId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/auth/login/two-factor",
    { config: { rateLimit }, schema: { body: TwoFactorLoginBody, response: { 200: AuthSessionReply } } },
    async (request, reply) => {
      const { challenge, ...proof } = request.body;
      const now = clock();
      const read = readChallenge(jwtSecret, challenge, now);
      if (!read.ok) refuse(read.problem === "expired" ? "two_factor_challenge_expired" : "two_factor_challenge_invalid");
      const account = await findAccount(db, read.claims.userId);
      if (!account) refuse("two_factor_challenge_invalid");
      // The password changed since it was given: that sign-in is over.
      if (resetLinkSpent(account, read.claims.issuedAt)) refuse("two_factor_challenge_expired");
      // Wrong codes count with wrong passwords (login-back-off.ts): the challenge alone buys no more guesses.
      const device = deviceTokenOf(request.headers.cookie);
      const admission = await admitLogin(db, { email: account.email, userId: account.userId, device }, now);
      if (!admission.admitted) {
        reply.header("retry-after", String(admission.retryAfterSeconds));
        refuse("login_throttled", { wait: waitInWords(admission.retryAfterSeconds) });
      }
      const refused = await proveSecondFactor(db, key, account.userId, proof, now);
      // Turned off between the two steps: a password alone signs in now, so that is what to give again.
      if (refused) refuse(refused === "two_factor_not_enabled" ? "two_factor_challenge_expired" : refused);
      await passwordProven(db, { email: account.email, userId: account.userId, device, knownDevice: admission.knownDevice });
      reply.header(
        "set-cookie",
        await rememberDevice(db, account.userId, device, now, {
          path: knownDeviceCookiePath(request),
          secure: request.protocol === "https",
        }),
      );
      return signIn(app, db, now, account, request);
    },
  );
};
