import type { FastifyInstance, InjectOptions } from "fastify";
import type pg from "pg";
import { CONSISTENCY_POSITION_HEADER, CURRENT_TERMS_VERSION, ClientPositions } from "@booking/contracts";
import { lastLinkSentTo } from "../auth/index.ts";

// Demo accounts are made the way people make theirs: sign up through the public API, follow the
// link of the verification mail, accept the terms. Every demo account shares one password.

export const DEMO_PASSWORD = "demo-password-1";

export type DemoPerson = { email: string; first_name: string; last_name: string };
/** A signed-up demo account: its user id and an access token (good for 15 minutes, longer than a seed takes). */
export type DemoAccount = DemoPerson & { id: string; token: string };

/** A call to the public API as `token`'s holder; anything but a success stops the seed, naming the call. */
const clientPositions = new WeakMap<FastifyInstance, ClientPositions>();

export async function call<T = Record<string, unknown>>(
  app: FastifyInstance,
  method: "GET" | "POST" | "PATCH" | "PUT",
  url: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<T> {
  // As the apps do (issue 34.1): each call carries the newest position a reply of this app named, so it shows the seed's writes.
  let positions = clientPositions.get(app);
  if (!positions) clientPositions.set(app, (positions = new ClientPositions()));
  const r = await app.inject({
    method,
    url: `/api/v1${url}`,
    ...(body !== undefined && { payload: body as InjectOptions["payload"] }),
    headers: { ...positions.headers(), ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  positions.heard(r.headers[CONSISTENCY_POSITION_HEADER] as string | undefined);
  if (r.statusCode >= 300) throw new Error(`seed: ${method} ${url} answered ${r.statusCode} ${r.body}`);
  return r.json() as T;
}

export async function signUp(app: FastifyInstance, db: pg.Pool, person: DemoPerson, role: "creator" | "expert"): Promise<DemoAccount> {
  await call(app, "POST", "/auth/signup", {
    email: person.email,
    first_name: person.first_name,
    last_name: person.last_name,
    password: DEMO_PASSWORD,
    role,
  });
  const sent = await lastLinkSentTo(db, "verify_email", person.email);
  if (!sent) throw new Error(`seed: no verification mail for ${person.email}`);
  // Demo addresses reach nobody: the mail is kept (skipped, not sent) and the seed follows its link.
  await db.query(
    `UPDATE mail_outbox SET status = 'skipped', skipped_reason = 'demo account, verified by the seed', updated_at = now()
     WHERE message_id = $1 AND status = 'pending'`,
    [sent.messageId],
  );
  const session = await call<{ access_token: string; user: { id: string } }>(app, "POST", "/auth/verify", { token: sent.token });
  const token = session.access_token;
  await call(app, "POST", "/terms/accept", { version_id: CURRENT_TERMS_VERSION }, token);
  return { ...person, token, id: session.user.id };
}
