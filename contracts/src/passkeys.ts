import { z } from "zod";
import { TwoFactorLoginBody } from "./two-factor.ts";

// Passkeys (issue 33.4): WebAuthn credentials a person registers on the account page, then signs in
// with alone (a discoverable credential: no address, no password) or gives as the second factor after
// their password. The options the API hands the browser and the answers the browser sends back are
// WebAuthn's JSON forms (base64url for the bytes), as @simplewebauthn writes and reads them; the API
// checks the bytes themselves, so these schemas only bound their size and shape.

/** How many passkeys an account may keep. */
export const PASSKEY_LIMIT = 20;
/** How long the browser has to answer the options (and a challenge is kept), in seconds. */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;
/** The longest name a person may give a passkey. */
export const PASSKEY_NAME_MAX = 60;

// Whatever is wrong with an answer, it is one refusal: the browser made it, not the person.
const unreadable = { error: "passkey_response_invalid" } as const;
/** Bytes as WebAuthn's JSON carries them; bounded so no answer can be large (attestations with certificates stay well below). */
const Bytes = z
  .string(unreadable)
  .max(16_384, unreadable)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/, unreadable);
/** Transports as browsers name them ("internal", "hybrid", "usb", ...): kept to offer the same ones at sign-in. */
const Transports = z.array(z.string(unreadable).max(32, unreadable), unreadable).max(10, unreadable);
const PublicKeyType = z.literal("public-key", unreadable);
const Attachment = z.enum(["platform", "cross-platform"], unreadable);

const CredentialDescriptor = z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() });
const UserVerification = z.enum(["required", "preferred", "discouraged"]);

/** The options navigator.credentials.create() takes, as JSON (`PublicKeyCredentialCreationOptionsJSON`). */
export const PasskeyCreationOptions = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal("public-key") })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(CredentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
      residentKey: z.enum(["required", "preferred", "discouraged"]).optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: UserVerification.optional(),
    })
    .optional(),
  attestation: z.enum(["none", "indirect", "direct", "enterprise"]).optional(),
  hints: z.array(z.enum(["hybrid", "security-key", "client-device"])).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});
export type PasskeyCreationOptions = z.infer<typeof PasskeyCreationOptions>;

/** The options navigator.credentials.get() takes, as JSON (`PublicKeyCredentialRequestOptionsJSON`). */
export const PasskeyRequestOptions = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(CredentialDescriptor).optional(),
  userVerification: UserVerification.optional(),
});
export type PasskeyRequestOptions = z.infer<typeof PasskeyRequestOptions>;

/** What the authenticator made, as the browser hands it over (`RegistrationResponseJSON`). */
export const PasskeyRegistrationResponse = z.object(
  {
    id: Bytes,
    rawId: Bytes,
    type: PublicKeyType,
    response: z.object(
      {
        clientDataJSON: Bytes,
        attestationObject: Bytes,
        authenticatorData: Bytes.optional(),
        transports: Transports.optional(),
        publicKeyAlgorithm: z.number(unreadable).optional(),
        publicKey: Bytes.optional(),
      },
      unreadable,
    ),
    authenticatorAttachment: Attachment.optional(),
    clientExtensionResults: z.object({ credProps: z.object({ rk: z.boolean(unreadable).optional() }, unreadable).optional() }, unreadable),
  },
  unreadable,
);
export type PasskeyRegistrationResponse = z.infer<typeof PasskeyRegistrationResponse>;

/** What the authenticator signed, as the browser hands it over (`AuthenticationResponseJSON`). */
export const PasskeyAssertion = z.object(
  {
    id: Bytes,
    rawId: Bytes,
    type: PublicKeyType,
    response: z.object({ clientDataJSON: Bytes, authenticatorData: Bytes, signature: Bytes, userHandle: Bytes.optional() }, unreadable),
    authenticatorAttachment: Attachment.optional(),
    clientExtensionResults: z.object({}, unreadable),
  },
  unreadable,
);
export type PasskeyAssertion = z.infer<typeof PasskeyAssertion>;

/** A passkey's name as a person gives it: spaces at the ends dropped, 1 to PASSKEY_NAME_MAX characters. */
export const PasskeyName = z
  .string({ error: "passkey_name_invalid" })
  .trim()
  .min(1, { error: "passkey_name_invalid" })
  .max(PASSKEY_NAME_MAX, { error: "passkey_name_invalid" });

/** POST /auth/passkeys: the new passkey, named (by default after the browser it was made in). */
export const PasskeyRegistrationBody = z.strictObject({
  name: PasskeyName.optional(),
  response: PasskeyRegistrationResponse,
});
export type PasskeyRegistrationBody = z.infer<typeof PasskeyRegistrationBody>;

/** One of the caller's passkeys. */
export const PasskeyRecord = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** The browser and system it was added on: "Chrome on Linux". */
  device: z.string(),
  created_at: z.string(),
  /** Its last sign-in; null: not used since it was added. */
  last_used_at: z.string().nullable(),
  /** Whether the authenticator says it is synced (an iCloud Keychain or Google Password Manager passkey). */
  synced: z.boolean(),
});
export type PasskeyRecord = z.infer<typeof PasskeyRecord>;

/** GET /auth/passkeys: the caller's passkeys, newest first. */
export const PasskeysReply = z.strictObject({ passkeys: z.array(PasskeyRecord) });
export type PasskeysReply = z.infer<typeof PasskeysReply>;

/** DELETE /auth/passkeys/{id}. */
export const PasskeyParams = z.strictObject({ id: z.string().max(64, { error: "passkey_not_found" }) });

/** POST /auth/passkeys/sign-in: a passkey alone signs in. */
export const PasskeySignInBody = z.strictObject({ response: PasskeyAssertion });
export type PasskeySignInBody = z.infer<typeof PasskeySignInBody>;

/** The challenge POST /auth/login answered, as the second factor's routes take it back. */
const SignInChallenge = TwoFactorLoginBody.shape.challenge;

/** POST /auth/login/two-factor/passkey/options: the password step's challenge (whose passkeys to offer). */
export const PasskeySecondFactorOptionsBody = z.strictObject({ challenge: SignInChallenge });

/** POST /auth/login/two-factor/passkey: the password step's challenge and a passkey's answer. */
export const PasskeySecondFactorBody = z.strictObject({ challenge: SignInChallenge, response: PasskeyAssertion });
export type PasskeySecondFactorBody = z.infer<typeof PasskeySecondFactorBody>;
