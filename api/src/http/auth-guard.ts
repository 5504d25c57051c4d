import fastifyJwt from "@fastify/jwt";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { Id, type Actor } from "@booking/contracts";
import { refuse } from "./errors.ts";

// Access tokens: short-lived HS256 JWTs carrying the user's id, role, email and sign-in. The
// algorithm is pinned, so `alg: none` and tokens signed any other way are rejected.

// `sid` names the refresh-token family the access token was issued with, so logout can end "this" session.
export type AccessClaims = { sub: string; role: "creator" | "expert" | "admin"; email: string; sid: string };
/** The claims of a token that passed the guard: the signer adds `exp`; both it and `sid` are required. */
export type VerifiedClaims = AccessClaims & { exp: number };

declare module "@fastify/jwt" {
  interface FastifyJWT {
    payload: AccessClaims;
    user: VerifiedClaims;
  }
}

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user, or null for an anonymous request. */
    actor: (Actor & { email: string; role: "creator" | "expert" | "admin" }) | null;
    /**
     * Whether the access token this request came with still holds: not expired, its sign-in not
     * ended. For requests that outlive their first check (the event stream).
     */
    accessStillHolds: () => Promise<boolean>;
  }
  interface FastifyContextConfig {
    /** The route also takes the access token as `?access_token=` (EventSource cannot send headers). */
    accessTokenInQuery?: boolean;
  }
}

export const ACCESS_TOKEN_SECONDS = 15 * 60;

// Every token we issue has both: without `exp` it would never end, without `sid` no logout or
// password change could end it. A token signed with our key but lacking either is refused.
const Claims = z.object({
  sub: Id,
  role: z.enum(["creator", "expert", "admin"]),
  email: z.string().max(320),
  sid: z.string().min(1).max(64),
  exp: z.number(),
});

/** `Authorization: Bearer <jwt>`; the scheme is case-insensitive (RFC 9110 section 11.1). */
const BEARER = /^bearer ([\w-]+\.[\w-]*\.[\w-]*)$/i;

/**
 * `sessionEnded(sid)`: whether the sign-in an access token belongs to has been ended (logout, a
 * password change, a stolen refresh token). Asked on every signed-in request, so a token stops
 * working at once rather than when it expires.
 */
export async function installAuthGuard(
  app: FastifyInstance,
  secret: string,
  sessionEnded: (sid: string) => Promise<boolean>,
): Promise<void> {
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm: "HS256", expiresIn: ACCESS_TOKEN_SECONDS },
    verify: { algorithms: ["HS256"] },
  });
  /** The claims of a token we issued for a sign-in that still holds; session_expired otherwise. */
  const verify = async (token: string): Promise<VerifiedClaims> => {
    let claims: unknown;
    try {
      claims = app.jwt.verify<AccessClaims>(token);
    } catch {
      refuse("session_expired");
    }
    // A token we signed but with claims we never issue (an old format, a key leak) is refused too.
    const checked = Claims.safeParse(claims);
    if (!checked.success) refuse("session_expired");
    if (await sessionEnded(checked.data.sid)) refuse("session_expired");
    return checked.data;
  };

  app.decorateRequest("actor", null);
  app.decorateRequest("accessStillHolds", async function (this: FastifyRequest) {
    if (!this.actor) return false;
    const { sid, exp } = this.user;
    if (exp * 1000 <= Date.now()) return false;
    return !(await sessionEnded(sid));
  });
  // One check for every way a token arrives, so the header and the query cannot drift apart.
  app.addHook("onRequest", async (request) => {
    const header = request.headers.authorization;
    let token: string;
    if (header) {
      const bearer = BEARER.exec(header);
      if (!bearer) refuse("session_expired");
      token = bearer[1]!;
    } else {
      const query = request.routeOptions.config.accessTokenInQuery
        ? (request.query as { access_token?: unknown } | undefined)?.access_token
        : undefined;
      if (query === undefined) return;
      if (typeof query !== "string") refuse("session_expired");
      token = query;
    }
    const claims = await verify(token);
    request.user = claims;
    request.actor = { userId: claims.sub, role: claims.role, email: claims.email };
  });
}

type Role = "creator" | "expert" | "admin";

/** preHandler: a signed-in user (of one of `roles`, when given; admins always pass). */
export function requireActor(...roles: Role[]) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!request.actor) refuse("no_access_token");
    if (roles.length && request.actor.role !== "admin" && !roles.includes(request.actor.role)) refuse("forbidden");
  };
}

/** The signed-in user of a route guarded by `requireActor`. */
export function actorOf(request: FastifyRequest) {
  if (!request.actor) refuse("no_access_token");
  return request.actor;
}
