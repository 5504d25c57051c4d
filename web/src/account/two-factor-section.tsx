import { useState, type FormEvent } from "react";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { TwoFactorStatusReply } from "@booking/contracts";
import { checkSecondFactor, EMPTY_SECOND_FACTOR, SecondFactorFields } from "../auth/second-factor-fields.tsx";
import { ApiError, api, errorMessage } from "../shared/api-client.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { longDate } from "../shared/local-time.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { TwoFactorSetup } from "./two-factor-setup.tsx";

export const twoFactorQuery = () =>
  queryOptions({
    queryKey: ["two-factor"],
    queryFn: ({ signal }) => api.get<TwoFactorStatusReply>("/auth/two-factor", { signal }),
    staleTime: 0,
  });

/**
 * Two-factor sign-in (issue 33.4): whether it is on and how many recovery codes are left; setting it
 * up (or again, with another app); turning it off with the password and a code. Admins must keep it.
 */
export function TwoFactorSection() {
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorQuery());
  const [mode, setMode] = useState<"status" | "setup" | "off">("status");
  const [notice, setNotice] = useTimedNotice<string>();

  const back = (message?: string) => {
    setMode("status");
    if (message) setNotice(message);
    void queryClient.invalidateQueries({ queryKey: twoFactorQuery().queryKey });
  };

  if (status.isPending) return <LoadingScreen />;
  if (status.isError) return <Alert severity="error">Your two-factor sign-in could not be loaded: {errorMessage(status.error)}</Alert>;
  if (mode === "setup") return <TwoFactorSetup onDone={() => back()} onCancel={() => back()} />;
  if (mode === "off") return <TurnOffForm onDone={() => back("Two-factor sign-in is off.")} onCancel={() => back()} />;

  const { enrolled, enrolled_at, recovery_codes_left, required } = status.data;
  return (
    <Box sx={{ display: "grid", gap: 2, maxWidth: 640 }}>
      {notice && (
        <Alert severity="success" role="status">
          {notice}
        </Alert>
      )}
      {enrolled ? (
        <>
          <Typography>
            Two-factor sign-in is on (since {longDate(enrolled_at!)}): you sign in with your password and a code from your authenticator
            app.
          </Typography>
          <Typography color={recovery_codes_left > 2 ? "text.secondary" : "warning.main"}>
            {recovery_codes_left === 1 ? "1 recovery code left." : `${recovery_codes_left} recovery codes left.`} Setting it up again gives
            you ten new ones.
          </Typography>
        </>
      ) : (
        <Typography>
          Add a second step to your sign-in: after your password, a 6-digit code from an authenticator app on your phone. Someone who learns
          your password still cannot sign in.
        </Typography>
      )}
      {required && (
        <Alert severity={enrolled ? "info" : "warning"}>
          {enrolled ? "Admins keep two-factor sign-in on." : "Set up two-factor sign-in before using the console."}
        </Alert>
      )}
      <Stack direction="row" spacing={1}>
        <Button variant={enrolled ? "outlined" : "contained"} onClick={() => setMode("setup")}>
          {enrolled ? "Set Up Again With Another App" : "Set Up Two-Factor Sign-In"}
        </Button>
        {enrolled && !required && (
          <Button color="error" onClick={() => setMode("off")}>
            Turn Off
          </Button>
        )}
      </Stack>
    </Box>
  );
}

/** Turning it off: the password and a current code (or a recovery code), so a stolen session alone cannot. */
function TurnOffForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [password, setPassword] = useState("");
  const [factor, setFactor] = useState(EMPTY_SECOND_FACTOR);
  const [errors, setErrors] = useState<{ password?: string; factor?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkSecondFactor(factor);
    const found = { ...(!password && { password: "Please enter your current password." }), ...(!checked.ok && { factor: checked.error }) };
    setErrors(found);
    if (!checked.ok || !password) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.delete("/auth/two-factor", { body: { current_password: password, ...checked.proof } });
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.code === "reauthentication_needed")
        setErrors({ password: "This is not your current password." });
      setFailure(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      aria-label="Turn off two-factor sign-in"
      sx={{ display: "grid", gap: 2, maxWidth: 420 }}
    >
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <TextField
        label="Current Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={!!errors.password}
        helperText={errors.password}
      />
      <SecondFactorFields value={factor} onChange={setFactor} error={errors.factor} />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" color="error" disabled={busy}>
          Turn Off Two-Factor Sign-In
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </Stack>
    </Box>
  );
}
