import { z } from "zod";
import { EarlyAccessRole } from "./early-access.ts";
import { Id } from "./primitives.ts";
import { UserRole } from "./user.ts";

// Replies about accounts, declared once (see replies.ts for the pattern): the users and
// terms_acceptances read models' rows, the auth session, GET /auth/me, and the console's lists of
// users, acceptances and early-access requests. Strict objects, on purpose.

/** An instant as a read model returns it (ISO 8601). */
const Time = z.string();

/** One row of the `users` read model (projections' UserRow is inferred from here). */
export const UserRecord = z.strictObject({
  user_id: z.string(),
  email: z.string(),
  role: UserRole,
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  /** The first registration's time: registering again keeps it. */
  registered_at: Time,
  /** When the owner proved the address (a verification or password-reset link); null: not yet. */
  email_verified_at: Time.nullable(),
  /** The IANA zone the user's mails give times in; null: never given (mails use UTC). */
  timezone: z.string().nullable(),
  /** Whether non-essential mails (reminders) are sent; essential ones always are. */
  reminder_mails: z.boolean(),
  /** When the person deleted their account (issue 33.2); null: not erased. Their name and address then read as erased markers. */
  erased_at: Time.nullable(),
  stream_version: z.number(),
});
export type UserRecord = z.infer<typeof UserRecord>;

/** GET /admin/users: the row, keyed by `id`, with the user's terms status and booking counts. */
export const AdminUserReply = UserRecord.extend({
  id: z.string(),
  expert_id: z.string().nullable(),
  current_terms_version: z.string(),
  accepted_current_terms: z.boolean(),
  current_terms_accepted_at: Time.nullable(),
  latest_terms_version: z.string().nullable(),
  bookings_as_creator: z.number(),
  bookings_as_expert: z.number(),
});
export type AdminUserReply = z.infer<typeof AdminUserReply>;

/** One row of the `terms_acceptances` read model: a user accepted a terms version, once. */
export const TermsAcceptanceRecord = z.strictObject({
  user_id: z.string(),
  version_id: z.string(),
  accepted_at: Time,
  stream_version: z.number(),
});
export type TermsAcceptanceRecord = z.infer<typeof TermsAcceptanceRecord>;

/** GET /admin/terms-acceptances: the row, keyed `{user_id}:{version_id}`, with the user's email (null while `users` has not caught up). */
export const AdminTermsAcceptanceReply = TermsAcceptanceRecord.extend({ id: z.string(), email: z.string().nullable() });
export type AdminTermsAcceptanceReply = z.infer<typeof AdminTermsAcceptanceReply>;

/** A request for an address as it was before a later one replaced it, and when it was asked. */
export const EarlyAccessEarlierVersion = z.strictObject({ name: z.string(), role: EarlyAccessRole, need: z.string(), asked_at: Time });
export type EarlyAccessEarlierVersion = z.infer<typeof EarlyAccessEarlierVersion>;

/**
 * A visitor's request for an invitation (the API's early_access_requests table; GET /admin/early-access):
 * one per address, the latest shown, with the versions it replaced (newest first; anyone who knows an
 * address can send the form for it, so none is erased).
 */
export const EarlyAccessRequestRecord = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: EarlyAccessRole,
  need: z.string(),
  created_at: Time,
  updated_at: Time,
  earlier: z.array(EarlyAccessEarlierVersion),
});
export type EarlyAccessRequestRecord = z.infer<typeof EarlyAccessRequestRecord>;

/** The signed-in user as a session names them. */
export const AuthUser = z.strictObject({ id: Id, email: z.string(), role: UserRole, first_name: z.string().nullable() });
export type AuthUser = z.infer<typeof AuthUser>;

/**
 * The browser apps that keep a session, each under its own refresh cookie: sent as the SESSION_APP_HEADER header on every
 * call that opens, refreshes or ends a session (issue 33.6). On the refresh it is also the proof that the app's own script
 * asks: no other site can send a custom header to the API (there is no CORS), while a form or a link can send the cookie.
 */
export const SessionApp = z.enum(["web", "console"]);
export type SessionApp = z.infer<typeof SessionApp>;
export const SESSION_APP_HEADER = "x-session-app";

/**
 * POST /auth/login, /auth/refresh, /auth/verify and /auth/reset: a short-lived access token, kept in the tab's memory. The
 * rotating refresh token is not in the body: it comes as an HttpOnly cookie that no script can read (issue 33.6).
 */
export const AuthSessionReply = z.strictObject({
  access_token: z.string(),
  expires_in: z.number().int(),
  /** Seconds since the epoch. */
  expires_at: z.number().int(),
  token_type: z.literal("bearer"),
  user: AuthUser,
});
export type AuthSessionReply = z.infer<typeof AuthSessionReply>;

/** POST /auth/signup: the account exists, unverified; no session until the address is verified from the mail just queued. */
export const SignupReply = z.strictObject({
  user: AuthUser,
  /** When the verification mail was queued. */
  confirmation_sent_at: Time,
});
export type SignupReply = z.infer<typeof SignupReply>;

/** GET and PATCH /auth/me, PUT /auth/me/preferences. */
export const MeReply = z.strictObject({
  id: Id,
  email: z.string(),
  role: UserRole,
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  expert_id: Id.nullable(),
  terms_accepted: z.boolean(),
  email_verified: z.boolean(),
  /** The IANA zone the user's mails give times in ("UTC" when never set). */
  timezone: z.string(),
  /** Whether reminder mails are sent (true unless turned off). */
  reminder_mails: z.boolean(),
});
export type MeReply = z.infer<typeof MeReply>;

/** POST /mail/unsubscribe: reminders are off for the link's owner. */
export const UnsubscribeReply = z.strictObject({ email: z.string(), reminder_mails: z.literal(false) });
export type UnsubscribeReply = z.infer<typeof UnsubscribeReply>;
