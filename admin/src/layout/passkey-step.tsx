import KeyIcon from "@mui/icons-material/Key";
import { Button } from "@mui/material";
import { browserSupportsWebAuthn, WebAuthnError } from "@simplewebauthn/browser";

// The sign-in's passkey step in the console (issue 33.4): the same second step as the web app's
// (web/src/auth/passkey-sign-in.ts), through @simplewebauthn/browser; the console is served from the
// web app's own address (/admin/), the site its passkeys belong to. The API's refusals come as the
// sign-in's (SignInRefused); this file says in words what the browser reported.

/** Whether this browser can use passkeys at all (the button is left out where it cannot). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** What went wrong in the browser, in words (as the web app says it); null: not the browser's failure (the API's refusal, say). */
export function passkeyBrowserProblem(error: unknown): string | null {
  // The library's errors keep the browser's name (NotAllowedError...) and add a code of their own.
  const name = error instanceof Error ? error.name : "";
  const code = error instanceof WebAuthnError ? error.code : "";
  // The person closed the device's prompt, or let it time out: nothing is wrong, nothing happened.
  if (name === "NotAllowedError" || name === "AbortError" || code === "ERROR_CEREMONY_ABORTED")
    return "No passkey was used: the request was cancelled or timed out.";
  if (error instanceof WebAuthnError || (typeof DOMException !== "undefined" && error instanceof DOMException))
    return "This browser could not use a passkey. Please try again, or sign in another way.";
  return null;
}

/** "Use a passkey": one of the admin's passkeys answers the second step. `primary`: the only way (no authenticator app). */
export function PasskeyStepButton({ onClick, busy, primary }: { onClick: () => void; busy: boolean; primary: boolean }) {
  if (!passkeysSupported()) return null;
  return (
    <Button
      type={primary ? "submit" : "button"}
      variant={primary ? "contained" : "outlined"}
      size="large"
      startIcon={<KeyIcon />}
      onClick={primary ? undefined : onClick}
      disabled={busy}
    >
      Use a passkey
    </Button>
  );
}
