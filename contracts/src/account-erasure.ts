import { z } from "zod";
import { PasskeyAssertion } from "./passkeys.ts";
import { AuthenticatorCode, RecoveryCode } from "./two-factor.ts";

// Deleting one's account (issue 33.2): the person proves it is them again (their password, and with two-factor sign-in
// on a current code or a recovery code; or one of their passkeys, issue 33.4), and the account is erased: its data key
// destroyed, its sign-ins ended, and every read model then shows "Deleted user" where it showed them. The same schema
// checks the form in the browser and the body at the API.

/**
 * POST /me/erasure: the password (a code too only with two-factor sign-in on; one proof at most, never both), or a
 * passkey's answer to POST /me/erasure/passkey/options alone: the device holds it and verifies the person, both factors.
 */
export const AccountErasureBody = z
  .strictObject({
    current_password: z.string().max(1024).optional(),
    code: AuthenticatorCode.optional(),
    recovery_code: RecoveryCode.optional(),
    passkey: PasskeyAssertion.optional(),
  })
  .refine((body) => body.code === undefined || body.recovery_code === undefined, { error: "two_factor_proof_required" })
  // The password or the passkey: one way of proving it, whole.
  .refine((body) =>
    body.passkey === undefined
      ? body.current_password !== undefined
      : body.current_password === undefined && body.code === undefined && body.recovery_code === undefined,
  );
export type AccountErasureBody = z.infer<typeof AccountErasureBody>;

/** POST /me/erasure: the account is erased; the caller is signed out everywhere (this access token included). */
export const AccountErasureReply = z.strictObject({
  user_id: z.string(),
  /** When it was erased (the console shows this, never who it was). */
  erased_at: z.string(),
});
export type AccountErasureReply = z.infer<typeof AccountErasureReply>;
