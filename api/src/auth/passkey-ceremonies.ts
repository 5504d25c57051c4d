import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import {
  PASSKEY_CHALLENGE_SECONDS,
  type PasskeyAssertion,
  type PasskeyCreationOptions,
  type PasskeyRegistrationResponse,
  type PasskeyRequestOptions,
} from "@booking/contracts";
import { refuse } from "../http/index.ts";
import type { Account } from "./accounts.ts";
import type { NewPasskey, Passkey } from "./passkey-table.ts";

// The two WebAuthn ceremonies (registering a passkey, signing with one) as @simplewebauthn runs
// them, for the product's relying party: the web app's own address (PUBLIC_URL), so a passkey made
// on the product works nowhere else and an answer signed for another site is refused. Each failure
// becomes a catalogue refusal; the library's own messages never reach a person.

/** Who the passkeys are for: the name authenticators show, and the site (RP ID) and origin answers must name. */
export type RelyingParty = { name: string; id: string; origin: string };

/** The relying party of the web app at `publicUrl` (its host is the RP ID: a passkey made for it works on that host only). */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { name: "Expert Sessions", id: url.hostname, origin: url.origin };
}

/** The WebAuthn user handle of an account: its id's bytes (an id, not the address, so a passkey tells nobody who it is for). */
const userHandleOf = (userId: string) => new TextEncoder().encode(userId);

const timeout = PASSKEY_CHALLENGE_SECONDS * 1000;
/**
 * The key types accepted (COSE: EdDSA, ES256, RS256), what authenticators make. Named, so the library does not
 * ask Node whether it can verify post-quantum keys: an experimental API that prints a warning in the server's log.
 */
const ALGORITHMS = [-8, -7, -257];
const described = (passkeys: readonly Passkey[]) => passkeys.map((p) => ({ id: p.credentialId, transports: p.transports }));

/** Options for adding a passkey to `account`: discoverable (it signs in alone), none of the ones it has again. */
export function creationOptions(rp: RelyingParty, account: Account, existing: readonly Passkey[]): Promise<PasskeyCreationOptions> {
  const displayName = [account.firstName, account.lastName].filter(Boolean).join(" ") || account.email;
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandleOf(account.userId),
    userName: account.email,
    userDisplayName: displayName,
    timeout,
    attestationType: "none",
    excludeCredentials: described(existing),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

/**
 * Options for signing in with a passkey. Alone (no `allowed`: the browser offers every passkey it keeps
 * for this site) the passkey replaces the password and the address, so it must verify the person (PIN,
 * fingerprint); after a password (`allowed`: the account's passkeys) presence is enough, as for a code,
 * unless `verifyPerson` says the passkey stands in for the password too (re-authentication).
 */
export function requestOptions(rp: RelyingParty, allowed?: readonly Passkey[], verifyPerson = !allowed): Promise<PasskeyRequestOptions> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    timeout,
    userVerification: verifyPerson ? "required" : "preferred",
    ...(allowed && { allowCredentials: described(allowed) }),
  });
}

/** The challenge an answer signed, read from its clientDataJSON; null when it cannot be read. */
export function challengeOf(response: { response: { clientDataJSON: string } }): string | null {
  try {
    const clientData: unknown = JSON.parse(Buffer.from(response.response.clientDataJSON, "base64url").toString("utf8"));
    const challenge = (clientData as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === "string" && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

/** A registration answer for `challenge` checked: the credential to keep for `userId`, or a refusal. */
export async function verifiedRegistration(
  rp: RelyingParty,
  response: PasskeyRegistrationResponse,
  challenge: string,
  userId: string,
): Promise<Omit<NewPasskey, "name" | "device">> {
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // Asked for, not required: at sign-in without a password it is required (requestOptions).
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch {
    refuse("passkey_not_verified");
  }
  if (!verified.verified) refuse("passkey_not_verified");
  const { credential, credentialBackedUp } = verified.registrationInfo;
  return {
    credentialId: credential.id,
    userId,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? response.response.transports ?? [],
    synced: credentialBackedUp,
  };
}

/** A signature count that did not move on: the passkey's answer comes from a copy (authenticators without a count say 0 always). */
export const counterRegressed = (seen: number, counter: number): boolean => (counter > 0 || seen > 0) && counter <= seen;

/**
 * An answer for `challenge` checked against `passkey`'s public key: the signature count it carries,
 * or a refusal. `userVerified`: whether the person must have been verified (a passkey alone).
 */
export async function verifiedAssertion(
  rp: RelyingParty,
  response: PasskeyAssertion,
  passkey: Passkey,
  challenge: string,
  userVerified: boolean,
): Promise<number> {
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // The count is checked here, after the signature: an unsigned answer is "not verified", whatever its count says.
      credential: { id: passkey.credentialId, publicKey: passkey.publicKey, counter: 0, transports: passkey.transports },
      requireUserVerification: userVerified,
    });
  } catch {
    refuse("passkey_not_verified");
  }
  if (!verified.verified) refuse("passkey_not_verified");
  const counter = verified.authenticationInfo.newCounter;
  if (counterRegressed(passkey.counter, counter)) refuse("passkey_counter_regressed");
  return counter;
}

/** Whether a discoverable passkey's answer names `userId` as its user (an answer without a handle names no one else). */
export const handleNames = (response: PasskeyAssertion, userId: string): boolean =>
  response.response.userHandle === undefined ||
  Buffer.from(response.response.userHandle, "base64url").equals(Buffer.from(userHandleOf(userId)));
