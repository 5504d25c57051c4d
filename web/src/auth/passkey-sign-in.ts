import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import type { PasskeyCreationOptions, PasskeyRecord, PasskeyRequestOptions } from "@booking/contracts";
import { ApiError, api, setSession } from "../shared/api-client.ts";
import type { AuthSession } from "../shared/api-types.ts";

// Passkeys in the browser (issue 33.4), through @simplewebauthn/browser: the API hands out the
// options, the browser asks the device (Touch ID, Windows Hello, a phone, a security key), and the
// device's answer goes back to the API, which checks it. Three ceremonies: signing in with a passkey
// alone, giving one as the second factor after the password, and adding one to the account.

/** Whether this browser can use passkeys at all (the buttons are left out where it cannot). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** Sign in with a passkey the device keeps for this site: no address, no password. The session is stored. */
export async function signInWithPasskey(): Promise<AuthSession> {
  const optionsJSON = await api.post<PasskeyRequestOptions>("/auth/passkeys/sign-in/options", undefined, { auth: false });
  const response = await startAuthentication({ optionsJSON });
  const session = await api.post<AuthSession>("/auth/passkeys/sign-in", { response }, { auth: false });
  setSession(session);
  return session;
}

/** The second step of a password sign-in answered with one of the account's passkeys. The session is stored. */
export async function secondFactorWithPasskey(challenge: string): Promise<AuthSession> {
  const optionsJSON = await api.post<PasskeyRequestOptions>("/auth/login/two-factor/passkey/options", { challenge }, { auth: false });
  const response = await startAuthentication({ optionsJSON });
  const session = await api.post<AuthSession>("/auth/login/two-factor/passkey", { challenge, response }, { auth: false });
  setSession(session);
  return session;
}

/** Add a passkey made on this device to the signed-in account, named `name` (the API names it after the browser when empty). */
export async function addPasskey(name: string): Promise<PasskeyRecord> {
  const optionsJSON = await api.post<PasskeyCreationOptions>("/auth/passkeys/options");
  const response = await startRegistration({ optionsJSON });
  return api.post<PasskeyRecord>("/auth/passkeys", { response, ...(name.trim() && { name: name.trim() }) });
}

/** What went wrong with a passkey, in words: the API's refusal as the catalogue says it, or what the browser reported. */
export function passkeyProblem(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  // The library's errors keep the browser's name (NotAllowedError...) and add a code of their own.
  const name = error instanceof Error ? error.name : "";
  const code = error instanceof WebAuthnError ? error.code : "";
  // The person closed the device's prompt, or let it time out: nothing is wrong, nothing happened.
  if (name === "NotAllowedError" || name === "AbortError" || code === "ERROR_CEREMONY_ABORTED")
    return "No passkey was used: the request was cancelled or timed out.";
  if (name === "InvalidStateError" || code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
    return "This device already holds a passkey for your account.";
  return "This browser could not use a passkey. Please try again, or sign in another way.";
}
