import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { startAuthentication, type AuthenticationResponseJSON } from "@simplewebauthn/browser";
import KeyIcon from "@mui/icons-material/Key";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { AccountErasureBody, AccountErasureReply, PasskeyRequestOptions } from "@booking/contracts";
import { passkeyProblem, passkeysSupported } from "../auth/passkey-sign-in.ts";
import { EMPTY_SECOND_FACTOR, SecondFactorFields, checkSecondFactor } from "../auth/second-factor-fields.tsx";
import { ApiError, api, errorMessage } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { passkeysQuery } from "./passkeys-section.tsx";
import { twoFactorQuery } from "./two-factor-section.tsx";

// "Delete your account" (issue 33.2). A confirm step first: what goes and what stays, the password again, and with
// two-factor sign-in on a code; or, for a person with a passkey (issue 33.4), the passkey alone, which is both. The API
// refuses while a booking is open or money is owed, saying what to settle first; those words are shown as they come.
// Once erased, every sign-in has ended: this browser signs out to the landing page.

/** What deleting does, said before it is done. */
const WHAT_HAPPENS =
  "Your name, email address and everything you wrote (messages, answers, reviews) are removed for good, and you are signed out " +
  "everywhere. Bookings and payments stay in the other person's records and ours, shown as made by “Deleted user”. This cannot be undone.";

/** What POST /me/erasure takes: the password (and a code), or a passkey's answer as the browser gives it (the API checks its shape). */
type ErasureProof = Omit<AccountErasureBody, "passkey"> | { passkey: AuthenticationResponseJSON };

/** The device's answer to the erasure's passkey options: the proof POST /me/erasure takes in place of the password and the code. */
async function passkeyProof(): Promise<ErasureProof> {
  const optionsJSON = await api.post<PasskeyRequestOptions>("/me/erasure/passkey/options");
  return { passkey: await startAuthentication({ optionsJSON }) };
}

function ConfirmDeletion({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const { logout } = useAuth();
  const twoFactor = useQuery(twoFactorQuery());
  const needsCode = twoFactor.data?.enrolled === true;
  const passkeys = useQuery({ ...passkeysQuery(), enabled: passkeysSupported() });
  const hasPasskey = passkeysSupported() && (passkeys.data?.passkeys.length ?? 0) > 0;
  const [password, setPassword] = useState("");
  const [factor, setFactor] = useState(EMPTY_SECOND_FACTOR);
  const [errors, setErrors] = useState<{ password?: string; factor?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = needsCode ? checkSecondFactor(factor) : null;
    const found = {
      ...(!password && { password: "Please enter your password." }),
      ...(checked && !checked.ok && { factor: checked.error }),
    };
    setErrors(found);
    if (Object.keys(found).length || (checked && !checked.ok)) return;
    await erase(
      async () => ({ current_password: password, ...(checked?.ok && checked.proof) }),
      (error) => {
        if (error instanceof ApiError && error.code === "erasure_password_wrong") setErrors({ password: "This is not your password." });
        return errorMessage(error);
      },
    );
  };

  /** Erase with the proof `prove` gives; a failure is shown in the words `problem` finds for it. */
  const erase = async (prove: () => Promise<ErasureProof>, problem: (error: unknown) => string) => {
    setBusy(true);
    setFailure(null);
    try {
      await api.post<AccountErasureReply>("/me/erasure", await prove());
      // Off the account page first, so that signing out lands on the landing page and not on the sign-in form.
      navigate("/", { replace: true });
      await logout();
    } catch (error) {
      setFailure(problem(error));
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Delete your account" sx={{ display: "grid", gap: 2, maxWidth: 520 }}>
      <Alert severity="warning" role="note">
        {WHAT_HAPPENS}
      </Alert>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      {hasPasskey && (
        <>
          <Button
            variant="outlined"
            color="error"
            startIcon={<KeyIcon />}
            onClick={() => void erase(passkeyProof, passkeyProblem)}
            disabled={busy}
            sx={{ justifySelf: "start" }}
          >
            Confirm with a passkey
          </Button>
          <Divider>or with your password</Divider>
        </>
      )}
      <TextField
        label="Your Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={!!errors.password}
        helperText={errors.password}
        autoFocus
      />
      {needsCode && <SecondFactorFields value={factor} onChange={setFactor} error={errors.factor} />}
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" color="error" disabled={busy || twoFactor.isPending}>
          {busy ? "Deleting…" : "Delete My Account for Good"}
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          Keep My Account
        </Button>
      </Stack>
    </Box>
  );
}

/** The account page's last section: what deleting means, and the button that opens the confirm step. */
export function DeleteAccount() {
  const [confirming, setConfirming] = useState(false);
  if (confirming) return <ConfirmDeletion onCancel={() => setConfirming(false)} />;
  return (
    <Box sx={{ display: "grid", gap: 1.5, maxWidth: 560 }}>
      <Typography color="text.secondary">
        Deleting your account removes your name, email address and everything you wrote. Open bookings and money still owed to or by you
        have to be settled first.
      </Typography>
      <Box>
        <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
          Delete your account
        </Button>
      </Box>
    </Box>
  );
}
