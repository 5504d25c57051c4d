import type pg from "pg";
import { z } from "zod";
import { UnsubscribeReply } from "@booking/contracts";
import { findUser } from "@booking/projections";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { findAccount, LinkToken, setPreferences, type PreferencesDeps, readLink } from "../auth/index.ts";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";

// POST /mail/unsubscribe: the unsubscribe link of a non-essential mail (reminders) turns them off
// for its owner, without signing in. The web page posts `{ token }`; a mail client's one-click
// unsubscribe (RFC 8058) posts the form `List-Unsubscribe=One-Click` to the List-Unsubscribe URL,
// whose query carries the token.

const Query = z.strictObject({ token: LinkToken.optional() });
/** JSON from the page, the one-click form (its text, not read further), or nothing. */
const Body = z.union([z.strictObject({ token: LinkToken }), z.string().max(1024)]).nullish();

export type UnsubscribeDeps = PreferencesDeps & { db: pg.Pool; jwtSecret: string };

export const unsubscribeRoutes: RoutePlugin<UnsubscribeDeps> = async (app, deps) => {
  const { db, jwtSecret, clock } = deps;
  // A scope of its own: only this route takes a form body; elsewhere one stays a 415.
  await app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 1024 }, (_request, body, done) =>
      done(null, body),
    );
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post("/mail/unsubscribe", { schema: { querystring: Query, body: Body, response: { 200: UnsubscribeReply } } }, async (request) => {
        const body = request.body;
        const token = (typeof body === "object" && body !== null ? body.token : undefined) ?? request.query.token;
        if (!token) refuse("email_link_invalid");
        // Unsubscribe links never expire: only a bad signature or another purpose fails here.
        const link = readLink(jwtSecret, token, "unsubscribe", clock());
        if (!link.ok) refuse("email_link_invalid");
        const { userId } = link.claims;
        const account = await findAccount(db, userId);
        const owner = account ? { email: account.email, role: account.role } : await findUser(db, userId);
        if (!owner) refuse("email_link_invalid");
        // Clicked twice: already off, nothing more to record.
        const set = await setPreferences(deps, { userId, role: owner.role }, (current) =>
          current.reminderMails ? { timezone: current.timezone ?? "UTC", reminderMails: false } : null,
        );
        if (set === false) refuse("email_link_invalid");
        if (set === "conflict") refuse("concurrency_conflict");
        return { email: owner.email, reminder_mails: false as const };
      });
  });
};
