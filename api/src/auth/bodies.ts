import { z } from "zod";
import { isReturnPath, PersonName, Timezone } from "@booking/contracts";
import { isWeakPassword } from "./password.ts";

// Bodies of /auth/* (their replies are contracts' AuthSessionReply and MeReply). Objects are
// strict (an unknown field is a 400). An issue's message is a catalogue code, so the error
// handler answers with the catalogue's text.

/** Addresses compare case-insensitively: stored trimmed and lowercased. */
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { error: "invalid_request" })
  .pipe(z.email({ error: "invalid_request" }));

/** A password being chosen (sign-up, change): must pass the strength rule. */
const NewPassword = z.string().refine((p) => !isWeakPassword(p), { error: "weak_password" });
/** A password being presented: any string, bounded so nobody can make us hash megabytes. */
const PresentedPassword = z.string().max(1024);

/** Where the web app goes once the address is confirmed (issue 27.4): a path on this site, never another host. */
const ReturnPath = z.string().refine(isReturnPath, { error: "invalid_request" });

/** A name given at sign-up (optional; one line, see PersonName). */
const Name = PersonName.transform((s) => s || null)
  .nullable()
  .optional();

export const SignupBody = z.strictObject({
  email: Email,
  password: NewPassword,
  // Admins are made only by ensureAdminAccount, never chosen at sign-up.
  role: z.enum(["creator", "expert"]),
  first_name: Name,
  last_name: Name,
  /** The IANA zone the browser reports: mails give times in it. */
  timezone: Timezone.optional(),
  /** Signed into the verification mail's link. */
  next: ReturnPath.optional(),
});
export type SignupBody = z.infer<typeof SignupBody>;

export const LoginBody = z.strictObject({ email: Email, password: PresentedPassword });

/** The refresh token comes in the app's cookie (issue 33.6): the body is empty, and a token sent in it is refused, not read. */
export const RefreshBody = z.strictObject({}).nullish();

export const LogoutScope = z.enum(["global", "local", "others"]);
export type LogoutScope = z.infer<typeof LogoutScope>;
export const LogoutBody = z.strictObject({ scope: LogoutScope.optional() });

/** The current password proves the caller is the owner, not someone holding a stolen access token. */
export const ChangePasswordBody = z.strictObject({ current_password: PresentedPassword, password: NewPassword });

/** A name the user keeps: required, trimmed, at most 100 characters, one line. */
const KeptName = PersonName.min(1, { error: "invalid_request" });
export const RenameBody = z.strictObject({ first_name: KeptName, last_name: KeptName });

/** A mail link's token: whatever is wrong with it, the link is not valid. */
export const LinkToken = z
  .string({ error: "email_link_invalid" })
  .min(1, { error: "email_link_invalid" })
  .max(512, { error: "email_link_invalid" });

/** POST /auth/verify: the token of a verification link and the destination the link carries beside it, if any. */
export const VerifyBody = z.strictObject({
  token: LinkToken,
  next: z.string().refine(isReturnPath, { error: "email_link_invalid" }).optional(),
});

/** POST /auth/recover: the address to send a link to. */
export const AddressBody = z.strictObject({ email: Email });

/** POST /auth/verify/resend: the address, and where the new link goes on to. */
export const ResendBody = AddressBody.extend({ next: ReturnPath.optional() });

/** POST /auth/reset: the token of a reset link and the new password. */
export const ResetBody = z.strictObject({ token: LinkToken, password: NewPassword });

/** PUT /auth/me/preferences. */
export const PreferencesBody = z.strictObject({ timezone: Timezone, reminder_mails: z.boolean() });
