import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { FastifyRequest } from "fastify";
import type pg from "pg";
import { AuthSessionReply, LoginReply, MeReply, NoContent, SignupReply } from "@booking/contracts";
import { findUser } from "@booking/projections";
import { endFeedAddress } from "../calendar-invites/index.ts";
import type { TermsCommands } from "../main/index.ts";
import { actorOf, requireActor, Refused, refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { acceptedCurrentTerms } from "../terms/index.ts";
import {
  findAccount,
  findAccountByEmail,
  registerAccount,
  renameAccount,
  resetLinkSpent,
  resetPassword,
  setPasswordHash,
  verifyEmail,
  type AccountWriteDeps,
} from "./accounts.ts";
import { addressMail, sendAccountExistsMail, sendAddressMail, type LinkSettings } from "./address-mails.ts";
import type { AdminTwoFactor } from "./admin-two-factor.ts";
import { AddressBody, ChangePasswordBody, LoginBody, LogoutBody, PreferencesBody, RefreshBody, RenameBody } from "./bodies.ts";
import { ResendBody, ResetBody, SignupBody, VerifyBody } from "./bodies.ts";
import { admitLogin, deviceTokenOf, passwordProven, rememberDevice, waitInWords } from "./login-back-off.ts";
import { decoyHash, hashPassword, verifyPassword } from "./password.ts";
import { setPreferences } from "./preferences.ts";
import { forgetRefreshCookie, installRefreshCookies, keepRefreshCookie, refreshTokenOf, sameSiteApp } from "./refresh-cookie.ts";
import { revokeFamily, revokeUserSessions, rotate } from "./refresh-tokens.ts";
import { authSession, authUser, signIn } from "./session-replies.ts";
import { signChallenge } from "./sign-in-challenge.ts";
import { signInRoutes } from "./sign-in-routes.ts";
import { SignUpTiming } from "./sign-up-timing.ts";
import { readLink } from "./signed-links.ts";
import { knownDeviceCookiePath, twoFactorRoutes } from "./two-factor-routes.ts";
import { passkeyRoutes } from "./passkey-routes.ts";
import { secondFactorsOf } from "./passkey-table.ts";

type Env = Record<string, string | undefined>;

/** A per-address limit from the environment: a positive whole number, or `fallback` when unset. */
function limitFrom(env: Env, name: string, fallback: number): number {
  const given = env[name];
  if (given === undefined || given === "") return fallback;
  const n = Number(given);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, got "${given}"`);
  return n;
}

/** Attempts per minute per client address on each credential route (AUTH_RATE_LIMIT_MAX, default 20). */
export const attemptsPerMinute = (env: Env = process.env): number => limitFrom(env, "AUTH_RATE_LIMIT_MAX", 20);

/** Requests per 15 minutes per client address on the routes that mail a link (AUTH_MAIL_RATE_LIMIT_MAX, default 5). */
export const mailRequestsPerQuarterHour = (env: Env = process.env): number => limitFrom(env, "AUTH_MAIL_RATE_LIMIT_MAX", 5);

/** The refresh-token family of the caller's access token (the guard refuses a token without one). */
const sessionFamilyOf = (request: FastifyRequest): string => request.user.sid;

/** Who the caller is: the account, the users read model and the terms they accepted. */
async function meOf(db: pg.Pool, terms: TermsCommands, userId: string): Promise<MeReply> {
  const [account, user, expert, termsAccepted] = await Promise.all([
    findAccount(db, userId),
    findUser(db, userId),
    db.query<{ expert_id: string }>("SELECT expert_id FROM experts WHERE user_id = $1 ORDER BY expert_id LIMIT 1", [userId]),
    acceptedCurrentTerms({ terms }, userId),
  ]);
  if (!account && !user) refuse("session_expired");
  // Names come from the users read model when it has the user (renames land there), else from the account.
  const names = user ?? { first_name: account!.firstName, last_name: account!.lastName };
  return {
    id: userId,
    email: account?.email ?? user!.email,
    role: account?.role ?? user!.role,
    first_name: names.first_name,
    last_name: names.last_name,
    expert_id: expert.rows[0]?.expert_id ?? null,
    terms_accepted: termsAccepted,
    // The account decides sign-in; users made without one (by events alone) have only the read model.
    email_verified: account ? account.emailVerifiedAt !== null : user!.email_verified_at !== null,
    timezone: user?.timezone ?? "UTC",
    reminder_mails: user?.reminder_mails ?? true,
  };
}

/**
 * What the auth routes use: the accounts and refresh tokens (and the read models for /auth/me), the user's
 * stream, the clock, the refresh tokens' and mail links' key, mail settings (where links point), the terms,
 * and whether admins must sign in with a second factor (ADMIN_TWO_FACTOR; default: required).
 */
export type AuthRouteDeps = AccountWriteDeps & LinkSettings & { terms: TermsCommands; adminTwoFactor?: AdminTwoFactor };

export const authRoutes: RoutePlugin<AuthRouteDeps> = async (app, deps) => {
  const { db, clock, jwtSecret, terms } = deps;
  const rateLimit = { max: attemptsPerMinute(), timeWindow: "1 minute" };
  // Every page load of a signed-in tab refreshes (the access token lives in the tab's memory, issue 33.6), and a refresh is
  // no guess at a credential (the cookie holds 256 random bits): ten times the allowance, so an office behind one address
  // reloading its tabs is not signed out.
  const refreshRateLimit = { max: attemptsPerMinute() * 10, timeWindow: "1 minute" };
  // The routes that mail a link: tighter, and answered with the spec's code for it.
  const mailRateLimit = {
    max: mailRequestsPerQuarterHour(),
    timeWindow: "15 minutes",
    errorResponseBuilder: () => new Refused({ code: "over_request_rate_limit", as: "over_email_send_rate_limit" }),
  };
  // Made now, so that even the first login with an unknown email costs no more than any other.
  await decoyHash();
  const signUpTiming = new SignUpTiming();
  // Every reply that opens a session sets its refresh cookie; a sign-out and a refused refresh clear it (issue 33.6).
  const cookies = { publicUrl: deps.mail.publicUrl };
  installRefreshCookies(app, cookies);

  app.post(
    "/auth/signup",
    { config: { rateLimit }, schema: { body: SignupBody, response: { 201: SignupReply } } },
    async (request, reply) => {
      const body = request.body;
      let sentAt = "";
      const passwordHash = await hashPassword(body.password);
      const writing = performance.now();
      const created = await registerAccount(
        deps,
        {
          email: body.email,
          passwordHash,
          role: body.role,
          firstName: body.first_name ?? null,
          lastName: body.last_name ?? null,
          ...(body.timezone && { timezone: body.timezone }),
        },
        // No session until the owner follows the link: queued with the account row, in its transaction.
        { mail: (account, at) => ((sentAt = at), addressMail(deps, "verify_email", account, at, body.next ?? null)) },
      );
      if (created === "email_taken") {
        // Answered like a new sign-up (what the caller sent, an id of no one), so the form does not
        // tell who has an account; the owner hears of it by mail. The account stays as it was.
        const now = clock();
        const owner = await findAccountByEmail(db, body.email);
        if (owner) await sendAccountExistsMail(db, deps, owner, now, body.next ?? null);
        await signUpTiming.evenOut(writing);
        return reply.status(201).send({
          user: { id: randomUUID(), email: body.email, role: body.role, first_name: body.first_name ?? null },
          confirmation_sent_at: now,
        });
      }
      signUpTiming.written(writing);
      return reply.status(201).send({ user: authUser(created), confirmation_sent_at: sentAt });
    },
  );

  app.post("/auth/login", { config: { rateLimit }, schema: { body: LoginBody, response: { 200: LoginReply } } }, async (request, reply) => {
    const { email, password } = request.body;
    const now = clock();
    const account = await findAccountByEmail(db, email);
    // Per account, whatever the client address (see login-back-off.ts); the owner's browser is let through.
    const device = deviceTokenOf(request.headers.cookie);
    const admission = await admitLogin(db, { email, userId: account?.userId ?? null, device }, now);
    if (!admission.admitted) {
      reply.header("retry-after", String(admission.retryAfterSeconds));
      refuse("login_throttled", { wait: waitInWords(admission.retryAfterSeconds) });
    }
    // An unknown email costs one hash check too, so timing does not tell which addresses exist.
    const matches = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()));
    if (!account || !matches) refuse("invalid_credentials");
    // With a second factor the count starts afresh only once the code is proven too (POST /auth/login/two-factor):
    // giving the password again must not buy fresh guesses at the code.
    // A code or a passkey (issue 33.4): either answers the challenge.
    const secondFactors = await secondFactorsOf(db, account.userId);
    const secondFactor = secondFactors.length > 0;
    if (!secondFactor) await passwordProven(db, { email, userId: account.userId, device, knownDevice: admission.knownDevice });
    // Only someone who knows the password learns that the address is not verified yet.
    if (account.emailVerifiedAt === null) refuse("email_not_confirmed");
    // The password opens nothing yet: a code or a passkey, sent with this challenge, does (and remembers the browser).
    if (secondFactor)
      return {
        two_factor_required: true as const,
        challenge: signChallenge(jwtSecret, account.userId, now),
        second_factors: secondFactors,
      };
    reply.header(
      "set-cookie",
      await rememberDevice(db, account.userId, device, now, { path: knownDeviceCookiePath(request), secure: request.protocol === "https" }),
    );
    return signIn(app, db, now, account, request);
  });

  app.post(
    "/auth/verify",
    { config: { rateLimit }, schema: { body: VerifyBody, response: { 200: AuthSessionReply } } },
    async (request) => {
      // The destination beside the token must be the one it signs: an altered link is not valid.
      const link = readLink(jwtSecret, request.body.token, "verify_email", clock(), request.body.next ?? null);
      if (!link.ok) refuse(link.problem === "expired" ? "email_link_expired" : "email_link_invalid");
      const account = await findAccount(db, link.claims.userId);
      // Spent once the address is verified: a second click, or a link of an older sending.
      if (!account || account.emailVerifiedAt !== null) refuse("email_link_invalid");
      const verified = await verifyEmail(deps, account);
      if (!verified) refuse("email_link_invalid");
      return signIn(app, db, clock(), verified, request);
    },
  );

  // One answer whatever the address (unknown, verified, waiting): who has an account stays unsaid.
  const resendSchema = { body: ResendBody, response: { 204: NoContent } };
  app.post("/auth/verify/resend", { config: { rateLimit: mailRateLimit }, schema: resendSchema }, async (request, reply) => {
    const { email, next } = request.body;
    const account = await findAccountByEmail(db, email);
    await sendAddressMail(db, deps, "verify_email", email, account?.emailVerifiedAt === null ? account : null, clock(), next ?? null);
    return reply.status(204).send(null);
  });

  app.post(
    "/auth/recover",
    { config: { rateLimit: mailRateLimit }, schema: { body: AddressBody, response: { 204: NoContent } } },
    async (request, reply) => {
      const { email } = request.body;
      const account = await findAccountByEmail(db, email);
      await sendAddressMail(db, deps, "password_reset", email, account, clock());
      return reply.status(204).send(null);
    },
  );

  app.post("/auth/reset", { config: { rateLimit }, schema: { body: ResetBody, response: { 200: AuthSessionReply } } }, async (request) => {
    const { token, password } = request.body;
    const link = readLink(jwtSecret, token, "password_reset", clock());
    if (!link.ok) refuse(link.problem === "expired" ? "otp_expired" : "email_link_invalid");
    const account = await findAccount(db, link.claims.userId);
    if (!account || resetLinkSpent(account, link.claims.issuedAt)) refuse("email_link_invalid");
    if (await verifyPassword(password, account.passwordHash)) refuse("same_password");
    const passwordHash = await hashPassword(password);
    // Whoever knew the old password keeps no session; the reply is the one sign-in left.
    const reset = await resetPassword(deps, account, { issuedAt: link.claims.issuedAt, passwordHash }, async (client, at) => {
      await revokeUserSessions(client, account.userId, at);
      // The calendar feed's address is a key too: it ends with the sessions (issue 26 item 8).
      await endFeedAddress(client, account.userId, at);
    });
    if (!reset) refuse("email_link_invalid");
    return signIn(app, db, clock(), reset, request);
  });

  app.post(
    "/auth/refresh",
    { config: { rateLimit: refreshRateLimit }, schema: { body: RefreshBody, response: { 200: AuthSessionReply } } },
    async (request) => {
      // The cookie authenticates this route: only the app's own page may spend it (refresh-cookie.ts says how it shows that).
      const sessionApp = sameSiteApp(request, cookies);
      const now = clock();
      const token = refreshTokenOf(request, sessionApp);
      // No cookie, or one this API never made (forged, truncated): nothing to rotate, and nothing else is ended.
      const rotated = token ? await rotate(db, jwtSecret, token, now) : null;
      if (!rotated) {
        forgetRefreshCookie(request);
        refuse("session_expired");
      }
      const account = await findAccount(db, rotated.userId);
      if (!account) {
        await revokeFamily(db, rotated.familyId, now);
        forgetRefreshCookie(request);
        refuse("session_expired");
      }
      keepRefreshCookie(request, rotated.refreshToken);
      return authSession(app, account, rotated.familyId);
    },
  );

  app.post(
    "/auth/logout",
    { preHandler: requireActor(), schema: { body: LogoutBody.nullish(), response: { 204: NoContent } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const family = sessionFamilyOf(request);
      const now = clock();
      // Like the hosted auth service the spec describes, signing out ends every session unless told otherwise.
      const scope = request.body?.scope ?? "global";
      if (scope === "global") {
        await revokeUserSessions(db, actor.userId, now);
        await endFeedAddress(db, actor.userId, now);
      } else if (scope === "others") await revokeUserSessions(db, actor.userId, now, family);
      else if (family) await revokeFamily(db, family, now);
      // This browser's token of the app signing out is spent: its cookie goes too (another app's is refused when next sent).
      if (scope !== "others") forgetRefreshCookie(request);
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/auth/password",
    { preHandler: requireActor(), config: { rateLimit }, schema: { body: ChangePasswordBody, response: { 204: NoContent } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const account = await findAccount(db, actor.userId);
      if (!account) refuse("session_expired");
      // A stolen access token alone must not become a takeover that locks the owner out. 403, not
      // 401: the token is good (a client must not drop the session), the proof given is not.
      if (!(await verifyPassword(request.body.current_password, account.passwordHash))) refuse("reauthentication_needed");
      // The current password was just proven, so comparing the strings is comparing with the hash.
      if (request.body.password === request.body.current_password) refuse("same_password");
      const now = clock();
      await setPasswordHash(db, account.userId, await hashPassword(request.body.password), now);
      // Whoever knew the old password keeps no session; the caller keeps theirs.
      await revokeUserSessions(db, account.userId, now, sessionFamilyOf(request));
      await endFeedAddress(db, account.userId, now);
      return reply.status(204).send(null);
    },
  );

  app.get("/auth/me", { preHandler: requireActor(), schema: { response: { 200: MeReply } } }, async (request) =>
    meOf(db, terms, actorOf(request).userId),
  );

  app.patch("/auth/me", { preHandler: requireActor(), schema: { body: RenameBody, response: { 200: MeReply } } }, async (request) => {
    const actor = actorOf(request);
    const renamed = await renameAccount(deps, actor, { firstName: request.body.first_name, lastName: request.body.last_name });
    if (!renamed) refuse("session_expired");
    return meOf(db, terms, actor.userId);
  });

  app.put(
    "/auth/me/preferences",
    { preHandler: requireActor(), schema: { body: PreferencesBody, response: { 200: MeReply } } },
    async (request) => {
      const actor = actorOf(request);
      const set = await setPreferences(deps, actor, () => ({
        timezone: request.body.timezone,
        reminderMails: request.body.reminder_mails,
      }));
      if (set === false) refuse("session_expired");
      if (set === "conflict") refuse("concurrency_conflict");
      return meOf(db, terms, actor.userId);
    },
  );

  // The second factor (issue 33.4) and the sign-ins a person sees and ends (issue 33.5).
  await twoFactorRoutes(app, { db, clock, jwtSecret, adminTwoFactor: deps.adminTwoFactor ?? "required", rateLimit });
  await signInRoutes(app, { db, clock });
  // Passkeys (issue 33.4): for the web app's own address, alone or as the second factor.
  await passkeyRoutes(app, {
    db,
    clock,
    jwtSecret,
    adminTwoFactor: deps.adminTwoFactor ?? "required",
    rateLimit,
    publicUrl: deps.mail.publicUrl,
  });
};
