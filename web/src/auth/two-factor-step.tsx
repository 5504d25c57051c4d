import { useState, type FormEvent } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Typography from "@mui/material/Typography";
import type { SecondFactorKind } from "@booking/contracts";
import { ApiError, errorMessage } from "../shared/api-client.ts";
import type { AuthSession } from "../shared/api-types.ts";
import { FormRefusal } from "../shared/form-page.tsx";
import { PasskeySecondFactorButton } from "./passkey-sign-in-buttons.tsx";
import { passkeyProblem, passkeysSupported } from "./passkey-sign-in.ts";
import { checkSecondFactor, EMPTY_SECOND_FACTOR, SecondFactorFields } from "./second-factor-fields.tsx";
import { signInWithSecondFactor } from "./two-factor-sign-in.ts";

/** Refusals that end the sign-in: the password must be given again (the page goes back to it, saying why). */
const SIGN_IN_OVER = new Set(["two_factor_challenge_expired", "two_factor_challenge_invalid"]);

/**
 * The login's second step (issue 33.4): the password was right and the account has a second factor, so
 * the code its authenticator app shows (or a recovery code), or one of its passkeys, completes the sign-in.
 */
export function TwoFactorStep({
  challenge,
  secondFactors = ["code"],
  onSignedIn,
  onStartAgain,
}: {
  challenge: string;
  /** What the account can answer with (the password step's reply says). */
  secondFactors?: readonly SecondFactorKind[];
  onSignedIn: (session: AuthSession) => void;
  /** Back to the password, with the reason. */
  onStartAgain: (reason: string) => void;
}) {
  const [input, setInput] = useState(EMPTY_SECOND_FACTOR);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const checked = checkSecondFactor(input);
    setFieldError(checked.ok ? undefined : checked.error);
    if (!checked.ok) return;
    setBusy(true);
    try {
      onSignedIn(await signInWithSecondFactor(challenge, checked.proof));
    } catch (error) {
      setBusy(false);
      failed(error, errorMessage(error));
    }
  };

  function failed(error: unknown, message: string) {
    if (error instanceof ApiError && SIGN_IN_OVER.has(error.code)) return onStartAgain(error.message);
    setServerError(message);
  }

  const passkey = secondFactors.includes("passkey") && (
    <PasskeySecondFactorButton
      challenge={challenge}
      onSignedIn={onSignedIn}
      onFailure={(error) => failed(error, passkeyProblem(error))}
      primary={!secondFactors.includes("code")}
    />
  );
  // An account with passkeys and no authenticator app: the passkey is the step.
  if (!secondFactors.includes("code"))
    return (
      <Box aria-label="Two-factor sign-in" role="group" sx={{ display: "grid", gap: 2 }}>
        <Typography component="h2" variant="h6">
          Two-factor sign-in
        </Typography>
        <Typography color="text.secondary">
          {passkeysSupported()
            ? "Confirm it is you with one of the passkeys you added to your account."
            : "Your account asks for one of your passkeys, and this browser cannot use passkeys. Please sign in from a browser that can."}
        </Typography>
        {passkey}
        <FormRefusal message={serverError} />
      </Box>
    );

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Two-factor sign-in" sx={{ display: "grid", gap: 2 }}>
      <Typography component="h2" variant="h6">
        Two-factor sign-in
      </Typography>
      <Typography color="text.secondary">
        {input.mode === "code"
          ? "Open your authenticator app and enter the 6-digit code it shows for Expert Sessions."
          : "Enter one of the recovery codes you saved when you set up two-factor sign-in."}
      </Typography>
      <SecondFactorFields value={input} onChange={(next) => (setInput(next), setFieldError(undefined))} error={fieldError} autoFocus />
      <Button type="submit" variant="contained" size="large" disabled={busy}>
        Verify
      </Button>
      {passkey && passkeysSupported() && (
        <>
          <Divider>or</Divider>
          {passkey}
        </>
      )}
      <FormRefusal message={serverError} />
    </Box>
  );
}
