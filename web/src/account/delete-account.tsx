import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { AccountErasureReply } from "@booking/contracts";
import { EMPTY_SECOND_FACTOR, SecondFactorFields, checkSecondFactor } from "../auth/second-factor-fields.tsx";
import { ApiError, api, errorMessage } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { twoFactorQuery } from "./two-factor-section.tsx";

// "Delete your account" (issue 33.2). A confirm step first: what goes and what stays, the password again, and with
// two-factor sign-in on a code. The API refuses while a booking is open or money is owed, saying what to settle first;
// those words are shown as they come. Once erased, every sign-in has ended: this browser signs out to the landing page.

/** What deleting does, said before it is done. */
const WHAT_HAPPENS =
  "Your name, email address and everything you wrote (messages, answers, reviews) are removed for good, and you are signed out " +
  "everywhere. Bookings and payments stay in the other person's records and ours, shown as made by “Deleted user”. This cannot be undone.";

function ConfirmDeletion({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const { logout } = useAuth();
  const twoFactor = useQuery(twoFactorQuery());
  const needsCode = twoFactor.data?.enrolled === true;
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
    setBusy(true);
    setFailure(null);
    try {
      await api.post<AccountErasureReply>("/me/erasure", { current_password: password, ...(checked?.ok && checked.proof) });
      // Off the account page first, so that signing out lands on the landing page and not on the sign-in form.
      navigate("/", { replace: true });
      await logout();
    } catch (error) {
      if (error instanceof ApiError && error.code === "erasure_password_wrong") setErrors({ password: "This is not your password." });
      setFailure(errorMessage(error));
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
