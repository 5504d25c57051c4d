import { z } from "zod";
import { AuthSessionReply } from "./account-replies.ts";

// Two-factor sign-in with an authenticator app (issue 33.4): TOTP codes (RFC 6238: 30 s, 6 digits)
// and ten single-use recovery codes. The same schemas check the forms in the browser and the bodies
// at the API, so both say the same thing.

/** How many recovery codes an enrolment hands out, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** How long the signed challenge between the password and the code holds, in seconds. */
export const TWO_FACTOR_CHALLENGE_SECONDS = 5 * 60;

/** A code from the authenticator app: six digits; spaces people type between the groups are dropped. */
export const AuthenticatorCode = z
  .string({ error: "two_factor_code_wrong" })
  .max(20, { error: "two_factor_code_wrong" })
  .transform((s) => s.replace(/\s/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, { error: "two_factor_code_wrong" }));

/** A recovery code as printed (`abcd-efgh-jkmn`); case, spaces and dashes do not matter. */
export const RecoveryCode = z
  .string({ error: "recovery_code_wrong" })
  .max(40, { error: "recovery_code_wrong" })
  .transform((s) => s.toLowerCase().replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^[a-z0-9]{12}$/, { error: "recovery_code_wrong" }));

/** The current password: re-authentication before the second factor changes (any string, bounded). */
const CurrentPassword = z.string().max(1024);

/** POST /auth/two-factor/enrol. */
export const TwoFactorEnrolBody = z.strictObject({ current_password: CurrentPassword });

/** POST /auth/two-factor/enrol: the new secret, not active until a first code confirms it; never shown again. */
export const TwoFactorEnrolReply = z.strictObject({
  /** `otpauth://totp/...`: what the QR code holds. */
  otpauth_uri: z.string(),
  /** The QR code as an SVG data URL (`data:image/svg+xml;base64,...`), for an `<img>`. */
  qr_code: z.string(),
  /** The base32 secret, for typing into an app that cannot scan. */
  secret: z.string(),
});
export type TwoFactorEnrolReply = z.infer<typeof TwoFactorEnrolReply>;

/** POST /auth/two-factor/confirm: the first code the app shows for the new secret. */
export const TwoFactorConfirmBody = z.strictObject({ code: AuthenticatorCode });

/** POST /auth/two-factor/confirm: two-factor sign-in is on; the recovery codes, shown this once. */
export const TwoFactorConfirmReply = z.strictObject({ recovery_codes: z.array(z.string()).length(RECOVERY_CODE_COUNT) });
export type TwoFactorConfirmReply = z.infer<typeof TwoFactorConfirmReply>;

/** A current code or one recovery code, never both: what proves the second factor. */
const secondFactor = { code: AuthenticatorCode.optional(), recovery_code: RecoveryCode.optional() };
const oneProof = [
  (body: { code?: string | undefined; recovery_code?: string | undefined }) =>
    (body.code === undefined) !== (body.recovery_code === undefined),
  { error: "two_factor_proof_required" },
] as const;

/** DELETE /auth/two-factor: the password and a current code (or a recovery code). */
export const TwoFactorDisableBody = z.strictObject({ current_password: CurrentPassword, ...secondFactor }).refine(...oneProof);
export type TwoFactorDisableBody = z.infer<typeof TwoFactorDisableBody>;

/** GET /auth/two-factor. */
export const TwoFactorStatusReply = z.strictObject({
  /** Whether two-factor sign-in is on: a confirmed enrolment. */
  enrolled: z.boolean(),
  /** When it was turned on (the latest confirmation); null while off. */
  enrolled_at: z.string().nullable(),
  recovery_codes_left: z.number().int().min(0),
  /** Whether this account must have it (admins): then it cannot be turned off. */
  required: z.boolean(),
});
export type TwoFactorStatusReply = z.infer<typeof TwoFactorStatusReply>;

/** A kind of second factor: "code" (authenticator app or recovery code) or "passkey" (passkeys.ts). */
export const SecondFactorKind = z.enum(["code", "passkey"]);
export type SecondFactorKind = z.infer<typeof SecondFactorKind>;

/** POST /auth/login of an account with a second factor: no session yet, a challenge to answer with a code or a passkey. */
export const TwoFactorChallengeReply = z.strictObject({
  two_factor_required: z.literal(true),
  /** A signed token naming the account, valid TWO_FACTOR_CHALLENGE_SECONDS. */
  challenge: z.string(),
  /** What may answer it: a code from the authenticator app (or a recovery code), one of the account's passkeys, or either. */
  second_factors: z.array(SecondFactorKind).min(1),
});
export type TwoFactorChallengeReply = z.infer<typeof TwoFactorChallengeReply>;

/** POST /auth/login: a session, or (two-factor sign-in on) the challenge the code answers. */
export const LoginReply = z.union([AuthSessionReply, TwoFactorChallengeReply]);
export type LoginReply = z.infer<typeof LoginReply>;

/** Whether a login reply asks for the second factor. */
export const needsSecondFactor = (reply: LoginReply): reply is TwoFactorChallengeReply => "two_factor_required" in reply;

/** A challenge as the API takes it back: whatever is wrong with it, the sign-in cannot go on. */
const Challenge = z
  .string({ error: "two_factor_challenge_invalid" })
  .min(1, { error: "two_factor_challenge_invalid" })
  .max(512, { error: "two_factor_challenge_invalid" });

/** POST /auth/login/two-factor: the challenge and a current code, or a recovery code. */
export const TwoFactorLoginBody = z.strictObject({ challenge: Challenge, ...secondFactor }).refine(...oneProof);
export type TwoFactorLoginBody = z.infer<typeof TwoFactorLoginBody>;
