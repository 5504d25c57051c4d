import type { FastifyRequest } from "fastify";
import type pg from "pg";
import type { AuthSessionReply, AuthUser } from "@booking/contracts";
import { ACCESS_TOKEN_SECONDS, type AccessClaims, type ZodApp } from "../http/index.ts";
import type { Account } from "./accounts.ts";
import { deviceOf } from "./device-names.ts";
import { keepRefreshCookie } from "./refresh-cookie.ts";
import { startFamily } from "./refresh-tokens.ts";

// The session a sign-in answers with (login, the second factor, a verification or reset link, a
// refresh): a short-lived access token naming the sign-in in the body, and the sign-in's rotating
// refresh token in the calling app's HttpOnly cookie (refresh-cookie.ts), out of scripts' reach.

export const authUser = (account: Account): AuthUser => ({
  id: account.userId,
  email: account.email,
  role: account.role,
  first_name: account.firstName,
});

/** The reply's body for a sign-in (refresh-token family) of `account`; the caller sets the refresh cookie. */
export function authSession(app: ZodApp, account: Account, familyId: string): AuthSessionReply {
  const claims: AccessClaims = { sub: account.userId, role: account.role, email: account.email, sid: familyId };
  const accessToken = app.jwt.sign(claims);
  // The reply's expiry is the token's own, not a second reading of the clock.
  const { exp } = app.jwt.decode<{ exp: number }>(accessToken) ?? { exp: Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS };
  return {
    access_token: accessToken,
    expires_in: ACCESS_TOKEN_SECONDS,
    expires_at: exp,
    token_type: "bearer",
    user: authUser(account),
  };
}

/**
 * A new sign-in from the device that sent `request`: its refresh-token family, the session reply,
 * and the refresh cookie of the app the request names, set when the reply goes out.
 */
export async function signIn(app: ZodApp, db: pg.Pool, now: string, account: Account, request: FastifyRequest): Promise<AuthSessionReply> {
  const { familyId, refreshToken } = await startFamily(db, account.userId, now, deviceOf(request.headers["user-agent"]));
  keepRefreshCookie(request, refreshToken);
  return authSession(app, account, familyId);
}
