import type pg from "pg";
import {
  NoContent,
  PASSKEY_LIMIT,
  PasskeyCreationOptions,
  PasskeyParams,
  PasskeyRecord,
  PasskeyRegistrationBody,
  PasskeysReply,
} from "@booking/contracts";
import { actorOf, requireActor, refuse, type RoutePlugin } from "../http/index.ts";
import { findAccount } from "./accounts.ts";
import { twoFactorRequiredFor, type AdminTwoFactor } from "./admin-two-factor.ts";
import { deviceOf } from "./device-names.ts";
import { challengeOf, creationOptions, relyingPartyOf, verifiedRegistration } from "./passkey-ceremonies.ts";
import { passkeySignInRoutes } from "./passkey-sign-in-routes.ts";
import { addPasskey, keepChallenge, passkeysOf, removePasskey, secondFactorsOf, takeChallenge, type Passkey } from "./passkey-table.ts";

// A person's passkeys (issue 33.4): adding one (options for the browser, then its answer), the list,
// removing one. The access token is enough to add one, as the issue asks: the authenticator itself
// verifies the person, and a passkey added by a stolen session shows in the list to be removed.
// Signing in with one is passkey-sign-in-routes.ts.

export type PasskeyRouteDeps = {
  db: pg.Pool;
  clock: () => string;
  /** Signs the password step's challenges (the second factor's routes read them). */
  jwtSecret: string;
  adminTwoFactor: AdminTwoFactor;
  /** The web app's address (PUBLIC_URL): the passkeys' relying party. */
  publicUrl: string;
  /** The credential routes' limit per client address (routes.ts). */
  rateLimit: { max: number; timeWindow: string };
};

const recordOf = (p: Passkey): PasskeyRecord => ({
  id: p.id,
  name: p.name,
  device: p.device,
  created_at: p.createdAt,
  last_used_at: p.lastUsedAt,
  synced: p.synced,
});

export const passkeyRoutes: RoutePlugin<PasskeyRouteDeps> = async (app, deps) => {
  const { db, clock, adminTwoFactor, rateLimit } = deps;
  const rp = relyingPartyOf(deps.publicUrl);

  app.get("/auth/passkeys", { preHandler: requireActor(), schema: { response: { 200: PasskeysReply } } }, async (request) => ({
    passkeys: (await passkeysOf(db, actorOf(request).userId)).map(recordOf),
  }));

  app.post(
    "/auth/passkeys/options",
    { preHandler: requireActor(), config: { rateLimit }, schema: { response: { 200: PasskeyCreationOptions } } },
    async (request) => {
      const account = await findAccount(db, actorOf(request).userId);
      if (!account) refuse("session_expired");
      const existing = await passkeysOf(db, account.userId);
      if (existing.length >= PASSKEY_LIMIT) refuse("passkey_limit", { max: String(PASSKEY_LIMIT) });
      const options = await creationOptions(rp, account, existing);
      // Bound to the caller: another account's answer to it is not theirs to keep.
      await keepChallenge(db, options.challenge, "registration", account.userId, clock());
      return options;
    },
  );

  app.post(
    "/auth/passkeys",
    {
      preHandler: requireActor(),
      config: { rateLimit },
      schema: { body: PasskeyRegistrationBody, response: { 201: PasskeyRecord } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const now = clock();
      const { response, name } = request.body;
      const challenge = challengeOf(response);
      if (!challenge) refuse("passkey_response_invalid");
      const taken = await takeChallenge(db, challenge, "registration", now);
      if (!taken.ok) refuse(taken.problem === "expired" ? "passkey_challenge_expired" : "passkey_challenge_invalid");
      if (taken.userId !== actor.userId) refuse("passkey_challenge_invalid");
      const credential = await verifiedRegistration(rp, response, challenge, actor.userId);
      const device = deviceOf(request.headers["user-agent"]);
      const added = await addPasskey(db, { ...credential, name: name ?? device, device }, now, PASSKEY_LIMIT);
      if (added === "taken") refuse("passkey_already_registered");
      if (added === "limit") refuse("passkey_limit", { max: String(PASSKEY_LIMIT) });
      return reply.status(201).send(recordOf(added));
    },
  );

  app.delete(
    "/auth/passkeys/:id",
    { preHandler: requireActor(), schema: { params: PasskeyParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const own = await passkeysOf(db, actor.userId);
      // Another user's passkey is answered like one that does not exist.
      if (!own.some((p) => p.id === request.params.id)) refuse("passkey_not_found");
      // An admin's last second factor stays: the console would lock them out until they set up another.
      const keepsAnother = own.length > 1 || (await secondFactorsOf(db, actor.userId)).includes("code");
      if (twoFactorRequiredFor(actor.role, adminTwoFactor) && !keepsAnother) refuse("passkey_last_admin_factor");
      if (!(await removePasskey(db, actor.userId, request.params.id, clock()))) refuse("passkey_not_found");
      return reply.status(204).send(null);
    },
  );

  await passkeySignInRoutes(app, { ...deps, rp });
};
