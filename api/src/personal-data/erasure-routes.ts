import { AccountErasureBody, AccountErasureReply, isErasedEmail, PasskeyRequestOptions } from "@booking/contracts";
import {
  attemptsPerMinute,
  findAccount,
  proveSecondFactor,
  proveWithPasskey,
  reauthenticationOptions,
  twoFactorKey,
  twoFactorOf,
  verifyPassword,
  type Account,
} from "../auth/index.ts";
import { actorOf, commandActor, refuse, requireActor, type RoutePlugin } from "../http/index.ts";
import { eraseAccount, type ErasureDeps } from "./erasure.ts";
import { erasureFacts } from "./erasure-facts.ts";
import { erasureRefusal } from "./erasure-rules.ts";

// Deleting your account (issue 33.2): POST /me/erasure. The person proves it is them again (a stolen access token alone
// erases nobody): their password, and with two-factor sign-in on a current code or a recovery code; or one of their
// passkeys (issue 33.4), whose answer to POST /me/erasure/passkey/options is both factors at once. Then the rules
// (erasure-rules.ts) say whether anything is still open; if not, the account is erased (erasure.ts) and the reply says
// when. Every sign-in of theirs has ended by then, this one included: the client signs out.

export type ErasureRouteDeps = ErasureDeps & {
  /** Opens the sealed two-factor secrets (a key derived from it). */
  jwtSecret: string;
  /** The web app's address (PUBLIC_URL): the site the person's passkeys belong to. */
  publicUrl: string;
};

export const erasureRoutes: RoutePlugin<ErasureRouteDeps> = async (app, deps) => {
  const { db, clock, publicUrl } = deps;
  const key = twoFactorKey(deps.jwtSecret);
  // As the other routes that take a password: a stolen access token does not buy unlimited guesses at it.
  const rateLimit = { max: attemptsPerMinute(), timeWindow: "1 minute" };

  /** The password and, with two-factor sign-in on, the code: proven, or refused. */
  async function provePassword(account: Account, body: AccountErasureBody, now: string): Promise<void> {
    if (!(await verifyPassword(body.current_password ?? "", account.passwordHash))) refuse("erasure_password_wrong");
    // TODO(issue 33.4, passkeys): an account whose only second factor is a passkey may still prove it with its password alone.
    if ((await twoFactorOf(db, account.userId))?.secret) {
      const { code, recovery_code } = body;
      if (code === undefined && recovery_code === undefined) refuse("two_factor_proof_required");
      const wrong = await proveSecondFactor(db, key, account.userId, { code, recovery_code }, now);
      if (wrong) refuse(wrong);
    }
  }

  app.post(
    "/me/erasure/passkey/options",
    { onRequest: requireActor(), config: { rateLimit }, schema: { response: { 200: PasskeyRequestOptions } } },
    async (request) => {
      const account = await findAccount(db, actorOf(request).userId);
      if (!account || isErasedEmail(account.email)) refuse("session_expired");
      return reauthenticationOptions(db, publicUrl, account.userId, clock());
    },
  );

  app.post(
    "/me/erasure",
    { onRequest: requireActor(), config: { rateLimit }, schema: { body: AccountErasureBody, response: { 200: AccountErasureReply } } },
    async (request) => {
      const actor = actorOf(request);
      const now = clock();
      const account = await findAccount(db, actor.userId);
      if (!account || isErasedEmail(account.email)) refuse("session_expired");
      const { passkey } = request.body;
      if (passkey) await proveWithPasskey(db, publicUrl, account.userId, passkey, now);
      else await provePassword(account, request.body, now);
      // An expert's id is their user id (experts/routes.ts): their calendar may hold time off before any profile is saved.
      const { rows } = await db.query<{ expert_id: string }>("SELECT expert_id FROM experts WHERE user_id = $1", [account.userId]);
      const expertIds = [...new Set([...rows.map((r) => r.expert_id), ...(account.role === "expert" ? [account.userId] : [])])];
      const refused = erasureRefusal(await erasureFacts(db, { userId: account.userId, role: account.role, expertIds }, now));
      if (refused) refuse(refused.code, refused.params);
      const erased = await eraseAccount(deps, account, expertIds, commandActor(actor));
      // TODO(issue 33.4, refresh cookie): its sign-in is revoked already; clearing the cookie too is the auth area's (forgetRefreshCookie).
      return { user_id: erased.userId, erased_at: erased.erasedAt };
    },
  );
};
