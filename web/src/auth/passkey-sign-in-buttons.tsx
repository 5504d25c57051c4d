import { useState } from "react";
import KeyIcon from "@mui/icons-material/Key";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import type { AuthSession } from "../shared/api-types.ts";
import { FormRefusal } from "../shared/form-page.tsx";
import { passkeyProblem, passkeysSupported, secondFactorWithPasskey, signInWithPasskey } from "./passkey-sign-in.ts";

// The login page's passkey buttons (issue 33.4): signing in with a passkey alone, and answering the
// second step of a password sign-in with one. Left out where the browser cannot use passkeys.

/** "Sign in with a passkey", under the password form: the device offers the passkeys it keeps for this site. */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: (session: AuthSession) => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!passkeysSupported()) return null;

  const signIn = async () => {
    setBusy(true);
    setProblem(null);
    try {
      onSignedIn(await signInWithPasskey());
    } catch (error) {
      setProblem(passkeyProblem(error));
      setBusy(false);
    }
  };

  return (
    <Box sx={{ mt: 3, display: "grid", gap: 2 }}>
      <Divider>or</Divider>
      <Button variant="outlined" size="large" startIcon={<KeyIcon />} onClick={() => void signIn()} disabled={busy}>
        Sign in with a passkey
      </Button>
      <FormRefusal message={problem} />
    </Box>
  );
}

/**
 * "Use a passkey" on the second step: one of the account's passkeys instead of a code. Failures go to
 * the step (`onFailure`), which knows which of them end the sign-in.
 */
export function PasskeySecondFactorButton({
  challenge,
  onSignedIn,
  onFailure,
  primary = false,
}: {
  challenge: string;
  onSignedIn: (session: AuthSession) => void;
  onFailure: (error: unknown) => void;
  /** The only way to answer (the account has no authenticator app): the step's main button. */
  primary?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  if (!passkeysSupported()) return null;

  const answer = async () => {
    setBusy(true);
    try {
      onSignedIn(await secondFactorWithPasskey(challenge));
    } catch (error) {
      setBusy(false);
      onFailure(error);
    }
  };

  return (
    <Button variant={primary ? "contained" : "outlined"} size="large" startIcon={<KeyIcon />} onClick={() => void answer()} disabled={busy}>
      Use a passkey
    </Button>
  );
}
